#include "perfdata/perf_archive.h"

#include <sys/stat.h>

#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "io/file_source.h"
#include "perfdata/archive_lib.h"

namespace flamefold {
namespace {

// libarchive's functions; PerfArchive::Open loads them before any use.
const ArchiveLib& Lib() {
  std::string unused;
  return *LoadArchiveLib(&unused);
}

// The components of a '/'-separated path, without empty ones and ".".
std::vector<std::string> Components(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    std::string part = path.substr(start, slash - start);
    if (!part.empty() && part != ".") parts.push_back(std::move(part));
    start = slash + 1;
  }
  return parts;
}

int RemoveOne(const char* path, const struct stat*, int, struct FTW*) {
  std::remove(path);
  return 0;  // go on: remove as much as can be removed
}

std::string Plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

struct ReadCloser {
  void operator()(struct archive* a) const { Lib().archive_read_free(a); }
};
struct WriteCloser {
  void operator()(struct archive* a) const { Lib().archive_write_free(a); }
};

std::string LibError(struct archive* a) {
  const char* msg = Lib().archive_error_string(a);
  return msg ? msg : "unknown error";
}

// Why `entry` (named `name` in the archive) is not unpacked; "" if it is
// safe and of a kind a build-id cache holds.
std::string Refusal(struct archive_entry* entry, const std::string& name) {
  if (!ArchiveNameIsSafe(name)) return "absolute or holds '..'";
  const char* hard = Lib().archive_entry_hardlink(entry);
  if (hard) {
    return ArchiveNameIsSafe(hard) ? "" : "hard link out of the archive";
  }
  switch (Lib().archive_entry_filetype(entry)) {
    case AE_IFREG:
    case AE_IFDIR:
      return "";
    case AE_IFLNK: {
      const char* target = Lib().archive_entry_symlink(entry);
      return target && ArchiveLinkIsSafe(name, target)
                 ? ""
                 : "symlink out of the archive";
    }
    default:
      return "not a file, directory or link";
  }
}

}  // namespace

bool ArchiveNameIsSafe(const std::string& name) {
  if (name.empty() || name[0] == '/') return false;
  std::vector<std::string> parts = Components(name);
  if (parts.empty()) return false;
  for (const std::string& p : parts) {
    if (p == "..") return false;
  }
  return true;
}

// The target's ".." components must all come first: the link's own
// directory is a real one (nothing is unpacked through a symlink), so
// leading ".." climb real directories, checked against the link's depth;
// a ".." after a name could climb out of wherever a symlink led.
bool ArchiveLinkIsSafe(const std::string& name, const std::string& target) {
  if (target.empty() || target[0] == '/') return false;
  long depth = static_cast<long>(Components(name).size()) - 1;
  bool climbing = true;
  for (const std::string& p : Components(target)) {
    if (p != "..") {
      climbing = false;
    } else if (!climbing || --depth < 0) {
      return false;
    }
  }
  return true;
}

PerfArchive::~PerfArchive() {
  if (!dir_.empty()) nftw(dir_.c_str(), RemoveOne, 16, FTW_DEPTH | FTW_PHYS);
}

bool PerfArchive::Open(const std::string& path, std::string* err) {
  if (!dir_.empty()) return true;
  path_ = path;
  std::string why;
  if (!LoadArchiveLib(&why)) {
    *err = path + ": " + why;
    return false;
  }
  const int fd = OpenFileFd(path, err);
  if (fd < 0) return false;
  FdSource file(fd, true);  // open until libarchive has read it
  std::unique_ptr<struct archive, ReadCloser> in(Lib().archive_read_new());
  std::unique_ptr<struct archive, WriteCloser> out(
      Lib().archive_write_disk_new());
  if (!in || !out) {
    *err = path + ": out of memory";
    return false;
  }
  Lib().archive_read_support_filter_all(in.get());
  Lib().archive_read_support_format_all(in.get());
  if (!MakeTempDir(err)) return false;
  // libarchive knows the format at the open or at the first header. A file
  // of no compression and no format it knows (its plain reader alone is
  // left) is not an archive; any other failure is damage, said below as
  // damage later on is (a failing decompressor leaves no reader at all).
  struct archive_entry* entry = nullptr;
  int r = Lib().archive_read_open_fd(in.get(), fd, 1 << 16);
  if (r == ARCHIVE_OK) r = Lib().archive_read_next_header(in.get(), &entry);
  if (r < ARCHIVE_WARN && Lib().archive_filter_count(in.get()) == 1 &&
      Lib().archive_format(in.get()) == 0) {
    *err = path + ": not a perf archive: " + LibError(in.get());
    nftw(dir_.c_str(), RemoveOne, 16, FTW_DEPTH | FTW_PHYS);
    dir_.clear();
    return false;
  }
  Unpack(in.get(), out.get(), r, entry);
  return true;
}

