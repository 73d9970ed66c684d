#include "collapse/flamefold.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "collapse/fold_inputs.h"
#include "collapse/fold_warnings.h"
#include "collapse/folded.h"
#include "collapse/off_cpu_waits.h"
#include "collapse/stack_filter.h"
#include "collapse/stack_limits.h"
#include "collapse/stack_transform.h"
#include "collapse/stack_writer.h"

namespace flamefold {

namespace {

struct WriteCounts {
  uint64_t stacks = 0, stacks_written = 0;
  uint64_t samples_filtered = 0;
  // What the transforms dropped (of which emptied: left without frames).
  uint64_t stacks_dropped = 0, samples_dropped = 0;
  uint64_t stacks_emptied = 0, samples_emptied = 0;
};

// The stacks the transforms made, merged: a weight and a sample count for
// each distinct one (stacks that became equal add up, in the order they
// came, as stackcollapse-recursive.pl adds them).
struct MergedCounts {
  PerlNumber weight;
  uint64_t samples = 0;
};
using MergedStacks = std::unordered_map<std::string, MergedCounts>;

// Writes the merged stacks in the byte order of their lines.
void WriteMerged(const MergedStacks& merged, StackWriter* out) {
  std::vector<const MergedStacks::value_type*> sorted;
  sorted.reserve(merged.size());
  for (const auto& entry : merged) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  for (const auto* entry : sorted) {
    out->Add(entry->first, entry->second.weight, entry->second.samples);
  }
}

// Writes the stacks that --include/--exclude keep, as the transforms make
// them (on the lines those kept). Transforms that only keep or drop stacks
// let them through as they come; the others' results are merged first.
WriteCounts WriteStacks(FoldInputs* inputs, const StackFilter& filter,
                        const StackTransform& transform, StackWriter* out) {
  WriteCounts c;
  std::string transformed;
  MergedStacks merged;
  inputs->VisitStacks([&](std::string_view line, const PerlNumber& weight,
                          uint64_t samples) {
    c.stacks++;
    if (filter.active() && !filter.Keep(line)) {
      c.samples_filtered += samples;
      return;
    }
    if (!transform.active()) {
      c.stacks_written++;
      out->Add(line, weight, samples);
      return;
    }
    switch (transform.Apply(line, &transformed)) {
      case StackTransform::Result::kKept: {
        if (!transform.reshapes()) {  // the line kept as it is, in order
          c.stacks_written++;
          out->Add(line, weight, samples);
          return;
        }
        MergedCounts& m = merged[transformed];
        m.weight.Add(weight);
        m.samples += samples;
        return;
      }
      case StackTransform::Result::kEmptied:
        c.stacks_emptied++;
        c.samples_emptied += samples;
        break;
      case StackTransform::Result::kDropped:
        break;
    }
    c.stacks_dropped++;
    c.samples_dropped += samples;
  });
  if (transform.reshapes()) {
    c.stacks_written = merged.size();
    WriteMerged(merged, out);
  }
  return c;
}

// --off-cpu's counts (OffCpuStats); with --on-off, the CPU samples'.
void PrintOffCpuStats(const OffCpuStats& o, bool on_off, const char* tool) {
  auto n = [](uint64_t v) { return (unsigned long long)v; };
  std::fprintf(stderr,
               "%s: stats: --off-cpu: %llu sched_switch samples, %llu waits "
               "counted, %llu of them cut by the end of the input (%s s "
               "counted)\n"
               "%s: stats: --off-cpu: switch-outs left out: %llu of the idle "
               "task, %llu of dying threads, %llu of other states "
               "(--off-cpu-state)\n"
               "%s: stats: --off-cpu: %llu waits shorter than "
               "--off-cpu-min-us, %llu switch-ins with no wait open, %llu "
               "waits ended by a switch-out (no switch-in seen), %llu "
               "samples of other events\n",
               tool, n(o.switch_outs), n(o.waits), n(o.cut),
               SecondsText(o.cut_ns).c_str(), tool, n(o.idle), n(o.dying),
               n(o.other_state), tool, n(o.short_waits),
               n(o.unopened_switch_ins), n(o.unseen_switch_ins),
               n(o.other_samples));
  if (on_off) {
    std::fprintf(stderr, "%s: stats: --on-off: %llu CPU samples counted\n",
                 tool, n(o.on_cpu_samples));
  }
}

void PrintStats(const FoldInputs& inputs, const WriteCounts& c,
                size_t frames, bool transformed, const OffCpuOptions& off_cpu,
                const Diag& diag) {
  const PerfScriptStats& s = inputs.perf_stats();
  const FoldedStats& f = inputs.folded_stats();
  const char* tool = diag.tool().c_str();
  std::fprintf(stderr,
               "%s: stats: %llu lines (%llu comments, %llu unrecognized, %llu too long)\n"
               "%s: stats: %llu samples folded, %llu of other events skipped, %llu filtered out\n"
               "%s: stats: %llu distinct stacks, %llu written; %zu distinct frames\n",
               tool,
               (unsigned long long)(s.lines + f.lines),
               (unsigned long long)s.comment_lines,
               (unsigned long long)(s.unrecognized_lines + f.invalid_lines),
               (unsigned long long)s.long_lines,
               tool, (unsigned long long)inputs.total_samples(),
               (unsigned long long)s.samples_other_event,
               (unsigned long long)c.samples_filtered,
               tool, (unsigned long long)c.stacks,
               (unsigned long long)c.stacks_written, frames);
  if (s.timed_samples > 0) {
    std::fprintf(stderr,
                 "%s: stats: --time-range kept %llu of %llu samples "
                 "(from %s to %s)\n",
                 tool, (unsigned long long)s.samples_in_range,
                 (unsigned long long)s.timed_samples,
                 SecondsText(s.first_time).c_str(),
                 SecondsText(s.last_time).c_str());
  }
  if (off_cpu.enabled) PrintOffCpuStats(s.off_cpu, off_cpu.on_off, tool);
  if (transformed) {
    std::fprintf(stderr,
                 "%s: stats: transforms dropped %llu stacks (%llu samples), "
                 "%llu of them (%llu samples) left without frames\n",
                 tool, (unsigned long long)c.stacks_dropped,
                 (unsigned long long)c.samples_dropped,
                 (unsigned long long)c.stacks_emptied,
                 (unsigned long long)c.samples_emptied);
  }
  std::fprintf(stderr, "%s: stats: %s\n", tool,
               LimitStatsText(inputs.limit_totals()).c_str());
}

}  // namespace

int RunFold(const FoldConfig& config, RecordingFolder* recordings,
            OutputSink* out, const Diag& diag) {
  StackFilter filter;
  StackTransform transform;
  if (std::optional<int> exit =
          SelectStacks(config, &filter, &transform, diag)) {
    return *exit;
  }
  std::string err;
  StringInterner names;
  FoldInputs inputs(config, &names, /*trie=*/nullptr, recordings);
  std::unique_ptr<StackWriter> writer = config.make_writer(out);
  FrameOrigins origins;
  if (writer->wants_origins()) inputs.set_frame_origins(&origins);
  if (TimedSampleSink* timed = writer->timed_sink(&names)) {
    inputs.set_timed_sink(timed);
  }
  if (!inputs.FoldAll(config.inputs, &err)) {
    diag.Error(err);
    return kExitDataError;
  }
  FoldFacts facts;
  facts.event = inputs.event();
  facts.periods = inputs.perf_stats().samples_by_period > 0;
  facts.weight_field = config.perf.weight_field;
  facts.off_cpu_unit = OffCpuUnitName(config.perf.off_cpu);
  if (writer->wants_origins()) facts.origins = &origins;
  facts.names = &names;
  facts.samples = inputs.total_samples();
  facts.folded_input = inputs.folded_stats().lines > 0;
  facts.shape = [&](std::string_view line, std::string* shaped) {
    return ShapeStackLine(filter, transform, line, shaped);
  };
  writer->Begin(facts);
  WriteCounts c = WriteStacks(&inputs, filter, transform, writer.get());
  if (!writer->Finish(diag)) return kExitDataError;
  if (std::optional<int> exit = FlushFailed(out, diag)) return *exit;
  WarnAboutFold(config, inputs, diag);
  if (config.stats) {
    PrintStats(inputs, c, names.size(), transform.active(),
               config.perf.off_cpu, diag);
  }
  return kExitOk;
}

}  // namespace flamefold
