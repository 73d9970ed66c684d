#include "collapse/flamefold.h"

#include <cstdio>
#include <string>
#include <vector>

#include "collapse/fold_inputs.h"
#include "collapse/fold_warnings.h"
#include "collapse/folded.h"
#include "collapse/stack_filter.h"
#include "collapse/stack_limits.h"

namespace flamefold {

namespace {

struct WriteCounts {
  uint64_t stacks = 0, stacks_written = 0;
  uint64_t samples_filtered = 0;
};

WriteCounts WriteStacks(FoldInputs* inputs, const StackFilter& filter,
                        OutputSink* out) {
  WriteCounts c;
  std::string buf;
  inputs->VisitStacks([&](std::string_view line, const PerlNumber& weight,
                          uint64_t samples) {
    c.stacks++;
    if (filter.active() && !filter.Keep(line)) {
      c.samples_filtered += samples;
      return;
    }
    c.stacks_written++;
    out->Write(line);
    buf.assign(1, ' ');
    weight.AppendTo(&buf);
    buf += '\n';
    out->Write(buf);
  });
  return c;
}

}  // namespace

int RunFold(const FoldConfig& config, RecordingFolder* recordings,
            OutputSink* out, const Diag& diag) {
  StackFilter filter;
  std::string err;
  if (!filter.Init(config.include, config.exclude, &err)) {
    diag.Error(err);
    return kExitUsage;
  }
  StringInterner names;
  FoldInputs inputs(config, &names, /*trie=*/nullptr, recordings);
  if (!inputs.FoldAll(config.inputs, &err)) {
    diag.Error(err);
    return kExitDataError;
  }
  const PerfScriptStats& s = inputs.perf_stats();
  const FoldedStats& f = inputs.folded_stats();
  WriteCounts c = WriteStacks(&inputs, filter, out);
  if (!out->Flush()) {
    if (out->broken_pipe()) return kExitOk;
    diag.Error("write error: " + out->error());
    return kExitDataError;
  }
  WarnAboutFold(config, inputs, diag);
  if (config.stats) {
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
                 (unsigned long long)c.stacks_written, names.size());
    std::fprintf(stderr, "%s: stats: %s\n", tool,
                 LimitStatsText(inputs.limit_totals()).c_str());
  }
  return kExitOk;
}

}  // namespace flamefold
