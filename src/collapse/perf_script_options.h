// What the perf script rules are asked to do (stackcollapse-perf.pl's
// options) and what they found (statistics and counted quirks): shared by
// the text parser, the per-frame naming rules and the per-sample fold.
#ifndef FLAMEFOLD_COLLAPSE_PERF_SCRIPT_OPTIONS_H_
#define FLAMEFOLD_COLLAPSE_PERF_SCRIPT_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "collapse/stack_limits.h"
#include "collapse/time_range.h"

namespace flamefold {

class FrameInliner;

/// --off-cpu: each sched:sched_switch sample opens a wait of the thread it
/// switches out, counted on its stack until the thread runs again.
struct OffCpuOptions {
  bool enabled = false;      // --off-cpu
  uint64_t unit_ns = 1000;   // --off-cpu-unit, in ns (microseconds unless set)
  // --off-cpu-state: the prev_state values kept, as perf script prints
  // them without a trailing "+" ("S", "D", "R"); empty: all.
  std::vector<std::string> states;
  uint64_t min_ns = 0;       // --off-cpu-min-us, in ns: shorter waits go
  // --on-off: the CPU samples (cpu-clock, task-clock) count their periods
  // beside the waits, whose frames are marked "_[o]".
  bool on_off = false;
};

/// What --off-cpu found, for --stats.
struct OffCpuStats {
  uint64_t switch_outs = 0;     // sched_switch samples read
  uint64_t waits = 0;           // waits counted (cut ones included)
  uint64_t cut = 0, cut_ns = 0;  // open at the end, counted up to it
  uint64_t idle = 0;            // switch-outs of the idle task (pid 0)
  uint64_t dying = 0;           // of a dying thread (prev_state X or Z)
  uint64_t other_state = 0;     // not of a state --off-cpu-state keeps
  uint64_t short_waits = 0;     // shorter than --off-cpu-min-us
  uint64_t unopened_switch_ins = 0;  // switch-ins finding no wait open
  // Waits still open when their thread switched out again: no switch-in
  // was seen, so they hold the time the thread ran.
  uint64_t unseen_switch_ins = 0;
  uint64_t other_samples = 0;   // samples of other events: not waits
  uint64_t on_cpu_samples = 0;  // --on-off: CPU samples counted
  void Add(const OffCpuStats& b);
};

struct PerfScriptOptions {
  bool include_pid = false;      // --pid: process frame "comm-PID"
  bool include_tid = false;      // --tid: "comm-PID/TID" (wins over --pid)
  bool annotate_kernel = false;  // --kernel: "_[k]" on kernel frames
  bool annotate_jit = false;     // --jit: "_[j]" on perf-map JIT frames
  bool include_addrs = false;    // --addrs: "[mod <pc>]" for unknown symbols
  bool srcline = false;          // --srcline: input from perf script -F+srcline
  std::string event_filter;      // --event-filter; "" = the first event seen
  // --weight: each sample counts the value of this field of its
  // tracepoint's data instead of its period ("": its period)
  std::string weight_field;
  bool modern = false;           // --modern: fix the Perl script's data loss
  // --inline (--context): user frames replaced by addr2line's inline
  // chain; shared by the parsers of all threads (it locks).
  FrameInliner* inliner = nullptr;
  StackLimits limits;            // --max-stack-depth, --max-frame-length
  TimeRangeSpec time_range;      // --time-range: the samples' times kept
  OffCpuOptions off_cpu;         // --off-cpu and its --off-cpu-* options
};

/// What happened to the input, for --stats and for the warnings about the
/// Perl script's quirks (each counted, so none is silent).
struct PerfScriptStats {
  uint64_t lines = 0;
  uint64_t comment_lines = 0;
  uint64_t samples = 0;               // samples folded
  uint64_t samples_other_event = 0;   // skipped by the event filter
  uint64_t samples_unweighed = 0;     // --weight: without the field, count 0
  uint64_t samples_by_period = 0;     // headers whose period was the count
  std::string other_event;            // the first event name skipped
  // Samples skipped per event name, for an --event-filter that matched
  // nothing; at most kMaxOtherEvents names (a hostile input has more).
  static constexpr size_t kMaxOtherEvents = 32;
  std::map<std::string, uint64_t, std::less<>> other_events;
  uint64_t unrecognized_lines = 0;
  std::string first_unrecognized;     // "FILE:LINE: text" of the first one
  uint64_t long_lines = 0;            // longer than the line limit, skipped
  std::string first_long_line;        // "FILE:LINE"
  // Where the "first ..." cases were seen: (input index << 40) + line, so
  // that statistics merged from several threads name the earliest one.
  uint64_t first_unrecognized_at = UINT64_MAX;
  uint64_t first_long_line_at = UINT64_MAX;
  uint64_t other_event_at = UINT64_MAX;
  // Perl quirks (in --modern mode these count what was fixed).
  uint64_t last_sample_dropped = 0;   // input did not end with a blank line
  uint64_t blank_with_spaces = 0;     // white-space-only line: no boundary
  uint64_t paren_frames = 0;          // frames beginning with '(' dropped
  uint64_t cut_names = 0;             // C++ names cut inside <...>
  uint64_t one_char_comm = 0;         // one-character comm misparsed
  uint64_t upper_hex_offsets = 0;     // +0xABC offsets left in names
  uint64_t kernel_modules = 0;        // .ko / vmlinux-VER not marked _[k]
  uint64_t jitdump_frames = 0;        // jitted-*.so not marked _[j]
  LimitStats limits;                  // stacks and names cut to the limits
  // With --time-range: the samples (of any event) whose time was read, how
  // many of them it kept, and the first and last of their times.
  uint64_t timed_samples = 0;
  uint64_t samples_in_range = 0;
  uint64_t first_time = UINT64_MAX, last_time = 0;
  OffCpuStats off_cpu;                // --off-cpu
};

/// Adds the counts of `b` to `a`; the "first ..." fields keep the earlier.
void MergeStats(PerfScriptStats* a, const PerfScriptStats& b);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_PERF_SCRIPT_OPTIONS_H_