// The entries from `entry` (which the read of its header returned `r`) on,
// into dir_; warns of the damage met and of the entries refused.
void PerfArchive::Unpack(struct archive* in, struct archive* out, int r,
                         struct archive_entry* entry) {
  Lib().archive_write_disk_set_options(
      out, ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT);
  size_t refused = 0;
  std::string first_refused;
  for (; r != ARCHIVE_EOF; r = Lib().archive_read_next_header(in, &entry)) {
    if (r < ARCHIVE_WARN) {
      warnings_.push_back(path_ + ": cut short or corrupt after " +
                          Plural(entries_, "entry", "entries") + " (" +
                          LibError(in) + "): the rest is missing");
      break;
    }
    const char* raw = Lib().archive_entry_pathname(entry);
    std::string name = raw ? raw : "";
    if (Lib().archive_entry_filetype(entry) == AE_IFDIR && !name.empty() &&
        name[0] != '/' && Components(name).empty()) {
      continue;  // "./", the tree's root: already there
    }
    std::string why = Refusal(entry, name);
    if (why.empty()) why = WriteHeader(out, entry, name);
    if (!why.empty()) {
      if (refused++ == 0) first_refused = name + ": " + why;
      continue;
    }
    if (!CopyData(in, out, name)) {
      std::remove((dir_ + "/" + name).c_str());  // never half a file
      break;
    }
    Lib().archive_write_finish_entry(out);
    entries_++;
  }
  if (entries_ == 0 && refused == 0 && warnings_.empty()) {
    warnings_.push_back(path_ + ": the archive is empty");
  }
  if (refused > 0) {
    warnings_.push_back(path_ + ": " +
                        Plural(refused, "entry was", "entries were") +
                        " not unpacked (first: " + first_refused + ")");
  }
}

// A fresh directory under $TMPDIR (else /tmp) into dir_; false with `*err`.
bool PerfArchive::MakeTempDir(std::string* err) {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/flamefold-archive-XXXXXX";
  if (!mkdtemp(templ.data())) {
    *err = path_ + ": cannot make a temporary directory " + templ + ": " +
           std::strerror(errno);
    return false;
  }
  // Without symlinks in its path, so that the secure checks pass it.
  char resolved[PATH_MAX];
  dir_ = realpath(templ.c_str(), resolved) ? resolved : templ;
  return true;
}

// Creates the safe entry `name` (a file, directory or link) under dir_,
// readable whatever modes the archive gave; "" or why it failed.
std::string PerfArchive::WriteHeader(struct archive* out,
                                     struct archive_entry* entry,
                                     const std::string& name) {
  Lib().archive_entry_copy_pathname(entry, (dir_ + "/" + name).c_str());
  if (const char* hard = Lib().archive_entry_hardlink(entry)) {
    Lib().archive_entry_copy_hardlink(
        entry, (dir_ + "/" + std::string(hard)).c_str());
  }
  Lib().archive_entry_set_perm(
      entry, Lib().archive_entry_filetype(entry) == AE_IFDIR ? 0755 : 0644);
  if (Lib().archive_write_header(out, entry) < ARCHIVE_WARN) {
    return LibError(out);
  }
  return "";
}

// The data of the current entry `name`; false (with a warning) when the
// archive is cut short or corrupt inside it, or the disk refuses it.
bool PerfArchive::CopyData(struct archive* in, struct archive* out,
                           const std::string& name) {
  const void* buf;
  size_t size;
  la_int64_t offset;
  for (;;) {
    int r = Lib().archive_read_data_block(in, &buf, &size, &offset);
    if (r == ARCHIVE_EOF) return true;
    if (r < ARCHIVE_WARN) {
      warnings_.push_back(path_ + ": cut short or corrupt inside " + name +
                          " after " + Plural(entries_, "entry", "entries") +
                          " (" + LibError(in) + "): " + name +
                          " and the rest are missing");
      return false;
    }
    if (Lib().archive_write_data_block(out, buf, size, offset) < ARCHIVE_WARN) {
      warnings_.push_back(path_ + ": cannot unpack " + name + " (" +
                          LibError(out) + "): it and the rest are missing");
      return false;
    }
  }
}

// See the header.
bool UsePerfArchive(const std::string& option, const std::string& file,
                    const Diag& diag, PerfArchive* archive,
                    SymbolOptions* symbols, std::string* err) {
  std::string path = option;
  bool beside = false;
  struct stat st;
  if (path.empty() && file != "-" &&
      stat((file + ".tar.bz2").c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    path = file + ".tar.bz2";
    beside = true;
    diag.Note("using archive " + path);
  }
  if (path.empty()) return true;
  std::string why;
  if (!archive->Open(path, &why)) {
    if (!beside) {
      *err = why;
      return false;
    }
    diag.Warning(why + "; folded without it");
    return true;
  }
  for (const std::string& w : archive->warnings()) diag.Warning(w);
  symbols->archive_dir = archive->dir();
  symbols->archive_name = path;
  return true;
}

}  // namespace flamefold
