#include "collapse/input_kind.h"

#include <algorithm>
#include <cstring>

#include "collapse/folded.h"
#include "collapse/perf_lines.h"
#include "io/decompress.h"
#include "io/file_source.h"
#include "io/line_reader.h"

namespace flamefold {
namespace {

constexpr size_t kHeadBytes = 64 * 1024;
// A first line longer than kHeadBytes (a 100,000-deep folded stack) is read
// on, up to the default line limit, so that its end decides the kind.
constexpr size_t kMaxHeadBytes = LineReader::kDefaultMaxLine;

// "PERFILE2" read as a little-endian u64; a file of the other byte order
// reads as its byte swap.
constexpr uint64_t kPerfDataMagic = 0x32454c4946524550ULL;
constexpr uint64_t kPerfDataMagicSwapped = 0x50455246494c4532ULL;

// Reads the head KindOfHead looks at into `*head`: kHeadBytes, and on until
// the first newline (at most kMaxHeadBytes) when the first line is longer.
// `*whole` when that is all there is.
bool ReadHead(ByteSource* src, std::string* head, bool* whole,
              std::string* err) {
  if (!ReadFully(src, kHeadBytes, head, err)) return false;
  size_t want = kHeadBytes;
  while (head->size() == want && want < kMaxHeadBytes &&
         !ReadPerfDataStart(*head, nullptr) &&
         head->find('\n') == std::string::npos) {
    std::string more;
    size_t next = std::min(want * 4, kMaxHeadBytes);
    if (!ReadFully(src, next - want, &more, err)) return false;
    head->append(more);
    want = next;
  }
  *whole = head->size() < want;
  return true;
}

bool IsIndent(char c) { return c == ' ' || c == '\t'; }

bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
         (c >= 'A' && c <= 'F');
}

// A stack frame line as perf script prints it: indented, an address in
// hex, white space, the symbol and its module in parentheses. The parser's
// MatchFrameLine (Perl's /^\s*(\w+)\s*(.+) \((.*)\)/) also takes a word
// for the address and a symbol right after it, which an indented line of
// prose or C ("  for (i = 0; ...)") has as well.
bool IsFrameLine(std::string_view line) {
  FrameFields frame;
  if (!IsIndent(line[0]) || !MatchFrameLine(line, &frame)) {
    return false;
  }
  const size_t end = frame.pc.data() + frame.pc.size() - line.data();
  return end < line.size() && IsIndent(line[end]) &&
         std::all_of(frame.pc.begin(), frame.pc.end(), IsHexDigit);
}

// What one line of text says (see the header).
enum class LineVote { kNone, kSampleHeader, kFrame, kFolded, kNeither };

LineVote VoteOf(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty() || line[0] == '#' ||
      line.find_first_not_of(" \t\r\f\v") == std::string_view::npos) {
    return LineVote::kNone;
  }
  if (IsIndent(line[0])) {
    return IsFrameLine(line) ? LineVote::kFrame : LineVote::kNeither;
  }
  // A folded line ends with its count, a sample header with a colon: the
  // cheaper test first.
  std::string_view stack, count;
  if (SplitFoldedLine(line, &stack, &count)) return LineVote::kFolded;
  HeaderFields header;
  EventFields event;
  return MatchHeaderLine(line, false, &header) &&
                 MatchEvent(line, &event)
             ? LineVote::kSampleHeader
             : LineVote::kNeither;
}

struct TextVotes {
  bool sample_header = false;
  size_t frames = 0, folded = 0, neither = 0;
};

