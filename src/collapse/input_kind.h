// What an input holds, told from its bytes and never from its name: the one
// detector that every tool asks (flamefold, flamereport, flamediff,
// flamesvg, flamebatch), with one rule and one read size.
//
// Magic bytes first:
//   1f 8b          gzip, decoded (several members allowed)
//   28 b5 2f fd    zstd, decoded (several frames allowed)
// and a compressed input is what its decoded bytes are. Then, in them:
//   PERFILE2       perf.data ("2ELIFREP" when written on a machine of the
//                  other byte order); a header size of 16 after the magic
//                  is pipe mode (perf record -o -), 104 a file
//
// Anything else is read as text: its first kHeadBytes (input_kind.cc), or up
// to the end of its first line when that is longer (a very deep folded
// stack), at most the line reader's longest line. A line cut off by that
// limit is not looked at; blank lines and '#' comments say nothing. Each other line is one of
//   - a sample header that ends with its event, as only perf script prints:
//       perf 12345 [001] 1234.567890: 250000 cpu-clock:u:
//   - a stack frame as perf script prints it, indented, its address in hex,
//     then the symbol and the module:
//         7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)
//   - a folded stack, "STACK COUNT", not indented:
//       main;foo;bar 12
//   - anything else.
// (The perf script parser's own MatchHeaderLine, MatchEvent and
// MatchFrameLine read the first two, which is why this is a part of
// collapse rather than of io, below the parser.)
//
// One sample header makes the text perf script output: a folded line ends
// with its count, and prose does not end with a time stamp, a count and an
// event. Without one, the most common of the other three decides, perf
// script output before folded stacks before neither when they are as
// common: an odd line in a folded file (flamegraph.pl and difffolded.pl
// pass over it), an indented line of prose that reads as a frame, or a
// line of notes that ends with a number are outvoted by the lines around
// them, while stack lines with no header (a transcript cut short at its
// start) still read as perf script.
//
// Text that is neither (prose, binary data, a form of perf script output
// this does not know) is read by each tool as the Perl script it replaces
// reads any text: flamefold and flamereport as perf script output
// (stackcollapse-perf.pl), each line they cannot parse counted and named;
// flamediff and flamesvg as folded stacks (difffolded.pl, flamegraph.pl),
// each line without a count warned of. flamebatch passes it over as no
// profile.
#ifndef FLAMEFOLD_COLLAPSE_INPUT_KIND_H_
#define FLAMEFOLD_COLLAPSE_INPUT_KIND_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "io/byte_source.h"

namespace flamefold {

enum class Compression { kNone, kGzip, kZstd };
enum class ContentKind {
  kEmpty,         // no bytes at all
  kPerfData,      // perf.data written to a file (or a damaged header)
  kPerfDataPipe,  // perf.data in pipe mode
  kPerfScript,    // perf script output
  kFolded,        // folded stacks
  kNeither,       // text (or bytes) that is neither
};

/// Either form of perf.data.
inline bool IsPerfData(ContentKind kind) {
  return kind == ContentKind::kPerfData || kind == ContentKind::kPerfDataPipe;
}

struct Input {
  std::string name;  // as given on the command line; "-" for stdin
  Compression compression = Compression::kNone;
  ContentKind kind = ContentKind::kEmpty;
  /// The bytes looked at hold a NUL byte: for kNeither, binary data rather
  /// than text.
  bool binary = false;
  /// For stdin that is a regular file: the offset it was opened at, so a
  /// caller can read it again from there (lseek); -1 for anything else (a
  /// pipe, a terminal, a buffer).
  int64_t stdin_offset = -1;
  /// The decoded bytes from the start (those looked at are put back).
  std::unique_ptr<ByteSource> source;
};

/// Opens `path` ("-" is stdin) with OpenFileSource, stacks the decoder its
/// magic bytes call for and classifies the content. On failure `*err` is
/// "PATH: what is wrong".
bool OpenInput(const std::string& path, Input* in, std::string* err);

/// Opens an input by the name it has in the messages: OpenInput, or what a
/// caller puts in its place (the C++ API opens the byte buffers it holds).
using InputOpener =
    std::function<bool(const std::string& name, Input* in, std::string* err)>;

/// The same over an already open source (used by OpenInput and by tests).
bool OpenSource(const std::string& name, std::unique_ptr<ByteSource> raw,
                Input* in, std::string* err);

/// The kind of `head`, the first decoded bytes of an input as OpenSource
/// reads them (see above); `whole` when they are all of it, so that a last
/// line without a newline counts. `*binary` (when given) is set when `head`
/// holds a NUL byte.
ContentKind KindOfHead(std::string_view head, bool whole,
                       bool* binary = nullptr);

/// What the first 16 bytes of a perf.data stream say.
struct PerfDataStart {
  bool swapped = false;      // written on a machine of the other byte order
  uint64_t header_size = 0;  // 16: pipe mode; 104: a file; 0: cut short
};
inline constexpr uint64_t kPerfDataPipeHeaderSize = 16;

/// Reads the magic and the header size at the start of `head`: false when
/// it does not start with the magic in either byte order. The header size
/// is left 0 when `head` holds fewer than 16 bytes.
bool ReadPerfDataStart(std::string_view head, PerfDataStart* start);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_INPUT_KIND_H_
