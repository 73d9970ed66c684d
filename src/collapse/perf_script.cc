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

namespace flamefold {

using namespace perl_chars;

namespace {

// Adds `n` samples skipped of `event` to s->other_events.
void CountOtherEvent(std::string_view event, uint64_t n, PerfScriptStats* s) {
  auto it = s->other_events.find(event);
  if (it != s->other_events.end()) {
    it->second += n;
  } else if (s->other_events.size() < PerfScriptStats::kMaxOtherEvents) {
    s->other_events.emplace(std::string(event), n);
  }
}

}  // namespace

void MergeStats(PerfScriptStats* a, const PerfScriptStats& b) {
  for (const auto& [event, n] : b.other_events) CountOtherEvent(event, n, a);
  if (b.first_unrecognized_at < a->first_unrecognized_at) {
    a->first_unrecognized_at = b.first_unrecognized_at;
    a->first_unrecognized = b.first_unrecognized;
  }
  if (b.first_long_line_at < a->first_long_line_at) {
    a->first_long_line_at = b.first_long_line_at;
    a->first_long_line = b.first_long_line;
  }
  if (b.other_event_at < a->other_event_at) {
    a->other_event_at = b.other_event_at;
    a->other_event = b.other_event;
  }
  a->lines += b.lines;
  a->comment_lines += b.comment_lines;
  a->samples += b.samples;
  a->samples_other_event += b.samples_other_event;
  a->unrecognized_lines += b.unrecognized_lines;
  a->long_lines += b.long_lines;
  a->last_sample_dropped += b.last_sample_dropped;
  a->blank_with_spaces += b.blank_with_spaces;
  a->paren_frames += b.paren_frames;
  a->cut_names += b.cut_names;
  a->one_char_comm += b.one_char_comm;
  a->upper_hex_offsets += b.upper_hex_offsets;
  a->kernel_modules += b.kernel_modules;
  a->jitdump_frames += b.jitdump_frames;
  a->limits.Add(b.limits);
}

uint64_t PerfScriptParser::Position(uint64_t lineno) const {
  return (input_index_ << 40) + lineno;
}

// Event header lines, stackcollapse-perf.pl's /^(\S.+?)\s+(\d+)\/*(\d+)*\s+/:
//   java 25607 4794564.109216: 1 cycles:
//   java 12688 [002] 6544038.708352: 235 cpu-clock:
//   V8 WorkerThread 25607 4794564.109216: 104345 cycles:
//   java 24636/25607 [000] 4794564.109216: 1 cycles:u:
//   swapper     0/0     [000] 1007.253216:   10101010 cpu-clock:pppH:
// The comm is the shortest prefix of at least two characters (one with
// --modern) that is followed by white space, a number, optionally '/' and a
// second number, and white space.
bool PerfScriptParser::MatchHeaderLine(std::string_view line, bool modern,
                                       HeaderFields* out) {
  size_t n = line.size();
  if (n < 2 || IsSpace(line[0])) return false;
  for (size_t e = modern ? 1 : 2; e < n; ++e) {
    if (!IsSpace(line[e])) continue;
    size_t p = e;
    while (p < n && IsSpace(line[p])) ++p;
    size_t q = p;
    while (q < n && IsDigit(line[q])) ++q;
    if (q > p && q < n) {
      if (IsSpace(line[q])) {
        *out = {line.substr(0, e), line.substr(p, q - p), {}, false};
        return true;
      }
      if (line[q] == '/') {
        size_t r = q;
        while (r < n && line[r] == '/') ++r;
        if (r < n && IsSpace(line[r])) {
          *out = {line.substr(0, e), line.substr(p, q - p), {}, false};
          return true;
        }
        size_t s = r;
        while (s < n && IsDigit(line[s])) ++s;
        if (s > r && s < n && IsSpace(line[s])) {
          *out = {line.substr(0, e), line.substr(p, q - p),
                  line.substr(r, s - r), true};
          return true;
        }
      }
    }
    e = p - 1;  // every start inside this white-space run fails alike
  }
  return false;
}

// The period and event at the end of a header, /:\s*(\d+)*\s+(\S+):\s*$/:
//   ... 6544038.708352: 235 cpu-clock:        period 235, event cpu-clock
//   ... 4794564.109216: 1 cycles:u:           event cycles:u
//   ... 1.000000: sched:sched_switch:         no period, event sched:sched_switch
//   ... 2.0: 1 kmem:kmalloc: call_site=...    no match (trace fields follow)
bool PerfScriptParser::MatchEvent(std::string_view line, EventFields* out) {
  size_t end = line.size();
  while (end > 0 && IsSpace(line[end - 1])) --end;
  if (end == 0 || line[end - 1] != ':') return false;
  size_t colon = end - 1;
  size_t t = colon;
  while (t > 0 && !IsSpace(line[t - 1])) --t;
  if (t == colon || t == 0) return false;
  size_t u = t;
  while (u > 0 && IsSpace(line[u - 1])) --u;
  size_t d = u;
  while (d > 0 && IsDigit(line[d - 1])) --d;
  size_t w = d;
  while (w > 0 && IsSpace(line[w - 1])) --w;
  if (w == 0 || line[w - 1] != ':') return false;
  out->period = line.substr(d, u - d);
  out->event = line.substr(t, colon - t);
  return true;
}

// Stack lines, /^\s*(\w+)\s*(.+) \((.*)\)/ with Perl's backtracking:
//       7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)
//   ffffffff8103ce3b native_safe_halt+0xb ([kernel.kallsyms])
//            7d8 ipv4_conntrack_local+0x7f8f80b8 ([nf_conntrack_ipv4])
//       4c1e10 [unknown] ([JIT app cache])
// The module runs from the last " (" that has a ')' after it to the last
// ')'; the symbol is what lies between the address and that " (".
bool PerfScriptParser::MatchFrameLine(std::string_view line,
                                      FrameFields* out) {
  const size_t n = line.size();
  const char* base = line.data();
  size_t s0 = SkipSpace(base, 0, n);
  size_t w_end = SkipWord(base, s0, n);
  if (w_end == s0) return false;
  // The last ')': nearly always the last byte.
  size_t close;
  if (n > 0 && base[n - 1] == ')') {
    close = n - 1;
  } else {
    const void* close_at = memrchr(base, ')', n);
    if (close_at == nullptr) return false;
    close = static_cast<const char*>(close_at) - base;
  }
  // The last " (" with p + 2 <= close: a '(' at 1 <= at < close with a
  // space before it.
  size_t open = LastSpaceParen(base, close);
  if (open == 0) return false;
  size_t p = open - 1;
  size_t b = SkipSpace(base, w_end, n);
  size_t pc_end = w_end, a;
  if (p >= b + 1) {
    a = b;
  } else if (p >= w_end + 1) {
    a = p - 1;  // the symbol is one space of the gap: "ab  (x)"
  } else if (p == w_end && w_end - s0 >= 2) {
    pc_end = a = w_end - 1;  // "abc (x)": pc "ab", symbol "c"
  } else {
    return false;
  }
  *out = {line.substr(s0, pc_end - s0), line.substr(a, p - a),
          line.substr(p + 2, close - (p + 2))};
  return true;
}

PerfScriptParser::PerfScriptParser(const PerfScriptOptions& options,
                                   StringInterner* names, SampleSink* sink)
    : options_(options), names_(names), sink_(sink),
      event_filter_(options.event_filter),
      frame_names_(options_, names, &stats_) {
  if (options_.include_tid) options_.include_pid = true;
  // With --srcline each frame reads the line after it, and with --inline
  // its result depends on its address: those go the general way.
  fast_lines_ = !options_.srcline && !options_.inliner;
}

bool PerfScriptParser::Feed(LineReader* reader, std::string_view file,
                            std::string* err, uint64_t line_base,
                            uint64_t input_index) {
  line_base_ = line_base;
  input_index_ = input_index;
  error_.clear();  // each call reports the first error of its own text
  ahead_.data = nullptr;  // another reader: what it parsed ahead is gone
  fast_next_ = 0;
  std::string_view line;
  for (;;) {
    if (has_pname_ && fast_lines_ && !leaf_pending_) CachedLines(reader);
    LineReader::Result r = reader->Next(&line);
    if (r == LineReader::kLine) {
      if (has_pname_ && fast_lines_ && FastStackLine(line, reader)) {
        stats_.lines++;
        continue;
      }
      OnLine(line, reader, file);
      if (!error_.empty()) {
        *err = error_;
        return false;
      }
    } else if (r == LineReader::kEof) {
      return true;  // a sample may go on in the next input
    } else if (r == LineReader::kTooLong) {
      stats_.lines++;
      if (stats_.long_lines++ == 0) {
        stats_.first_long_line_at = Position(line_base_ + reader->line_number());
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

void PerfScriptParser::OnLine(std::string_view line, LineReader* reader,
                              std::string_view file) {
  OnNumberedLine(line, line_base_ + reader->line_number(), reader, file);
}

void PerfScriptParser::OnNumberedLine(std::string_view line, uint64_t lineno,
                                      LineReader* reader,
                                      std::string_view file) {
  stats_.lines++;
  if (!line.empty() && line[0] == '#') {  // --header output, comments
    stats_.comment_lines++;
    return;
  }
  if (line.empty()) {
    EndSample();
    return;
  }
  if (!IsSpace(line[0])) {
    if (HasNul(line, lineno, file)) return;
    HeaderFields h;
    if (MatchHeaderLine(line, options_.modern, &h)) {
      if (!options_.modern && IsSpace(line[1])) {
        stats_.one_char_comm++;
      }
      header_at_ = Position(lineno);
      EventFields ev;
      OnHeader(h, MatchEvent(line, &ev) ? &ev : nullptr);
      return;
    }
  } else if (AllSpace(line)) {
    stats_.blank_with_spaces++;
    if (options_.modern) {
      EndSample();
      return;
    }
  }
  ProcessStackLine(line, lineno, file, reader);
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
      ahead_.key.tag == (pname_java_ ? 'j' : '-')) {
    f = ahead_.fields;  // the same bytes, parsed ahead
    key = ahead_.key;
    hash = ahead_.hash;
    frame_names_.PrefetchKey(hash);  // its slot came meanwhile
  } else {
    if (!FastFields(base, n, &f)) return false;
    key = frame_names_.Key(f, pname_java_);
    hash = KeyTable::Hash(key);
  }
  ahead_.data = nullptr;
  const bool terminated = !reader->last_line_unterminated();
  if (reinterpret_cast<uintptr_t>(base) == fast_next_ && terminated &&
      frame_names_.size() >= kLookAheadKeys) {
    LookAhead(reader);
  }
  const uint32_t id = frame_names_.LookupKey(f, key, hash, pname_java_);
  const FrameNames::Result& res = frame_names_.result(id);
  if (res.kind == FrameNames::kBinary) return false;  // the general path says where
  if (!leaf_pending_ && terminated && id < kCachedFrame) {
    line_cache_.Insert(std::string_view(base, n + 1), pname_java_,
                       CachedValue(id));
  }
  leaf_pending_ = false;
  // As a number: a pointer past the buffer's last line may not be formed.
  fast_next_ = reinterpret_cast<uintptr_t>(base) + n + 1;
  if (res.kind == FrameNames::kFrame) {
    PushFrames(res);
  } else {
    stats_.paren_frames++;
  }
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
  a.key = frame_names_.Key(a.fields, pname_java_);
  a.hash = KeyTable::Hash(a.key);
  frame_names_.Prefetch(a.hash);
  ahead_ = a;
}

// What the line cache stores for a stack line whose FrameNames id is
// `id`: the frame itself, tagged kCachedFrame, when the line pushes one
// frame and counts nothing (nearly always), so that a cached line costs no
// look-up of its result and pieces; else the id.
uint32_t PerfScriptParser::CachedValue(uint32_t id) const {
  const FrameNames::Result& res = frame_names_.result(id);
  if (res.kind == FrameNames::kFrame && res.count == 1 && res.quirks == 0 &&
      frame_names_.piece(res.first) < kCachedFrame) {
    return kCachedFrame | frame_names_.piece(res.first);
  }
  return id;
}

// Adds the frames of a cached stack line (CachedValue).
inline void PerfScriptParser::PushCached(uint32_t value) {
  if (value & kCachedFrame) {
    stack_rev_.push_back(value & ~kCachedFrame);
    if (stack_rev_.size() / 2 >= options_.limits.max_depth) TrimDeepStack();
    return;
  }
  const FrameNames::Result& res = frame_names_.result(value);
  if (res.kind == FrameNames::kFrame) {
    PushFrames(res);
  } else {
    stats_.paren_frames++;
  }
}

// Stack lines that FastStackLine took before, byte for byte: the same
// line gives the same frames (whether the process name starts with "java"
// is part of the key, as in LookupFrame), so the fields are not looked for,
// nor the line's end: the stored line's length gives it. The next line is
// hashed and its slot asked for before this one's frames are pushed. A
// blank line ends the sample (the general path takes it), as do a line the
// cache does not hold and the buffer's last kKeyBytes - 1 bytes.
inline void PerfScriptParser::CachedLines(LineReader* reader) {
  const uint32_t tag = pname_java_ ? 1 : 0;
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

void PerfScriptParser::StartLines(std::string_view file,
                                  uint64_t input_index) {
  line_file_ = std::string(file);
  input_index_ = input_index;
  line_base_ = 0;
  lines_given_ = 0;
  error_.clear();
}

bool PerfScriptParser::Line(std::string_view line, std::string* err) {
  OnNumberedLine(line, ++lines_given_, nullptr, line_file_);
  if (error_.empty()) return true;
  *err = error_;
  return false;
}

uint32_t PerfScriptParser::StackLineId(std::string_view line) {
  FrameFields f;
  if (!MatchFrameLine(line, &f)) return kNoStackLineId;
  uint32_t id = frame_names_.Lookup(f, pname_java_);
  return frame_names_.result(id).kind == FrameNames::kBinary ? kNoStackLineId : id;
}

uint32_t PerfScriptParser::StackLineId(std::string_view line, bool java) {
  bool current = std::exchange(pname_java_, java);
  uint32_t id = StackLineId(line);
  pname_java_ = current;
  return id;
}

void PerfScriptParser::StackLine(uint32_t id) {
  stats_.lines++;
  ++lines_given_;
  leaf_pending_ = false;
  if (!has_pname_) return;  // a sample of another event
  const FrameNames::Result& res = frame_names_.result(id);
  if (res.kind == FrameNames::kFrame) {
    PushFrames(res);
  } else {
    stats_.paren_frames++;
  }
}

void PerfScriptParser::StackLines(std::span<const uint32_t> ids) {
  for (uint32_t id : ids) StackLine(id);
}

void PerfScriptParser::BlankLine() {
  // OnNumberedLine's way with an empty line, which never fails.
  ++lines_given_;
  stats_.lines++;
  EndSample();
}

// A stack line, or a line the Perl script does not recognise.
void PerfScriptParser::ProcessStackLine(std::string_view line, uint64_t lineno,
                                        std::string_view file,
                                        LineReader* reader) {
  const FrameNames::Result* res;
  FrameNames::Result slow;
  FrameFields f;
  if (!MatchFrameLine(line, &f)) {
    if (HasNul(line, lineno, file)) return;
    slow.kind = FrameNames::kUnrecognized;
    res = &slow;
  } else if (options_.srcline || options_.inliner) {
    // Each frame consumes the source line after it, or its result depends
    // on its address: no caching.
    if (has_pname_) slow = frame_names_.Process(f, pname_java_, reader);
    res = &slow;
  } else {
    res = &frame_names_.result(frame_names_.Lookup(f, pname_java_));
  }
  leaf_pending_ = false;
  if (res->kind == FrameNames::kBinary) {
    HasNul(line, lineno, file);
    return;
  }
  if (res->kind == FrameNames::kUnrecognized) {
    if (stats_.unrecognized_lines++ == 0) {
      stats_.first_unrecognized_at = Position(lineno);
      stats_.first_unrecognized = Where(file, lineno) + Printable(line);
    }
    return;
  }
  if (!has_pname_) return;  // a sample of another event
  if (res->kind == FrameNames::kDropped) {
    stats_.paren_frames++;
    return;
  }
  PushFrames(*res);
}

// Adds a stack line's frames to the sample (leaf first, as read).
inline void PerfScriptParser::PushFrames(const FrameNames::Result& res) {
  if (res.quirks != 0) frame_names_.CountQuirks(res.quirks);
  if (res.count == 1) {  // nearly always
    stack_rev_.push_back(frame_names_.piece(res.first));
  } else {
    for (uint32_t i = res.count; i-- > 0;) {
      stack_rev_.push_back(frame_names_.piece(res.first + i));
    }
  }
  if (stack_rev_.size() / 2 >= options_.limits.max_depth) TrimDeepStack();
}

// A stack deeper than the depth limit keeps its frames nearest the root,
// which perf script prints last: whenever the frames read reach twice the
// limit, those past it on the leaf side go, so memory stays bounded (and
// the cost amortised) however long the sample is.
void PerfScriptParser::TrimDeepStack() {
  size_t drop = stack_rev_.size() - options_.limits.max_depth;
  stack_rev_.erase(stack_rev_.begin(), stack_rev_.begin() + drop);
  trimmed_ += drop;
}

bool PerfScriptParser::HasNul(std::string_view line, uint64_t lineno,
                              std::string_view file) {
  const void* nul = std::memchr(line.data(), 0, line.size());
  if (nul == nullptr) return false;
  error_ = Where(file, lineno) + "NUL byte at column " +
           std::to_string(static_cast<const char*>(nul) - line.data() + 1) +
           ": binary data, not perf script text";
  return true;
}

void PerfScriptParser::HeaderLine(const HeaderFields& h,
                                  const EventFields* ev) {
  stats_.lines++;
  header_at_ = Position(++lines_given_);
  OnHeader(h, ev);
}

bool PerfScriptParser::PlainHeader(std::string_view comm,
                                   std::string_view event) const {
  if (comm.size() < (options_.modern ? 1u : 2u) || comm[0] == '#') {
    return false;  // too short to match, or a comment line
  }
  for (char c : comm) {
    if (IsSpace(c)) return false;
  }
  for (char c : event) {
    if (IsSpace(c)) return false;
  }
  return true;
}

void PerfScriptParser::OnHeader(const HeaderFields& h, const EventFields* ev) {
  std::string_view pid = h.pid, tid = h.tid;
  if (!h.has_tid || tid == "0") {  // Perl: if (not $tid)
    tid = h.pid;
    pid = "?";
  }
  std::string_view period;
  if (ev) {
    period = ev->period;
    if (event_filter_.empty()) {
      // By default only the first event type seen is kept: mixing cycles
      // and instructions, say, would give a misleading profile.
      event_filter_ = std::string(ev->event);
      event_defaulted_ = true;
    } else if (ev->event != event_filter_) {
      if (stats_.samples_other_event++ == 0) {
        stats_.other_event_at = header_at_;
        stats_.other_event = std::string(ev->event);
      }
      CountOtherEvent(ev->event, 1, &stats_);
      return;  // Perl's `next`: $pname keeps its previous value
    }
  }
  if (ev && ev->has_value) {  // the digits' value, as below
    period_ = PerlNumber::FromUint(ev->value == 0 ? 1 : ev->value);
  } else if (period.empty() || period == "0") {
    period_ = PerlNumber::FromUint(1);
  } else {
    period_ = PerlNumber::Parse(period);
  }
  CommSlot* slot = nullptr;
  if (!options_.include_pid) {
    // The process name is the comm alone: what it gives is kept per comm.
    slot = &comm_cache_[HashBytes(h.comm) % comm_cache_.size()];
    if (slot->valid && slot->comm == h.comm) {
      has_pname_ = slot->has_pname;
      pname_java_ = slot->java;
      pname_index_ = slot->index;
      leaf_pending_ = true;
      return;
    }
  }
  std::string& pname = pname_scratch_;
  pname.assign(h.comm);
  if (options_.include_pid) {
    pname += '-';
    pname += pid;
    if (options_.include_tid) {
      pname += '/';
      pname += tid;
    }
  }
  std::replace(pname.begin(), pname.end(), ' ', '_');
  SetPname(pname);
  if (slot != nullptr) {
    slot->valid = true;
    slot->comm.assign(h.comm);
    slot->has_pname = has_pname_;
    slot->java = pname_java_;
    slot->index = pname_index_;
  }
}

void PerfScriptParser::SetPname(std::string_view pname) {
  has_pname_ = !(pname.empty() || pname == "0");
  leaf_pending_ = true;
  pname_java_ = StartsWith(pname, "java");
  SymbolId key = pname_keys_.Intern(pname);
  if (key == pname_results_.size()) {
    // A comm may hold ';', which separates frames in the folded line: store
    // such a name as the frames it will read as.
    FrameNames::Result res;
    res.first = static_cast<uint32_t>(pname_pieces_.size());
    StackLimits name_limit = options_.limits;
    name_limit.max_depth = SIZE_MAX;  // AssembleFrames applies the depth
    LimitStats cut;
    InternFrames(LimitFoldedStack(pname, name_limit, &cut, &scratch_), names_,
                 &pname_pieces_);
    if (cut.long_frames > 0) {
      res.quirks |= FrameNames::kLongName;  // counted for each sample, as frames are
      stats_.limits.longest = std::max(stats_.limits.longest, cut.longest);
    }
    res.count = static_cast<uint32_t>(pname_pieces_.size() - res.first);
    pname_results_.push_back(res);
  }
  pname_index_ = key;
}

void PerfScriptParser::EndSample() {
  if (!has_pname_) return;  // no sample, or one of another event
  AssembleFrames();
  sink_->OnSample(frames_, period_);
  stats_.samples++;
  stack_rev_.clear();
  has_pname_ = false;
}
void PerfScriptParser::AssembleFrames() {
  const FrameNames::Result& p = pname_results_[pname_index_];
  if (p.quirks & FrameNames::kLongName) stats_.limits.long_frames++;
  frames_.assign(pname_pieces_.begin() + p.first, pname_pieces_.begin() + p.first + p.count);
  frames_.insert(frames_.end(), stack_rev_.rbegin(), stack_rev_.rend());
  uint64_t depth = frames_.size() + trimmed_;
  if (depth > options_.limits.max_depth) {
    stats_.limits.deep_samples++;
    stats_.limits.deepest = std::max(stats_.limits.deepest, depth);
    frames_.resize(options_.limits.max_depth);  // the root side stays
  }
  trimmed_ = 0;
}

void PerfScriptParser::Finish() {
  if (!has_pname_) return;
  stats_.last_sample_dropped++;
  if (options_.modern) {
    EndSample();
  } else {
    stack_rev_.clear();
    trimmed_ = 0;
    has_pname_ = false;
  }
}


}  // namespace flamefold
