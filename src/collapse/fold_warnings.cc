#include "collapse/fold_warnings.h"

#include "collapse/fold_inputs.h"
#include "collapse/folded.h"
#include "collapse/stack_limits.h"

namespace flamefold {

namespace {

// "'a' (3 samples), 'b' (1 sample)": the events an --event-filter skipped.
std::string EventList(const PerfScriptStats& s) {
  std::string out;
  for (const auto& [name, n] : s.other_events) {
    if (!out.empty()) out += ", ";
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false alarm)
    // about a chain of string temporaries starting with "'" here.
    out += '\'';
    out += Printable(name);
    out += "' (";
    out += std::to_string(n);
    out += n == 1 ? " sample)" : " samples)";
  }
  if (s.other_events.size() == PerfScriptStats::kMaxOtherEvents) {
    out += ", ...";
  }
  return out;
}

}  // namespace

void WarnAboutPerfScript(const FoldConfig& config, const PerfScriptStats& s,
                         const std::string& event, const Diag& diag) {
  auto warn = [&](uint64_t n, const std::string& text) {
    if (n > 0) diag.Warning(text);
  };
  auto num = [](uint64_t n) { return std::to_string(n); };
  warn(s.unrecognized_lines,
       num(s.unrecognized_lines) +
           " line(s) not recognised as perf script output were skipped "
           "(first: " + s.first_unrecognized + ")");
  warn(s.long_lines, num(s.long_lines) + " line(s) longer than " +
                         num(config.max_line) +
                         " bytes were skipped (first: " + s.first_long_line +
                         "; see --max-line-length)");
  if (config.perf.event_filter.empty()) {
    warn(s.samples_other_event,
         "kept only samples of '" + event + "', the first event seen; " +
             num(s.samples_other_event) + " sample(s) of other events (first: '" +
             s.other_event + "') were skipped: choose with --event-filter");
  } else if (s.samples == 0) {
    warn(s.samples_other_event,
         "--event-filter '" + Printable(config.perf.event_filter) +
             "' matched no sample; the input has " + EventList(s));
  }
  warn(s.samples_unweighed,
       num(s.samples_unweighed) + " sample(s) without a field '" +
           Printable(config.perf.weight_field) +
           "' of 0 or more counted 0 (--weight)");
  if (config.perf.modern) return;
  const std::string fix = " (--modern fixes this)";
  warn(s.last_sample_dropped,
       "the input does not end with a blank line: its last sample was "
       "dropped, as stackcollapse-perf.pl drops it" + fix);
  warn(s.blank_with_spaces,
       num(s.blank_with_spaces) +
           " white-space-only line(s) did not end a sample, so samples were "
           "merged as stackcollapse-perf.pl merges them" + fix);
  warn(s.paren_frames, num(s.paren_frames) +
                           " frame(s) beginning with '(', such as "
                           "'(anonymous namespace)::f', were dropped" + fix);
  warn(s.cut_names, num(s.cut_names) +
                        " C++ name(s) were cut at a '(' inside a template "
                        "argument list, such as 'std::function<void '" + fix);
  warn(s.one_char_comm,
       num(s.one_char_comm) +
           " event line(s) with a one-character command name were "
           "misparsed (the name took in the numbers after it)" + fix);
  warn(s.upper_hex_offsets,
       num(s.upper_hex_offsets) +
           " frame(s) kept an upper-case hex offset (+0xABC) in the name" +
           fix);
  warn(s.kernel_modules, num(s.kernel_modules) +
                             " frame(s) in kernel modules (.ko) or a "
                             "versioned vmlinux were not marked _[k]" + fix);
  warn(s.jitdump_frames,
       num(s.jitdump_frames) +
           " frame(s) in jitdump code (jitted-*.so) were not marked _[j]" +
           fix);
}

void WarnAboutFold(const FoldConfig& config, const FoldInputs& inputs,
                   const Diag& diag) {
  const PerfScriptStats& s = inputs.perf_stats();
  const FoldedStats& f = inputs.folded_stats();
  WarnAboutPerfScript(config, s, inputs.event(), diag);
  if (f.invalid_lines > 0) {
    diag.Warning(std::to_string(f.invalid_lines) +
                 " folded line(s) without a count were skipped (first: " +
                 FirstInvalidWhere(f) + ")");
  }
  for (const auto& [file, cut] : inputs.limit_hits()) {
    diag.Warning(LimitWarning(file, config.perf.limits, cut));
  }
  // A system-wide recording misses the odd switch-in (a few in a
  // thousand waits, with no lost record to say so); text of one process
  // printed without its switch events misses most. Only the latter is
  // worth a warning: --stats gives the count either way.
  const OffCpuStats& o = s.off_cpu;
  if (o.unseen_switch_ins > 0 && o.unseen_switch_ins * 10 >= o.waits) {
    // Appended: "literal" + std::string&& makes GCC 12 warn (-Wrestrict,
    // bug 105329).
    std::string text("--off-cpu: ");
    text.append(std::to_string(o.unseen_switch_ins))
        .append(" of ")
        .append(std::to_string(o.waits))
        .append(" wait(s) ended only when their thread switched out again, "
                "so they hold the time it ran: the input shows no switch-in "
                "of them (one process needs perf record --switch-events, "
                "and its text perf script --show-switch-events)");
    diag.Warning(text);
  }
  WarnIfNoSamples(config, s, inputs.total_samples(), diag);
}

void WarnIfNoSamples(const FoldConfig& config, const PerfScriptStats& s,
                     uint64_t samples, const Diag& diag) {
  bool filtered_out = !config.perf.event_filter.empty() && s.samples == 0 &&
                      s.samples_other_event > 0;  // WarnAboutPerfScript's
  // --weight: samples without the field were read, and counted 0 (said).
  if (samples == 0 && !filtered_out && s.samples_unweighed == 0) {
    diag.Warning("no samples in the input");
  }
}

}  // namespace flamefold
