#include "flamegraph/flamescope.h"

#include <string>

#include "collapse/fold_inputs.h"
#include "collapse/fold_warnings.h"
#include "collapse/stack_filter.h"
#include "collapse/stack_transform.h"

namespace flamefold {

int RunFlameScope(const FlameScopeConfig& config, RecordingFolder* recordings,
                  OutputSink* out, const Diag& diag) {
  const FoldConfig& fold = config.fold;
  StackFilter filter;
  StackTransform transform;
  if (std::optional<int> exit =
          SelectStacks(fold, &filter, &transform, diag)) {
    return *exit;
  }
  std::string err;
  StringInterner names;
  ScopeSamples samples;
  FoldInputs inputs(fold, &names, /*trie=*/nullptr, recordings);
  inputs.set_timed_sink(&samples);
  if (!inputs.FoldAll(fold.inputs, &err)) {
    diag.Error(err);
    return kExitDataError;
  }
  samples.Flush();
  // Each stack as flamefold writes it: kept by --include/--exclude, as the
  // transforms make it.
  auto rewrite = [&](std::string_view line, std::string* drawn) {
    return ShapeStackLine(filter, transform, line, drawn);
  };
  ScopeData data;
  if (!BuildScopeData(samples, names, config.rows, rewrite, &data, &err)) {
    diag.Error(err);
    return kExitDataError;
  }
  if (config.per_second) {
    out->Write(PerSecondTable(data));
  } else {
    WriteScopePage(data, config.page, out);
  }
  if (std::optional<int> exit = FlushFailed(out, diag)) return *exit;
  WarnAboutFold(fold, inputs, diag);
  return kExitOk;
}

}  // namespace flamefold
