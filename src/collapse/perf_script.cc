#include "collapse/perf_script.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/diag.h"
#include "collapse/folded.h"
#include "base/hash.h"
#include "base/utf8.h"
#include "collapse/perl_chars.h"
#include "collapse/perf_lines.h"

namespace flamefold {

using namespace perl_chars;

PerfScriptParser::PerfScriptParser(const PerfScriptOptions& options,
                                   StringInterner* names, SampleSink* sink)
    : fold_(options, names, sink), names_(*fold_.frame_names()),
      stats_(*fold_.mutable_stats()) {
  // With --srcline each frame reads the line after it, and with --inline
  // its result depends on its address: those go the general way.
  fast_lines_ = !options.srcline && !options.inliner;
}

bool PerfScriptParser::Feed(LineReader* reader, std::string_view file,
                            std::string* err, uint64_t line_base,
                            uint64_t input_index) {
  line_base_ = line_base;
  fold_.set_input_index(input_index);
  fold_.ClearError();  // each call reports the first error of its own text
  ahead_.data = nullptr;  // another reader: what it parsed ahead is gone
  fast_next_ = 0;
  std::string_view line;
  for (;;) {
    if (fold_.has_pname() && fast_lines_ && !fold_.leaf_pending()) {
      CachedLines(reader);
    }
    LineReader::Result r = reader->Next(&line);
    if (r == LineReader::kLine) {
      if (fold_.has_pname() && fast_lines_ && FastStackLine(line, reader)) {
        stats_.lines++;
        continue;
      }
      fold_.ReadLine(line, line_base_ + reader->line_number(), reader, file);
      if (!fold_.error().empty()) {
        *err = fold_.error();
        return false;
      }
    } else if (r == LineReader::kEof) {
      return true;  // a sample may go on in the next input
    } else if (r == LineReader::kTooLong) {
      stats_.lines++;
      if (stats_.long_lines++ == 0) {
        stats_.first_long_line_at =
            fold_.Position(line_base_ + reader->line_number());
        stats_.first_long_line =
            std::string(file) + ":" +
            std::to_string(line_base_ + reader->line_number());
      }
    } else {
      *err = reader->error();
      return false;
    }
  }
}

// The common stack line, in one pass: white space, the address, white
// space, the symbol (not starting with white space), " (", the module, and
// ')' as the last byte:
//   \t    7f3a1d024422 pthread_mutex_lock+0x13e (/usr/lib/libc.so.6)
// For such a line MatchFrameLine finds the same fields (the symbol starts
// after the white space, as its first branch says), so the result is the
// one ProcessStackLine would reach. Anything else (and a key whose first
// sighting found binary data) returns false for the general path. A
// caller line taken here (not the sample's first: that one is the sampled
// address, which varies) is stored in the line cache for CachedLines.
inline bool PerfScriptParser::FastStackLine(std::string_view line,
                                            LineReader* reader) {
  const char* base = line.data();
  const size_t n = line.size();
  FrameFields f;
  KeyTable::Key key;
  uint64_t hash;
  if (ahead_.data == base && ahead_.size == n &&
      ahead_.refills == reader->refills() &&
      ahead_.key.tag == (fold_.java() ? 'j' : '-')) {
    f = ahead_.fields;  // the same bytes, parsed ahead
    key = ahead_.key;
    hash = ahead_.hash;
    names_.PrefetchKey(hash);  // its slot came meanwhile
  } else {
    if (!FastFields(base, n, &f)) return false;
    key = names_.Key(f, fold_.java());
    hash = KeyTable::Hash(key);
  }
  ahead_.data = nullptr;
  const bool terminated = !reader->last_line_unterminated();
  if (reinterpret_cast<uintptr_t>(base) == fast_next_ && terminated &&
      names_.size() >= kLookAheadKeys) {
    LookAhead(reader);
  }
  const uint32_t id = names_.LookupKey(f, key, hash, fold_.java());
  const FrameNames::Result& res = names_.result(id);
  if (res.kind == FrameNames::kBinary) return false;  // the general path says where
  if (!fold_.leaf_pending() && terminated && id < kCachedFrame) {
    line_cache_.Insert(std::string_view(base, n + 1), fold_.java(),
                       CachedValue(id));
  }
  fold_.LeafRead();
  // As a number: a pointer past the buffer's last line may not be formed.
  fast_next_ = reinterpret_cast<uintptr_t>(base) + n + 1;
  fold_.PushLine(res);
  return true;
}

// FastStackLine's line: white space, the address, white space, the symbol,
// " (", the module, and ')' as the last byte. False for any other line.
inline bool PerfScriptParser::FastFields(const char* base, size_t n,
                                         FrameFields* f) {
  if (n < 6 || !IsSpace(base[0]) || base[n - 1] != ')') return false;
  size_t s0 = SkipSpace(base, 1, n);
  size_t w_end = SkipWord(base, s0, n);
  if (w_end == s0 || w_end == n || !IsSpace(base[w_end])) return false;
  size_t open = LastSpaceParen(base, n - 1);
  size_t b = SkipSpace(base, w_end, n);
  if (open < b + 2) return false;  // p = open - 1 must be >= b + 1
  *f = FrameFields{std::string_view(base + s0, w_end - s0),
                   std::string_view(base + b, open - 1 - b),
                   std::string_view(base + open + 1, n - 2 - open)};
  return true;
}

// In a run of stack lines that the line cache does not hold (where nearly
// every frame is new, as in a profile of many distinct functions), each frame
// key's look-up waits for memory twice once the keys outgrow the CPU's
// caches: its slot, then its stored key. So the next line is parsed now and
// its slot fetched while this line's frame is looked up; FastStackLine takes
// the fields and hash from here if the line is still where it was. Below
// kLookAheadKeys keys the table stays in the caches and the work ahead would
// only cost time.
void PerfScriptParser::LookAhead(LineReader* reader) {
  std::string_view rest = reader->Buffered();  // after the line just read
  if (rest.empty()) return;
  const void* nl = std::memchr(rest.data(), '\n', rest.size());
  if (nl == nullptr) return;
  AheadLine a;
  a.data = rest.data();
  a.size = static_cast<const char*>(nl) - rest.data();
  if (!FastFields(a.data, a.size, &a.fields)) return;
  a.refills = reader->refills();
  a.key = names_.Key(a.fields, fold_.java());
  a.hash = KeyTable::Hash(a.key);
  names_.Prefetch(a.hash);
  ahead_ = a;
}

// What the line cache stores for a stack line whose FrameNames id is
// `id`: the frame itself, tagged kCachedFrame, when the line pushes one
// frame and counts nothing (nearly always), so that a cached line costs no
// look-up of its result and pieces; else the id.
uint32_t PerfScriptParser::CachedValue(uint32_t id) const {
  const FrameNames::Result& res = names_.result(id);
  if (res.kind == FrameNames::kFrame && res.count == 1 && res.quirks == 0 &&
      names_.piece(res.first) < kCachedFrame) {
    return kCachedFrame | names_.piece(res.first);
  }
  return id;
}

// Adds the frames of a cached stack line (CachedValue).
inline void PerfScriptParser::PushCached(uint32_t value) {
  if (value & kCachedFrame) {
    fold_.PushFrame(value & ~kCachedFrame);
    return;
  }
  fold_.PushLine(names_.result(value));
}

// Stack lines that FastStackLine took before, byte for byte: the same
// line gives the same frames (whether the process name starts with "java"
// is part of the key, as in LookupFrame), so the fields are not looked for,
// nor the line's end: the stored line's length gives it. The next line is
// hashed and its slot asked for before this one's frames are pushed. A
// blank line ends the sample (the general path takes it), as do a line the
// cache does not hold and the buffer's last kKeyBytes - 1 bytes.
inline void PerfScriptParser::CachedLines(LineReader* reader) {
  const uint32_t tag = fold_.java() ? 1 : 0;
  const std::string_view buf = reader->Buffered();
  const char* const begin = buf.data();
  const char* const end = begin + buf.size();
  auto hashable = [end](const char* at) {
    return static_cast<size_t>(end - at) >= LineCache::kKeyBytes &&
           *at != '\n';
  };
  const char* p = begin;
  uint64_t lines = 0;
  if (!hashable(p)) return;
  uint64_t hash = line_cache_.HashAhead(p, tag);
  for (;;) {
    uint32_t value;
    size_t length;
    if (!line_cache_.FindAt(p, end - p, tag, hash, &value, &length)) break;
    p += length;
    ++lines;
    const bool more = hashable(p);
    if (more) hash = line_cache_.HashAhead(p, tag);
    PushCached(value);
    if (!more) break;
  }
  if (lines > 0) {
    reader->SkipLines(p - begin, lines);
    stats_.lines += lines;
  }
}

ParserRecordingFold::ParserRecordingFold(PerfScriptParser* parser,
                                         std::string file, uint64_t index)
    : parser_(parser), file_(std::move(file)), index_(index) {
  parser_->fold()->StartRecording(file_, index_);
}

bool ParserRecordingFold::ReadText(std::string_view text, std::string* err) {
  LineReader reader(text);
  bool ok = parser_->Feed(&reader, file_, err, lines_, index_);
  lines_ += reader.line_number();
  return ok;
}

}  // namespace flamefold
