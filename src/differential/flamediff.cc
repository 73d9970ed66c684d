#include "differential/flamediff.h"

#include <cstdio>
#include <vector>

#include "base/arena.h"
#include "collapse/folded.h"
#include "collapse/stack_trie.h"
#include "differential/diff_input.h"
#include "differential/diff_report.h"
#include "differential/diff_table.h"
#include "report/report_stats.h"

namespace flamefold {

namespace {

// One side of the table as a profile, for --report and --threshold.
void SideTrie(const DiffTable& table, int side, StringInterner* names,
              StackTrie* trie) {
  std::vector<SymbolId> frames;
  table.Visit([&](std::string_view stack, const PerlNumber* counts) {
    if (counts[side].IsZero()) return;
    frames.clear();
    InternFrames(stack, names, &frames);
    trie->Add(frames, counts[side]);
  });
}

int CheckThreshold(const DiffConfig& config,
                   const std::vector<FunctionChange>& changes,
                   const Diag& diag) {
  std::vector<FunctionChange> bad = Regressions(changes, config.threshold);
  constexpr size_t kShown = 10;  // the largest ones; the count says the rest
  for (size_t i = 0; i < bad.size() && i < kShown; ++i) {
    const FunctionChange& c = bad[i];
    bool self = c.self_delta() >= c.total_delta();  // the larger growth
    double points = self ? c.self_delta() : c.total_delta();
    std::string msg = "regression: " + Printable(c.name) + ": " +
                      (self ? "self" : "total") + " share grew by ";
    char buf[128];
    std::snprintf(buf, sizeof buf, "%.2f points (%.2f%% -> %.2f%%)", points,
                  self ? c.self_before : c.total_before,
                  self ? c.self_after : c.total_after);
    diag.Error(msg + buf);
  }
  if (bad.empty()) return kExitOk;
  char buf[128];
  std::snprintf(buf, sizeof buf, " grew by more than the threshold of %g "
                "percentage points", config.threshold);
  diag.Error(std::to_string(bad.size()) + " function(s) had a share that" +
             buf);
  return kExitRegression;
}

}  // namespace

int RunDiff(const DiffConfig& config, OutputSink* out, const Diag& diag) {
  DiffTable table;
  DiffSideStats stats[2];
  const std::string* files[2] = {&config.before, &config.after};
  if (config.before == "-" && config.after == "-") {
    diag.Error("only one of BEFORE and AFTER can be standard input (-)");
    return kExitUsage;
  }
  for (int side = 0; side < 2; ++side) {
    std::string err;
    if (!ReadDiffSide(*files[side], side, config.strip_hex, config.fold,
                      diag, &table, &stats[side], &err)) {
      diag.Error(err);
      return kExitDataError;
    }
  }
  std::vector<FunctionChange> changes;
  if (config.report || config.has_threshold) {
    StringInterner names[2];
    StackTrie before(&names[0]), after(&names[1]);
    SideTrie(table, 0, &names[0], &before);
    SideTrie(table, 1, &names[1], &after);
    ProfileSummary sb(before), sa(after);
    changes = CompareProfiles(sb, sa);
    if (config.report) WriteDiffReport(sb, sa, changes, config.top, out);
  }
  if (!config.report && !table.Write(config.normalize, out)) {
    diag.Error("-n: cannot scale to the totals: " + config.before +
               " has no samples (difffolded.pl dies dividing by zero)");
    return kExitDataError;
  }
  if (std::optional<int> exit = FlushFailed(out, diag)) return *exit;
  for (int side = 0; side < 2; ++side) {
    WarnAboutDiffSide(*files[side], stats[side], config.fold, diag);
  }
  if (config.has_threshold) return CheckThreshold(config, changes, diag);
  return kExitOk;
}

}  // namespace flamefold
