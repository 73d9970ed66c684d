// The lines of perf script text that stackcollapse-perf.pl tells apart, and
// the fields its regular expressions take from them (see the .cc for the
// grammar and the lines each accepts).
#ifndef FLAMEFOLD_COLLAPSE_PERF_LINES_H_
#define FLAMEFOLD_COLLAPSE_PERF_LINES_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "collapse/frame_names.h"
#include "collapse/recorded_sample.h"

namespace flamefold {

/// A sample's header line: the comm, then the pid and tid
/// ("comm PID/TID") or the tid alone ("comm TID").
struct HeaderFields {
  std::string_view comm, pid, tid;  // tid empty when absent
  bool has_tid = false;
};
bool MatchHeaderLine(std::string_view line, bool modern, HeaderFields* out);

/// The time perf script prints in a header after the pid and tid (`from`:
/// where they end), in ns: "SECONDS.FRACTION:" with 1 to 9 decimals (6 as
/// perf prints them, 9 with --ns), the first word ending in ':'. UINT64_MAX
/// when that word is no time (perf script -F without time). `after` (when
/// given) is set to where the time's word ends, past its ':'.
uint64_t HeaderTime(std::string_view line, size_t from,
                    size_t* after = nullptr);

/// The number `digits` holds ("12345"), or -1 when it holds more than an
/// int32_t does or none.
int32_t HeaderNumber(std::string_view digits);

/// The period and event ending a header line.
struct EventFields {
  std::string_view period, event;  // period empty when absent
  /// The period as a number, read instead of `period`'s digits when
  /// `has_value` (a recording's sample need not print what it has).
  bool has_value = false;
  uint64_t value = 0;
};
bool MatchEvent(std::string_view line, EventFields* out);

/// The value of a tracepoint's field `field` on a header line, where
/// perf script prints the fields after the event: " FIELD=VALUE", VALUE in
/// decimal or 0x hex, up to white space or the end. None when the line has
/// no such field or its value is no such number (a name, a negative one).
std::optional<uint64_t> MatchTraceField(std::string_view line,
                                        std::string_view field);

/// What a header line holds after its time, for --off-cpu.
enum class SchedMatch {
  kOther,        // no sched_switch sample
  kSwitch,       // a sched_switch sample: its fields are read
  kNoFields,     // a sched_switch sample without prev_pid, next_pid or
                 // prev_state (perf script -F without trace)
};
/// Reads `rest`, a header line after its time, as a sched_switch sample:
/// an event ending ":sched_switch:" and the fields perf script prints.
SchedMatch MatchSchedSwitch(std::string_view rest, SchedSwitch* out);

/// A stack line's fields (FrameFields).
bool MatchFrameLine(std::string_view line, FrameFields* out);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_PERF_LINES_H_
