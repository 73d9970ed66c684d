#include "collapse/perf_lines.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>

#include "collapse/perl_chars.h"

namespace flamefold {

using namespace perl_chars;

// Event header lines, stackcollapse-perf.pl's /^(\S.+?)\s+(\d+)\/*(\d+)*\s+/:
//   java 25607 4794564.109216: 1 cycles:
//   java 12688 [002] 6544038.708352: 235 cpu-clock:
//   V8 WorkerThread 25607 4794564.109216: 104345 cycles:
//   java 24636/25607 [000] 4794564.109216: 1 cycles:u:
//   swapper     0/0     [000] 1007.253216:   10101010 cpu-clock:pppH:
// The comm is the shortest prefix of at least two characters (one with
// --modern) that is followed by white space, a number, optionally '/' and a
// second number, and white space.
bool MatchHeaderLine(std::string_view line, bool modern,
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

// The time after the pid and tid, the first word that ends in ':', in
// nanoseconds, from lines such as these (the second perf script --ns's):
//   java 12688 [002] 6544038.708352: 235 cpu-clock:
//   bash 21943 [000]  3442.442956415:    5025125 cpu-clock:ppp:
// UINT64_MAX for a line without one (perf script -F without the time):
//   work 22516 page-faults:
uint64_t HeaderTime(std::string_view line, size_t from, size_t* after) {
  const size_t n = line.size();
  size_t p = from;
  for (;;) {
    while (p < n && IsSpace(line[p])) ++p;
    size_t q = p;
    while (q < n && !IsSpace(line[q])) ++q;
    if (q == p) return UINT64_MAX;
    if (line[q - 1] == ':') break;
    p = q;
  }
  uint64_t seconds = 0, fraction = 0;
  size_t dot = p;
  while (dot < n && IsDigit(line[dot])) ++dot;
  if (dot == p || dot > p + 10 || line[dot] != '.') return UINT64_MAX;
  std::from_chars(line.data() + p, line.data() + dot, seconds);
  size_t end = dot + 1;
  while (end < n && IsDigit(line[end])) {
    fraction = fraction * 10 + static_cast<uint64_t>(line[end] - '0');
    ++end;
  }
  const size_t decimals = end - dot - 1;
  if (decimals == 0 || decimals > 9 || line[end] != ':') return UINT64_MAX;
  for (size_t i = decimals; i < 9; ++i) fraction *= 10;
  if (after != nullptr) *after = end + 1;
  return seconds * 1000000000 + fraction;
}

int32_t HeaderNumber(std::string_view digits) {
  int32_t v = -1;
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) return -1;
  return v;
}

// The period and event at the end of a header, /:\s*(\d+)*\s+(\S+):\s*$/:
//   ... 6544038.708352: 235 cpu-clock:        period 235, event cpu-clock
//   ... 4794564.109216: 1 cycles:u:           event cycles:u
//   ... 1.000000: sched:sched_switch:         no period, event sched:sched_switch
//   ... 2.0: 1 kmem:kmalloc: call_site=...    no match (trace fields follow)
bool MatchEvent(std::string_view line, EventFields* out) {
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

// A tracepoint's fields after the event on its header line:
//   cat 26580 [001] 21180.479465: kmem:kmalloc: call_site=perf_event_mmap+0x16b
//     ptr=0xffff8881201ce000 bytes_req=4096 bytes_alloc=4096 gfp_flags=GFP_KERNEL
//   alloc 32219 [000] 21255.404833: probe_libc:malloc: (7f17b822e930) bytes=24
// (each one line). The first " FIELD=" is the field's.
std::optional<uint64_t> MatchTraceField(std::string_view line,
                                        std::string_view field) {
  for (size_t at = line.find(field); at != std::string_view::npos;
       at = line.find(field, at + 1)) {
    size_t eq = at + field.size();
    if (at == 0 || !IsSpace(line[at - 1]) || eq >= line.size() ||
        line[eq] != '=') {
      continue;
    }
    std::string_view value = line.substr(eq + 1);
    size_t end = 0;
    while (end < value.size() && !IsSpace(value[end])) ++end;
    value = value.substr(0, end);
    int base = 10;
    if (value.size() > 2 && value[0] == '0' && (value[1] | 0x20) == 'x') {
      value.remove_prefix(2);
      base = 16;
    }
    uint64_t v = 0;
    auto r = std::from_chars(value.data(), value.data() + value.size(), v,
                             base);
    if (value.empty() || r.ec != std::errc() ||
        r.ptr != value.data() + value.size()) {
      return std::nullopt;
    }
    return v;
  }
  return std::nullopt;
}

// A sched_switch sample after its time (one line), its period first with
// perf script -F period:
//   sched:sched_switch: prev_comm=offcpu prev_pid=17001 prev_prio=120
//     prev_state=S ==> next_comm=cc1plus next_pid=14598 next_prio=120
//            1 sched:sched_switch: prev_comm=offcpu prev_pid=5908 ...
// prev_state is a word ("S", "R+", "D|K"); the pids are decimal.
SchedMatch MatchSchedSwitch(std::string_view rest, SchedSwitch* out) {
  size_t p = 0, q = 0;
  for (int word = 0; word < 2; ++word) {  // the period, if any, then the event
    p = q;
    while (p < rest.size() && IsSpace(rest[p])) ++p;
    q = p;
    while (q < rest.size() && !IsSpace(rest[q])) ++q;
    std::string_view w = rest.substr(p, q - p);
    if (w.empty() || !std::all_of(w.begin(), w.end(), IsDigit)) break;
  }
  if (!rest.substr(p, q - p).ends_with(":sched_switch:")) {
    return SchedMatch::kOther;
  }
  rest = rest.substr(q);
  std::optional<uint64_t> prev = MatchTraceField(rest, "prev_pid");
  std::optional<uint64_t> next = MatchTraceField(rest, "next_pid");
  size_t at = rest.find(" prev_state=");
  if (!prev || !next || at == std::string_view::npos || *prev > INT32_MAX ||
      *next > INT32_MAX) {
    return SchedMatch::kNoFields;
  }
  out->prev_pid = static_cast<int32_t>(*prev);
  out->next_pid = static_cast<int32_t>(*next);
  std::string_view state = rest.substr(at + 12);
  size_t end = 0;
  while (end < state.size() && !IsSpace(state[end])) ++end;
  out->state.fill('\0');
  state.substr(0, std::min(end, out->state.size() - 1))
      .copy(out->state.data(), out->state.size() - 1);
  return SchedMatch::kSwitch;
}

// Stack lines, /^\s*(\w+)\s*(.+) \((.*)\)/ with Perl's backtracking:
//       7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)
//   ffffffff8103ce3b native_safe_halt+0xb ([kernel.kallsyms])
//            7d8 ipv4_conntrack_local+0x7f8f80b8 ([nf_conntrack_ipv4])
//       4c1e10 [unknown] ([JIT app cache])
// The module runs from the last " (" that has a ')' after it to the last
// ')'; the symbol is what lies between the address and that " (".
bool MatchFrameLine(std::string_view line, FrameFields* out) {
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

}  // namespace flamefold
