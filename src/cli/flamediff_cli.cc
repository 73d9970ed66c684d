#include "cli/flamediff_cli.h"

#include <cstdlib>
#include <functional>
#include <vector>

#include "base/arena.h"
#include "differential/diff_table.h"
#include "differential/diff_input.h"
#include "differential/diff_report.h"
#include "cli/flamefold_cli.h"
#include "collapse/folded.h"
#include "base/options.h"
#include "report/report_stats.h"
#include "collapse/stack_trie.h"

namespace flamefold {
namespace {

// difffolded.pl's letters (Getopt::Std: bundled, "-ns").
constexpr OptionSpec kPerlSpecs[] = {
    {"n", OptType::kFlag, true, false, "",
     "scale the BEFORE counts to the AFTER total"},
    {"s", OptType::kFlag, true, false, "",
     "replace hex addresses 0x1a2b with 0x..."},
};

// flamediff's own, after "--" (or -h, -V).
constexpr OptionSpec kOwnSpecs[] = {
    {"help|h", OptType::kFlag, false, false, "", "print this help and exit"},
    {"report", OptType::kFlag, false, false, "",
     "list the functions whose share changed most, regressions first"},
    {"threshold", OptType::kString, false, false, "P",
     "exit 3 when a function's share grew by more than P points"},
    {"top", OptType::kString, false, false, "N",
     "rows of --report (default 20; 0: all)"},
    kMaxStackDepthOption,
    kMaxFrameLengthOption,
    kMaxLineLengthOption,
    {"quiet|q", OptType::kFlag, false, false, "", "print no warnings"},
    {"version|V", OptType::kFlag, false, false, "",
     "print the version and exit"},
};

std::vector<OptionSpec> AllSpecs() {
  return JoinOptionSpecs({kPerlSpecs, kOwnSpecs, FoldOptionSpecs()});
}

// --threshold P and --top N, checked.
bool ParseReportOptions(const ParsedOptions& opts, DiffConfig* config,
                        std::string* err) {
  if (opts.Has("threshold")) {
    std::string value = opts.Get("threshold");
    char* end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(v >= 0) || v > 100) {
      *err = "--threshold takes percentage points from 0 to 100, not '" +
             value + "'";
      return false;
    }
    config->has_threshold = true;
    config->threshold = v;
  }
  if (opts.Has("top")) {
    std::string value = opts.Get("top");
    char* end = nullptr;
    long long v = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || v < 0) {
      *err = "--top takes a number of rows, 0 (all) or more, not '" + value +
             "'";
      return false;
    }
    config->top = static_cast<size_t>(v);
  }
  return true;
}

}  // namespace

std::string DiffHelp() {
  return "Usage: flamediff [-hns] [OPTIONS] BEFORE AFTER\n"
         "Pairs the stacks of two profiles as difffolded.pl does: one line\n"
         "'STACK COUNT_BEFORE COUNT_AFTER' per stack of either profile, 0\n"
         "where a profile lacks it, sorted by stack. Pipe it to flamesvg\n"
         "(or flamegraph.pl) for a differential flame graph.\n"
         "BEFORE and AFTER are folded stacks, perf script output or\n"
         "perf.data, plain, gzip or zstd; - is standard input.\n\n"
         "Options (difffolded.pl's, then flamediff's own, then flamefold's\n"
         "for folding perf script output and perf.data):\n" +
         FormatOptionHelp(AllSpecs()) +
         "Letters bundle (-ns); long options take two dashes; options may\n"
         "come before or after the files (-- ends them).\n\n"
         "Example: flamediff before.folded after.folded | flamesvg > diff.svg\n"
         "Exit status: 0 ok, 1 data or I/O error, 2 usage error,\n"
         "3 --threshold exceeded.\n";
}

DiffArgs ParseDiffArgs(int argc, char** argv, DiffConfig* config,
                       std::string* err) {
  ParsedOptions opts;
  if (!ParseOptionsBundling(AllSpecs(), argc, argv, &opts, err)) {
    return DiffArgs::kUsageError;
  }
  if (opts.Has("help")) return DiffArgs::kHelp;
  if (opts.Has("version")) return DiffArgs::kVersion;
  config->normalize = opts.Has("n");
  config->strip_hex = opts.Has("s");
  config->report = opts.Has("report");
  config->quiet = opts.Has("quiet");
  if (!ParseReportOptions(opts, config, err) ||
      !ParseStackLimits(opts, &config->limits, err)) {
    return DiffArgs::kUsageError;
  }
  ApplyFoldOptions(opts, &config->fold);
  config->fold.perf.limits = config->limits;
  config->fold.max_line = config->limits.LineLimit(config->fold.max_line);
  const std::vector<std::string>& files = opts.operands();
  if (files.size() != 2) {
    *err = "expected two files, BEFORE and AFTER, got " +
           std::to_string(files.size());
    return DiffArgs::kUsageError;
  }
  config->before = files[0];
  config->after = files[1];
  return DiffArgs::kRun;
}

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
  if (!out->Flush()) {
    if (out->broken_pipe()) return kExitOk;
    diag.Error("write error: " + out->error());
    return kExitDataError;
  }
  for (int side = 0; side < 2; ++side) {
    WarnAboutDiffSide(*files[side], stats[side], config.fold, diag);
  }
  if (config.has_threshold) return CheckThreshold(config, changes, diag);
  return kExitOk;
}

}  // namespace flamefold
