// ArchiveLib: the libarchive functions a perf archive is unpacked with,
// resolved from libarchive.so.13 (dlopen) the first time an archive is
// opened rather than linked into every program.
//
// Why: libarchive brings libxml2, ICU, nettle, acl and lz4 with it, and
// loading and relocating them would cost every run of flamefold, flamediff,
// flamereport and flamebatch, whether or not a perf archive is read: a
// start-up cost that matters to a short run, such as a perf.data fold.
#ifndef FLAMEFOLD_PERFDATA_ARCHIVE_LIB_H_
#define FLAMEFOLD_PERFDATA_ARCHIVE_LIB_H_

#include <archive.h>
#include <archive_entry.h>

#include <string>

#if ARCHIVE_VERSION_NUMBER < 3000000 || ARCHIVE_VERSION_NUMBER >= 4000000
#error "libarchive 3.x (soname libarchive.so.13) expected"
#endif

namespace flamefold {

// Every libarchive function perf_archive.cc calls.
#define FLAMEFOLD_ARCHIVE_FUNCTIONS(X)                                    \
  X(archive_read_new) X(archive_read_free) X(archive_write_disk_new)      \
  X(archive_write_free) X(archive_error_string)                           \
  X(archive_read_support_filter_all) X(archive_read_support_format_all)   \
  X(archive_read_open_fd) X(archive_read_next_header)                     \
  X(archive_filter_count) X(archive_format)                               \
  X(archive_write_disk_set_options) X(archive_write_header)               \
  X(archive_write_finish_entry) X(archive_read_data_block)                \
  X(archive_write_data_block) X(archive_entry_hardlink)                   \
  X(archive_entry_symlink) X(archive_entry_filetype)                      \
  X(archive_entry_pathname) X(archive_entry_copy_pathname)                \
  X(archive_entry_copy_hardlink) X(archive_entry_set_perm)

struct ArchiveLib {
#define FLAMEFOLD_ARCHIVE_FIELD(name) decltype(&::name) name = nullptr;
  FLAMEFOLD_ARCHIVE_FUNCTIONS(FLAMEFOLD_ARCHIVE_FIELD)
#undef FLAMEFOLD_ARCHIVE_FIELD
};

/// The library's functions, loaded at the first call (safe from several
/// threads; the library stays loaded); nullptr, with why in `*err`, when
/// libarchive.so.13 cannot be loaded or lacks one of them.
const ArchiveLib* LoadArchiveLib(std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_ARCHIVE_LIB_H_
