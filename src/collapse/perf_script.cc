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
#include "symbols/frame_inliner.h"
#include "base/hash.h"
#include "base/utf8.h"

namespace flamefold {
namespace {

// Perl's \s, \d and \w on byte strings (no utf8 flag, no locale), as
// table look-ups: the stack-line scanner runs them on every byte it reads.
enum CharClass : uint8_t {
  kClassSpace = 1,      // [ \t\n\v\f\r]
  kClassWord = 2,       // [0-9A-Za-z_]
  kClassLowerHex = 4,   // [0-9a-f]
  kClassHex = 8,        // [0-9a-fA-F]
};
constexpr std::array<uint8_t, 256> MakeCharClasses() {
  std::array<uint8_t, 256> t{};
  for (int c : {' ', '\t', '\n', '\r', '\f', '\v'}) t[c] = kClassSpace;
  for (int c = 0; c < 256; ++c) {
    bool digit = c >= '0' && c <= '9';
    bool lower = c >= 'a' && c <= 'f';
    bool upper = c >= 'A' && c <= 'F';
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || digit || c == '_') {
      t[c] |= kClassWord;
    }
    if (digit || lower) t[c] |= kClassLowerHex;
    if (digit || lower || upper) t[c] |= kClassHex;
  }
  return t;
}
constexpr std::array<uint8_t, 256> kCharClasses = MakeCharClasses();
inline bool HasClass(char c, uint8_t cls) {
  return (kCharClasses[static_cast<unsigned char>(c)] & cls) != 0;
}
inline bool IsSpace(char c) { return HasClass(c, kClassSpace); }
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsWord(char c) { return HasClass(c, kClassWord); }
#if defined(__SSE2__)
// Byte masks of 16 bytes: Perl's \s ([ \t\n\v\f\r]) and \w ([0-9A-Za-z_]).
inline __m128i InRange(__m128i x, char lo, char span) {  // lo <= x <= lo+span
  __m128i d = _mm_sub_epi8(x, _mm_set1_epi8(lo));
  return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(span)), d);
}
inline unsigned SpaceMask(__m128i x) {
  __m128i sp = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
                            InRange(x, '\t', '\r' - '\t'));
  return static_cast<unsigned>(_mm_movemask_epi8(sp));
}
inline unsigned WordMask(__m128i x) {
  __m128i w = _mm_or_si128(
      _mm_or_si128(InRange(x, '0', 9),
                   InRange(_mm_or_si128(x, _mm_set1_epi8(0x20)), 'a', 25)),
      _mm_cmpeq_epi8(x, _mm_set1_epi8('_')));
  return static_cast<unsigned>(_mm_movemask_epi8(w));
}
#endif

// The first index >= i of p[0, n) that is not white space (\s), or n.
inline size_t SkipSpace(const char* p, size_t i, size_t n) {
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    unsigned m = ~SpaceMask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))) & 0xFFFF;
    if (m != 0) return i + __builtin_ctz(m);
  }
#endif
  while (i < n && IsSpace(p[i])) ++i;
  return i;
}

// The first index >= i of p[0, n) that is not a word character (\w), or n.
inline size_t SkipWord(const char* p, size_t i, size_t n) {
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    unsigned m = ~WordMask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))) & 0xFFFF;
    if (m != 0) return i + __builtin_ctz(m);
  }
#endif
  while (i < n && IsWord(p[i])) ++i;
  return i;
}

// The last index `at` with 1 <= at < end, p[at] == '(' and p[at - 1] == ' ',
// or 0 when there is none.
inline size_t LastSpaceParen(const char* p, size_t end) {
#if defined(__SSE2__)
  while (end >= 17) {  // 16 bytes [end - 16, end), all at index >= 1
    size_t from = end - 16;
    unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + from)),
        _mm_set1_epi8('('))));
    while (m != 0) {
      unsigned bit = 31 - __builtin_clz(m);
      if (p[from + bit - 1] == ' ') return from + bit;
      m &= ~(1u << bit);
    }
    end = from;
  }
#endif
  for (size_t at = end; at-- > 1;) {
    if (p[at] == '(' && p[at - 1] == ' ') return at;
  }
  return 0;
}


