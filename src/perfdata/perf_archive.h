// PerfArchive: the bundle `perf archive` writes beside a perf.data
// (perf.data.tar.bz2: a build-id cache tree, `.build-id/xx/yyyy` symlinks
// to `<path>/<build id>/elf|debug|vdso`), unpacked into a private temporary
// directory that SymbolResolver then reads as a build-id cache. The format
// is found by its magic bytes (libarchive: tar, any compression it knows).
//
// Unpacking is safe against hostile archives: an entry whose name is
// absolute or holds "..", a symlink whose target is absolute or leads out
// of the tree, a hard link to outside, or anything but a file, directory
// or link is refused (and counted in a warning); nothing is written
// through a symlink (libarchive's ARCHIVE_EXTRACT_SECURE_* checks as well).
// A cut-short or corrupt archive keeps what came before the damage and
// says what was lost; a file cut short is removed rather than half used.
#ifndef FLAMEFOLD_PERFDATA_PERF_ARCHIVE_H_
#define FLAMEFOLD_PERFDATA_PERF_ARCHIVE_H_

#include <string>
#include <vector>

#include "base/diag.h"
#include "symbols/symbol_resolver.h"

struct archive;
struct archive_entry;

namespace flamefold {

class PerfArchive {
 public:
  PerfArchive() = default;
  /// Removes the unpacked tree.
  ~PerfArchive();
  PerfArchive(const PerfArchive&) = delete;
  PerfArchive& operator=(const PerfArchive&) = delete;

  /// Unpacks the archive at `path` (at most once per object). False with
  /// `*err` ("PATH: why") when nothing could be read: no such file, not an
  /// archive, no temporary directory. True otherwise, even when the
  /// archive was damaged: `warnings()` then says what was lost.
  bool Open(const std::string& path, std::string* err);

  /// The unpacked tree (a build-id cache); "" before a successful Open.
  const std::string& dir() const { return dir_; }
  /// What was refused or lost, one message each, naming the archive.
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// Entries unpacked.
  size_t entries() const { return entries_; }

 private:
  bool MakeTempDir(std::string* err);
  void Unpack(struct archive* in, struct archive* out, int r,
              struct archive_entry* entry);
  std::string WriteHeader(struct archive* out, struct archive_entry* entry,
                          const std::string& name);
  bool CopyData(struct archive* in, struct archive* out,
                const std::string& name);

  std::string path_;
  std::string dir_;
  std::vector<std::string> warnings_;
  size_t entries_ = 0;
};

/// True when `name` (an archive entry's path) is relative and has no ".."
/// component: it stays inside the directory it is unpacked into.
bool ArchiveNameIsSafe(const std::string& name);

/// True when a symlink at `name` pointing to `target` stays inside the
/// tree it is unpacked into (`target` relative, never climbing above the
/// tree's root).
bool ArchiveLinkIsSafe(const std::string& name, const std::string& target);

/// The `perf archive` that the perf.data `file`'s symbols come from:
/// `option` (--archive), else FILE.tar.bz2 beside a perf.data file (the name
/// perf archive gives it), used with a note. Unpacks it into `*archive` and
/// points `*symbols` at it, warning of what it lost. False with `*err` only
/// when `option` names something that cannot be read; such an archive
/// found by itself is warned of and left out.
bool UsePerfArchive(const std::string& option, const std::string& file,
                    const Diag& diag, PerfArchive* archive,
                    SymbolOptions* symbols, std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_PERF_ARCHIVE_H_
