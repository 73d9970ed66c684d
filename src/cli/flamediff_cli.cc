#include "cli/flamediff_cli.h"

#include <cstdlib>
#include <vector>

#include "cli/flamefold_cli.h"
#include "cli/stack_limit_options.h"

namespace flamefold {
namespace {

// difffolded.pl's letters (Getopt::Std: bundled, "-ns").
po::options_description PerlOptions() {
  po::options_description options;
  options.add_options()
      (",n", SwitchValue(), "scale the BEFORE counts to the AFTER total")
      (",s", SwitchValue(), "replace hex addresses 0x1a2b with 0x...");
  return options;
}

// flamediff's own, after "--" (or -h, -V).
po::options_description OwnOptions() {
  po::options_description options;
  options.add_options()
      ("help,h", SwitchValue(), "print this help and exit")
      ("report", SwitchValue(),
       "list the functions whose share changed most, regressions first")
      ("threshold", TextValue("P"),
       "exit 3 when a function's share grew by more than P points")
      ("top", TextValue("N"), "rows of --report (default 20; 0: all)");
  return options;
}

po::options_description LastOptions() {
  po::options_description options;
  options.add_options()
      ("quiet,q", SwitchValue(), "print no warnings")
      ("version,V", SwitchValue(), "print the version and exit");
  return options;
}

OptionTable DiffOptions() {
  OptionTable table;
  table.AddPerl(PerlOptions())
      .Add(OwnOptions())
      .Add(StackLimitOptions({StackLimitOption::kMaxStackDepth,
                              StackLimitOption::kMaxFrameLength,
                              StackLimitOption::kMaxLineLength}))
      .Add(JobsOption(false))  // without -j: letters are difffolded.pl's
      .Add(LastOptions());
  AddFoldOptions(&table);
  table.Add(ConfigFileOptions());
  return table;
}

// --threshold P and --top N, checked.
bool ParseReportOptions(const ParsedOptions& opts, DiffConfig* config,
                        std::string* err) {
  if (opts.Has("threshold")) {
    std::string value = opts.Text("threshold");
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
    std::string value = opts.Text("top");
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
         FormatOptionHelp(DiffOptions().all()) +
         "Letters bundle (-ns); long options take two dashes; options may\n"
         "come before or after the files (-- ends them).\n\n"
         "Example: flamediff before.folded after.folded | flamesvg > diff.svg\n"
         "Exit status: 0 ok, 1 data or I/O error, 2 usage error,\n"
         "3 --threshold exceeded.\n";
}

ArgsResult ParseDiffArgs(int argc, char** argv, DiffConfig* config,
                         std::string* err) {
  ParsedOptions opts;
  ArgsResult result = ParseToolArgs("flamediff", DiffOptions(),
                                    Syntax::kGetoptStd, argc, argv, &opts, err);
  if (result != ArgsResult::kRun) return result;
  config->normalize = opts.Flag("-n");
  config->strip_hex = opts.Flag("-s");
  config->report = opts.Flag("report");
  config->quiet = opts.Flag("quiet");
  if (!ParseReportOptions(opts, config, err) ||
      !ParseStackLimits(opts, &config->fold.perf.limits, err) ||
      !ParseJobsOption(opts, &config->fold, err)) {
    return ArgsResult::kUsageError;
  }
  if (!ApplyFoldOptions(opts, &config->fold, err)) {
    return ArgsResult::kUsageError;
  }
  config->fold.max_line =
      config->fold.perf.limits.LineLimit(config->fold.max_line);
  config->fold.quiet = config->quiet;
  const std::vector<std::string>& files = opts.operands();
  if (files.size() != 2) {
    *err = "expected two files, BEFORE and AFTER, got " +
           std::to_string(files.size());
    return ArgsResult::kUsageError;
  }
  config->before = files[0];
  config->after = files[1];
  return ArgsResult::kRun;
}

}  // namespace flamefold