bool Contains(std::string_view s, std::string_view what) {
  return s.find(what) != std::string_view::npos;
}
bool EndsWith(std::string_view s, std::string_view what) {
  return s.size() >= what.size() && s.substr(s.size() - what.size()) == what;
}
bool StartsWith(std::string_view s, std::string_view what) {
  return s.substr(0, what.size()) == what;
}
std::string_view Basename(std::string_view path) {  // s/.*\///
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}
bool AllSpace(std::string_view s) {
  return std::all_of(s.begin(), s.end(), IsSpace);
}

// Perl's split /\->/: fields between "->", trailing empty fields removed.
void SplitArrows(std::string_view s, std::vector<std::string_view>* out) {
  out->clear();
  size_t pos = 0;
  for (;;) {
    size_t at = s.find("->", pos);
    out->push_back(s.substr(pos, at - pos));
    if (at == std::string_view::npos) break;
    pos = at + 2;
  }
  while (!out->empty() && out->back().empty()) out->pop_back();
}

// The offset that perf script appends to symbols since Linux 4.8:
//   7fffb84c9afc cpu_startup_entry+0x800047c022ec ([kernel.kallsyms])
// s/\+0x[\da-f]+$// (lower case only, as Perl does; `upper` also strips
// upper-case digits, for --modern). Returns the length without it.
inline size_t OffsetStart(std::string_view f, bool upper) {
  const char* p = f.data();
  const size_t n = f.size();
  const uint8_t cls = upper ? kClassHex : kClassLowerHex;
  size_t k = n;
  while (k > 0 && HasClass(p[k - 1], cls)) --k;
  if (k == n || k < 3 || p[k - 3] != '+' || p[k - 2] != '0' || p[k - 1] != 'x') {
    return n;
  }
  return k - 3;
}

// m/\.\(.*\)\./: a Go method such as "net/http.(*Client).Do".
bool LooksLikeGoMethod(std::string_view f) {
  size_t open = f.find(".(");
  return open != std::string_view::npos &&
         f.find(").", open + 2) != std::string_view::npos;
}

constexpr std::string_view kAnon = "anonymous namespace)";

// Perl: s/\((?!anonymous namespace\)).*// -- everything from the first '('
// that does not open "(anonymous namespace)".
size_t PerlCut(std::string_view f) {
  for (size_t i = f.find('('); i != std::string_view::npos;
       i = f.find('(', i + 1)) {
    if (f.substr(i + 1, kAnon.size()) != kAnon) return i;
  }
  return std::string_view::npos;
}

// --modern: the parameter list starts at the first '(' outside <>, [] and
// {} that does not open "(anonymous namespace)"; operator names such as
// "operator<<" and "operator()" are skipped.
size_t ModernCut(std::string_view f) {
  int depth = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    char c = f[i];
    if (c == 'o' && f.substr(i, 8) == "operator" &&
        (i == 0 || !IsWord(f[i - 1])) &&
        (i + 8 >= f.size() || !IsWord(f[i + 8]))) {
      i += 8;
      if (f.substr(i, 2) == "()") {
        i += 1;
        continue;
      }
      while (i < f.size() && Contains("<>=!+-*/%^&|~,[]", std::string_view(&f[i], 1))) ++i;
      --i;
      continue;
    }
    if (c == '<' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == '>' || c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == '(' && depth == 0) {
      if (f.substr(i + 1, kAnon.size()) == kAnon) {
        i += kAnon.size();
        continue;
      }
      return i;
    }
  }
  return std::string_view::npos;
}

// More '<' than '>' before the cut: the Perl rule cut a name inside a
// template argument list ("std::function<void (int)>" -> "std::function<void ").
bool CutInsideTemplate(std::string_view kept) {
  // Two counts, which the compiler vectorizes, not a running depth.
  return std::count(kept.begin(), kept.end(), '<') >
         std::count(kept.begin(), kept.end(), '>');
}

bool IsPerfMap(std::string_view mod) {  // m:/tmp/perf-\d+\.map:
  for (size_t at = mod.find("/tmp/perf-"); at != std::string_view::npos;
       at = mod.find("/tmp/perf-", at + 1)) {
    size_t i = at + 10, start = i;
    while (i < mod.size() && IsDigit(mod[i])) ++i;
    if (i > start && mod.substr(i, 4) == ".map") return true;
  }
  return false;
}

bool IsJitdump(std::string_view mod) {  // jitted-PID-N.so from perf inject
  std::string_view base = Basename(mod);
  return StartsWith(base, "jitted-") && EndsWith(base, ".so");
}