// The votes of the lines of `head` (all of it when `whole`), up to the
// first sample header, which decides alone.
TextVotes CountVotes(std::string_view head, bool whole) {
  TextVotes votes;
  for (size_t pos = 0; pos < head.size();) {
    size_t nl = head.find('\n', pos);
    if (nl == std::string_view::npos) {
      if (!whole) break;  // cut off by the read size
      nl = head.size();
    }
    switch (VoteOf(head.substr(pos, nl - pos))) {
      case LineVote::kSampleHeader: votes.sample_header = true; return votes;
      case LineVote::kFrame: ++votes.frames; break;
      case LineVote::kFolded: ++votes.folded; break;
      case LineVote::kNeither: ++votes.neither; break;
      case LineVote::kNone: break;
    }
    pos = nl + 1;
  }
  return votes;
}

// `raw` behind the decoder its first bytes call for, if any, in
// `*decoded`; which one in `*compression`.
bool Decode(std::unique_ptr<ByteSource> raw, Compression* compression,
            std::unique_ptr<ByteSource>* decoded, std::string* err) {
  std::string magic;
  if (!ReadFully(raw.get(), 4, &magic, err)) return false;
  auto source = std::make_unique<PrefixedSource>(magic, std::move(raw));
  if (magic.size() >= 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
      static_cast<unsigned char>(magic[1]) == 0x8b) {
    *compression = Compression::kGzip;
    *decoded = NewGzipSource(std::move(source));
  } else if (magic == std::string_view("\x28\xb5\x2f\xfd", 4)) {
    *compression = Compression::kZstd;
    *decoded = NewZstdSource(std::move(source));
  } else {
    *compression = Compression::kNone;
    *decoded = std::move(source);
  }
  return true;
}

}  // namespace

bool ReadPerfDataStart(std::string_view head, PerfDataStart* start) {
  uint64_t magic = 0;
  if (head.size() < sizeof magic) return false;
  std::memcpy(&magic, head.data(), sizeof magic);
  if (magic != kPerfDataMagic && magic != kPerfDataMagicSwapped) return false;
  if (start == nullptr) return true;
  start->swapped = magic == kPerfDataMagicSwapped;
  start->header_size = 0;
  if (head.size() >= 2 * sizeof magic) {
    std::memcpy(&start->header_size, head.data() + sizeof magic, sizeof magic);
    if (start->swapped) {
      start->header_size = __builtin_bswap64(start->header_size);
    }
  }
  return true;
}

ContentKind KindOfHead(std::string_view head, bool whole, bool* binary) {
  if (binary != nullptr) *binary = head.find('\0') != std::string_view::npos;
  if (head.empty()) return ContentKind::kEmpty;
  PerfDataStart start;
  if (ReadPerfDataStart(head, &start)) {
    return start.header_size == kPerfDataPipeHeaderSize
               ? ContentKind::kPerfDataPipe
               : ContentKind::kPerfData;
  }
  const TextVotes votes = CountVotes(head, whole);
  if (votes.sample_header) return ContentKind::kPerfScript;
  if (votes.frames > 0 && votes.frames >= votes.folded &&
      votes.frames >= votes.neither) {
    return ContentKind::kPerfScript;
  }
  return votes.folded > 0 && votes.folded >= votes.neither
             ? ContentKind::kFolded
             : ContentKind::kNeither;
}

bool OpenSource(const std::string& name, std::unique_ptr<ByteSource> raw,
                Input* in, std::string* err) {
  in->name = name;
  std::unique_ptr<ByteSource> decoded;
  std::string head, why;
  bool whole = false;
  if (!Decode(std::move(raw), &in->compression, &decoded, &why) ||
      !ReadHead(decoded.get(), &head, &whole, &why)) {
    *err = name + ": " + why;
    return false;
  }
  in->kind = KindOfHead(head, whole, &in->binary);
  in->source = std::make_unique<PrefixedSource>(std::move(head),
                                                std::move(decoded));
  return true;
}

bool OpenInput(const std::string& path, Input* in, std::string* err) {
  std::unique_ptr<ByteSource> raw;
  if (!OpenFileSource(path, &raw, err, &in->stdin_offset)) return false;
  return OpenSource(path, std::move(raw), in, err);
}

}  // namespace flamefold
