#include "io/input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "io/decompress.h"

namespace flamefold {
namespace {

constexpr size_t kSniffBytes = 64 * 1024;
// A first line longer than kSniffBytes (a 100,000-deep folded stack) is read
// on, up to the default line limit, so that its end decides the kind.
constexpr size_t kMaxSniffBytes = 16u << 20;

// Reads up to kSniffBytes of `src` into `*text`, and on until the first
// newline (at most kMaxSniffBytes) when the first line is longer.
bool ReadSniffHead(ByteSource* src, std::string* text, std::string* err) {
  if (!ReadFully(src, kSniffBytes, text, err)) return false;
  size_t want = kSniffBytes;
  while (text->size() == want && want < kMaxSniffBytes &&
         !HasPerfDataMagic(*text) &&
         text->find('\n') == std::string::npos) {
    std::string more;
    size_t next = std::min(want * 4, kMaxSniffBytes);
    if (!ReadFully(src, next - want, &more, err)) return false;
    text->append(more);
    want = next;
  }
  return true;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

// "a;b;c 12" or "a;b 1.5": a stack, white space, a count (flamegraph.pl's
// /^(.*)\s+?(\d+(?:\.\d*)?)$/), and no leading white space, which perf
// script's indented frame lines always have.
bool LooksFolded(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty() || IsSpace(line[0])) return false;
  size_t i = line.size();
  while (i > 0 && line[i - 1] >= '0' && line[i - 1] <= '9') --i;
  if (i > 0 && line[i - 1] == '.') {
    --i;
    size_t j = i;
    while (j > 0 && line[j - 1] >= '0' && line[j - 1] <= '9') --j;
    if (j == i) return false;
    i = j;
  }
  if (i == line.size() || i == 0) return false;
  return IsSpace(line[i - 1]) && i >= 2;
}

}  // namespace

bool HasPerfDataMagic(std::string_view head) {
  return StartsWith(head, "PERFILE2") || StartsWith(head, "2ELIFREP");
}

ContentKind SniffText(std::string_view head) {
  if (head.empty()) return ContentKind::kEmpty;
  // perf script always indents its stack lines; folded text never does. A
  // stray line that is neither (a junk line in a folded file, a header with
  // no stack) decides nothing.
  size_t folded = 0, indented = 0;
  size_t pos = 0;
  while (pos < head.size()) {
    size_t nl = head.find('\n', pos);
    bool partial = nl == std::string_view::npos;
    if (partial && pos > 0) break;  // ignore a cut-off last line
    std::string_view line =
        head.substr(pos, partial ? std::string_view::npos : nl - pos);
    pos = partial ? head.size() : nl + 1;
    if (line.empty() || line == "\r" || line[0] == '#') continue;
    if (IsSpace(line[0])) {
      if (line.find_first_not_of(" \t\r\f\v") != std::string_view::npos) ++indented;
    } else if (LooksFolded(line)) {
      ++folded;
    }
  }
  return folded > 0 && indented == 0 ? ContentKind::kFolded
                                     : ContentKind::kPerfScript;
}

bool OpenSource(const std::string& name, std::unique_ptr<ByteSource> raw,
                Input* in, std::string* err) {
  in->name = name;
  std::string head;
  std::string why;
  if (!ReadFully(raw.get(), 4, &head, &why)) {
    *err = name + ": " + why;
    return false;
  }
  auto source = std::make_unique<PrefixedSource>(head, std::move(raw));
  std::unique_ptr<ByteSource> decoded;
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
      static_cast<unsigned char>(head[1]) == 0x8b) {
    in->compression = Compression::kGzip;
    decoded = NewGzipSource(std::move(source));
  } else if (head == std::string_view("\x28\xb5\x2f\xfd", 4)) {
    in->compression = Compression::kZstd;
    decoded = NewZstdSource(std::move(source));
  } else {
    in->compression = Compression::kNone;
    decoded = std::move(source);
  }
  std::string text;
  if (!ReadSniffHead(decoded.get(), &text, &why)) {
    *err = name + ": " + why;
    return false;
  }
  if (HasPerfDataMagic(text)) {
    in->kind = ContentKind::kPerfData;
  } else {
    in->kind = SniffText(text);
  }
  in->source = std::make_unique<PrefixedSource>(std::move(text),
                                                std::move(decoded));
  return true;
}

namespace {

// The current offset of `fd` if it is a regular file (which can be read
// again from there), else -1.
int64_t SeekableOffset(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return -1;
  off_t offset = lseek(fd, 0, SEEK_CUR);
  return offset < 0 ? -1 : static_cast<int64_t>(offset);
}

// Lets a pipe hold 1 MiB instead of 64 KiB, so that the writer and this
// reader take turns 16 times less often (each turn is a wake-up and a
// context switch). Best effort: a pipe keeps its size if this fails.
void WidenPipe(int fd) {
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
    fcntl(fd, F_SETPIPE_SZ, 1 << 20);
  }
}

}  // namespace

bool OpenInput(const std::string& path, Input* in, std::string* err) {
  int fd = 0;
  bool owned = false;
  if (path != "-") {
    fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      *err = path + ": " + std::strerror(errno);
      return false;
    }
    owned = true;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      close(fd);
      *err = path + ": is a directory";
      return false;
    }
  }
  in->file = owned;
  if (!owned) {
    in->stdin_offset = SeekableOffset(fd);
    WidenPipe(fd);
  }
  return OpenSource(path, std::make_unique<FdSource>(fd, owned), in, err);
}

}  // namespace flamefold