bool IsKernelModuleOrVersioned(std::string_view mod) {
  std::string_view base = Basename(mod);
  return EndsWith(mod, ".ko") || StartsWith(base, "vmlinux-");
}

}  // namespace

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
      event_filter_(options.event_filter) {
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
    frame_keys_.PrefetchKey(hash);  // its slot came meanwhile
  } else {
    if (!FastFields(base, n, &f)) return false;
    key = FrameKey(f);
    hash = KeyTable::Hash(key);
  }
  ahead_.data = nullptr;
  const bool terminated = !reader->last_line_unterminated();
  if (reinterpret_cast<uintptr_t>(base) == fast_next_ && terminated &&
      frame_keys_.size() >= kLookAheadKeys) {
    LookAhead(reader);
  }
  const uint32_t id = LookupFrameKey(f, key, hash);
  const LineResult& res = frame_results_[id];
  if (res.kind == kBinary) return false;  // the general path says where
  if (!leaf_pending_ && terminated && id < kCachedFrame) {
    line_cache_.Insert(std::string_view(base, n + 1), pname_java_,
                       CachedValue(id));
  }
  leaf_pending_ = false;
  // As a number: a pointer past the buffer's last line may not be formed.
  fast_next_ = reinterpret_cast<uintptr_t>(base) + n + 1;
  if (res.kind == kFrame) {
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
  a.key = FrameKey(a.fields);
  a.hash = KeyTable::Hash(a.key);
  frame_keys_.Prefetch(a.hash);
  ahead_ = a;
}

