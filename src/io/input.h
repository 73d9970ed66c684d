// Opening an input: a file or stdin, decompressed and classified by content.
//
// Formats are recognised by their first bytes, never by the file name:
//   1f 8b          gzip (decoded while streaming, several members allowed)
//   28 b5 2f fd    zstd (several frames allowed)
//   PERFILE2       perf.data, either byte order (after decompression too)
// Anything else is text: perf script output or folded stacks, told apart by
// the shape of the first lines (see SniffText).
#ifndef FLAMEFOLD_IO_INPUT_H_
#define FLAMEFOLD_IO_INPUT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "io/byte_source.h"

namespace flamefold {

enum class Compression { kNone, kGzip, kZstd };
enum class ContentKind { kEmpty, kPerfData, kFolded, kPerfScript };

struct Input {
  std::string name;  // as given on the command line; "-" for stdin
  Compression compression = Compression::kNone;
  ContentKind kind = ContentKind::kEmpty;
  bool file = false;  // `name` is a file holding these bytes (not stdin)
  /// For stdin that is a regular file: the offset it was opened at, so a
  /// caller can read it again from there (lseek); -1 for anything else (a
  /// pipe, a terminal, a buffer).
  int64_t stdin_offset = -1;
  /// The decoded bytes from the start (the sniffed prefix is put back).
  std::unique_ptr<ByteSource> source;
};

/// Opens `path` ("-" is stdin), stacks the decoder its magic bytes call for
/// and classifies the content. On failure `*err` is "PATH: what is wrong".
bool OpenInput(const std::string& path, Input* in, std::string* err);

/// Opens an input by the name it has in the messages: OpenInput, or what a
/// caller puts in its place (the C++ API opens the byte buffers it holds).
using InputOpener =
    std::function<bool(const std::string& name, Input* in, std::string* err)>;

/// The same over an already open source (used by OpenInput and by tests).
bool OpenSource(const std::string& name, std::unique_ptr<ByteSource> raw,
                Input* in, std::string* err);

/// Classifies decoded text from its first bytes. Folded when at least one
/// complete line has the shape "STACK COUNT" (no leading white space, a
/// count at the end) and no line is indented as perf script's stack lines
/// always are; perf script text otherwise. Blank lines, '#' comments and
/// other odd lines count for neither. `head` may end inside a line; that
/// partial line is ignored unless it is all there is.
ContentKind SniffText(std::string_view head);

/// True when `head` starts with the perf.data magic in either byte order.
bool HasPerfDataMagic(std::string_view head);

}  // namespace flamefold

#endif  // FLAMEFOLD_IO_INPUT_H_