// What the line cache stores for a stack line whose frame_keys_ id is
// `id`: the frame itself, tagged kCachedFrame, when the line pushes one
// frame and counts nothing (nearly always), so that a cached line costs no
// look-up in frame_results_ and pieces_; else the id.
uint32_t PerfScriptParser::CachedValue(uint32_t id) const {
  const LineResult& res = frame_results_[id];
  if (res.kind == kFrame && res.count == 1 && res.quirks == 0 &&
      pieces_[res.first] < kCachedFrame) {
    return kCachedFrame | pieces_[res.first];
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
  const LineResult& res = frame_results_[value];
  if (res.kind == kFrame) {
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
  uint32_t id = LookupFrame(f);
  return frame_results_[id].kind == kBinary ? kNoStackLineId : id;
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
  const LineResult& res = frame_results_[id];
  if (res.kind == kFrame) {
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
  const LineResult* res;
  LineResult slow;
  FrameFields f;
  if (!MatchFrameLine(line, &f)) {
    if (HasNul(line, lineno, file)) return;
    slow.kind = kUnrecognized;
    res = &slow;
  } else if (options_.srcline || options_.inliner) {
    // Each frame consumes the source line after it, or its result depends
    // on its address: no caching.
    if (has_pname_) slow = ProcessFrame(f, reader);
    res = &slow;
  } else {
    res = &frame_results_[LookupFrame(f)];
  }
  leaf_pending_ = false;
  if (res->kind == kBinary) {
    HasNul(line, lineno, file);
    return;
  }
  if (res->kind == kUnrecognized) {
    if (stats_.unrecognized_lines++ == 0) {
      stats_.first_unrecognized_at = Position(lineno);
      stats_.first_unrecognized = Where(file, lineno) + Printable(line);
    }
    return;
  }
  if (!has_pname_) return;  // a sample of another event
  if (res->kind == kDropped) {
    stats_.paren_frames++;
    return;
  }
  PushFrames(*res);
}

// Adds a stack line's frames to the sample (leaf first, as read).
inline void PerfScriptParser::PushFrames(const LineResult& res) {
  if (res.quirks != 0) CountQuirks(res.quirks);
  if (res.count == 1) {  // nearly always
    stack_rev_.push_back(pieces_[res.first]);
  } else {
    for (uint32_t i = res.count; i-- > 0;) {
      stack_rev_.push_back(pieces_[res.first + i]);
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

void PerfScriptParser::CountQuirks(uint8_t quirks) {
  if (quirks & kCutName) stats_.cut_names++;
  if (quirks & kUpperHex) stats_.upper_hex_offsets++;
  if (quirks & kKernelModule) stats_.kernel_modules++;
  if (quirks & kJitdump) stats_.jitdump_frames++;
  if (quirks & kLongName) stats_.limits.long_frames++;
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
    LineResult res;
    res.first = static_cast<uint32_t>(pieces_.size());
    StackLimits name_limit = options_.limits;
    name_limit.max_depth = SIZE_MAX;  // AssembleFrames applies the depth
    LimitStats cut;
    InternFrames(LimitFoldedStack(pname, name_limit, &cut, &scratch_), names_,
                 &pieces_);
    if (cut.long_frames > 0) {
      res.quirks |= kLongName;  // counted for each sample, as frames are
      stats_.limits.longest = std::max(stats_.limits.longest, cut.longest);
    }
    res.count = static_cast<uint32_t>(pieces_.size() - res.first);
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
  const LineResult& p = pname_results_[pname_index_];
  if (p.quirks & kLongName) stats_.limits.long_frames++;
  frames_.assign(pieces_.begin() + p.first, pieces_.begin() + p.first + p.count);
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

// The result of a stack line depends only on the symbol without its offset,
// the module, whether the process name starts with "java", and (with
// --addrs) the address: the cache key is made of those, so its size follows
// the distinct code locations, not the lines or addresses read.
uint32_t PerfScriptParser::LookupFrame(const FrameFields& f) {
  KeyTable::Key key = FrameKey(f);
  return LookupFrameKey(f, key, KeyTable::Hash(key));
}

// A stack line's key in frame_keys_: what its frames depend on.
KeyTable::Key PerfScriptParser::FrameKey(const FrameFields& f) const {
  KeyTable::Key key;
  key.tag = pname_java_ ? 'j' : '-';
  key.a = f.rawfunc.substr(0, OffsetStart(f.rawfunc, options_.modern));
  key.b = f.mod;
  if (options_.include_addrs) key.c = f.pc;
  return key;
}

// LookupFrame, given the line's key (FrameKey) and the key's hash.
uint32_t PerfScriptParser::LookupFrameKey(const FrameFields& f,
                                          const KeyTable::Key& key,
                                          uint64_t hash) {
  bool added = false;
  uint32_t id = frame_keys_.Intern(key, hash, &added);
  if (added) frame_results_.push_back(ProcessFrame(f, nullptr));
  return id;
}

// --inline: the Perl script puts addr2line's chain ("outer;...;inner") in
// place of the frame, untouched (no tidying, no annotation, no srcline
// read), unless addr2line failed.
bool PerfScriptParser::InlineFrame(const FrameFields& f, LineResult* res) {
  std::string chain = options_.inliner->Expand(f.pc, f.rawfunc, f.mod);
  if (chain.empty() || chain == "??" || chain == "??:??:0") return false;
  res->first = static_cast<uint32_t>(pieces_.size());
  size_t start = 0;
  while (start <= chain.size()) {
    size_t end = chain.find(';', start);
    if (end == std::string::npos) end = chain.size();
    std::string_view func = std::string_view(chain).substr(start, end - start);
    if (func.size() > options_.limits.max_frame) {  // as any frame name
      stats_.limits.longest = std::max<uint64_t>(stats_.limits.longest,
                                                 func.size());
      func = func.substr(0, Utf8CutLength(func, options_.limits.max_frame));
      res->quirks |= kLongName;
    }
    pieces_.push_back(names_->Intern(func));
    res->count++;
    start = end + 1;
  }
  return true;
}

// Turns one stack line into the frames the Perl script pushes for it
// (several for a perf-map-agent inline chain "a->b->c").
PerfScriptParser::LineResult PerfScriptParser::ProcessFrame(
    const FrameFields& f, LineReader* reader) {
  LineResult res;
  if (options_.inliner && FrameInliner::Applies(f.mod) &&
      InlineFrame(f, &res)) {
    return res;
  }
  std::string_view rawfunc = f.rawfunc;
  size_t cut = OffsetStart(rawfunc, options_.modern);
  if (cut == rawfunc.size() && OffsetStart(rawfunc, true) != rawfunc.size()) {
    res.quirks |= kUpperHex;
  }
  rawfunc = rawfunc.substr(0, cut);
  if (std::memchr(rawfunc.data(), 0, rawfunc.size()) != nullptr ||
      std::memchr(f.mod.data(), 0, f.mod.size()) != nullptr) {
    res.kind = kBinary;  // checked once per distinct key, here
    return res;
  }
  if (!rawfunc.empty() && rawfunc[0] == '(' && !options_.modern) {
    res.kind = kDropped;  // Perl: next if $rawfunc =~ /^\(/
    return res;
  }
  std::vector<std::string_view> parts;
  SplitArrows(rawfunc, &parts);
  res.first = static_cast<uint32_t>(pieces_.size());
  bool is_unknown = false;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string& func = scratch_;
    func.assign(parts[i]);
    if (func == "[unknown]") {
      std::string name;
      if (f.mod != "[unknown]") {
        name = std::string(Basename(f.mod));
      } else {
        name = "unknown";
        is_unknown = true;
      }
      func = options_.include_addrs
                 ? "[" + name + " <" + std::string(f.pc) + ">]"
                 : "[" + name + "]";
    }
    TidyPiece(&func, &res.quirks);
    if (pname_java_ && Contains(func, "/") && !func.empty() && func[0] == 'L') {
      func.erase(0, 1);
    }
    Annotate(&func, i, f.mod, &res.quirks);
    if (options_.srcline && !is_unknown && reader != nullptr) {
      // The line after each frame is its source location:
      //   |   uniform_int_dist.h:300
      //   |   libc-2.33.so[27b25]
      std::string_view src;
      if (reader->Next(&src) == LineReader::kLine) stats_.lines++;
      else src = {};
      std::string text;
      for (size_t k = 0; k < src.size(); ++k) {  // s/\[.*?\]//g
        if (src[k] == '[') {
          size_t close = src.find(']', k + 1);
          if (close != std::string_view::npos) {
            k = close;
            continue;
          }
        }
        text += src[k];
      }
      size_t a = 0, b = text.size();
      while (a < b && IsSpace(text[a])) ++a;
      while (b > a && IsSpace(text[b - 1])) --b;
      if (b > a) func += ":" + text.substr(a, b - a);
    }
    if (func.size() > options_.limits.max_frame) {
      // Counted for each line that has it (CountQuirks), not only here.
      stats_.limits.longest = std::max<uint64_t>(stats_.limits.longest,
                                                 func.size());
      func.resize(Utf8CutLength(func, options_.limits.max_frame));
      res.quirks |= kLongName;
    }
    pieces_.push_back(names_->Intern(func));
    res.count++;
  }
  return res;
}

// Perl's tr/;/:/ and s/["']//g. Names seldom hold those bytes: memchr looks
// for them many bytes at a time, where a byte-by-byte pass over a long C++
// name would cost more than the rest of the name's tidying.
void PerfScriptParser::TidyPiece(std::string* func, uint8_t* quirks) const {
  for (char* p = func->data(), *end = p + func->size();
       (p = static_cast<char*>(std::memchr(p, ';', end - p))) != nullptr;) {
    *p++ = ':';
  }
  if (!LooksLikeGoMethod(*func)) {
    size_t cut = options_.modern ? ModernCut(*func) : PerlCut(*func);
    if (cut != std::string::npos) {
      std::string_view kept(func->data(), cut);
      if (!options_.modern && CutInsideTemplate(kept)) *quirks |= kCutName;
      func->resize(cut);
    }
  }
  if (std::memchr(func->data(), '"', func->size()) != nullptr ||
      std::memchr(func->data(), '\'', func->size()) != nullptr) {
    func->erase(std::remove_if(func->begin(), func->end(),
                               [](char c) { return c == '"' || c == '\''; }),
                func->end());
  }
}

void PerfScriptParser::Annotate(std::string* func, size_t index,
                                std::string_view mod, uint8_t* quirks) const {
  if (index > 0) {  // the 2nd and later pieces of "a->b" were inlined
    if (!Contains(*func, "_[i]")) *func += "_[i]";
    return;
  }
  if (options_.annotate_kernel && !Contains(mod, "unknown")) {
    bool perl_kernel = StartsWith(mod, "[") || EndsWith(mod, "vmlinux");
    if (perl_kernel) {
      *func += "_[k]";
      return;
    }
    if (IsKernelModuleOrVersioned(mod)) {
      if (options_.modern) {
        *func += "_[k]";
        return;
      }
      *quirks |= kKernelModule;
    }
  }
  if (options_.annotate_jit) {
    if (IsPerfMap(mod)) {
      if (!Contains(*func, "_[j]")) *func += "_[j]";
    } else if (IsJitdump(mod)) {
      if (options_.modern) {
        if (!Contains(*func, "_[j]")) *func += "_[j]";
      } else {
        *quirks |= kJitdump;
      }
    }
  }
}

}  // namespace flamefold
