#include "cli/flamereport_cli.h"

#include <cstdlib>
#include <vector>

#include "cli/flamefold_cli.h"
#include "cli/stack_limit_options.h"

namespace flamefold {
namespace {

po::options_description OwnOptions() {
  po::options_description options;
  options.add_options()
      ("top,n", IntValue("N"), "functions in each table (default 10; 0: all)")
      ("format,f", TextValue("FORMAT"), "text (default), csv or json")
      ("depth", IntValue("N"),
       "levels of callers and callees of each function (default 2; 0: none)")
      ("width", IntValue("N"),
       "callers and callees shown at each level (default 3)");
  return options;
}

OptionTable ReportOptions() {
  OptionTable table;
  table.Add(OwnOptions())
      .Add(StackLimitOptions({StackLimitOption::kMaxStackDepth,
                              StackLimitOption::kMaxLineLength,
                              StackLimitOption::kMaxFrameLength}))
      .Add(JobsOption(true))
      .Add(OutputAndHelpOptions());
  AddFoldOptions(&table);
  table.Add(FoldFilterOptions()).Add(ConfigFileOptions());
  return table;
}

// --top, --depth and --width, checked.
bool ParseTableOptions(const ParsedOptions& opts, ReportConfig* config,
                       std::string* err) {
  long long top = opts.Int("top", static_cast<long long>(config->top));
  long long depth = opts.Int("depth", config->tree_depth);
  long long width =
      opts.Int("width", static_cast<long long>(config->tree_width));
  if (top < 0) {
    *err = "--top takes a number of functions, 0 (all) or more";
    return false;
  }
  if (depth < 0 || depth > 100) {
    *err = "--depth takes a number of levels from 0 to 100";
    return false;
  }
  if (width < 1) {
    *err = "--width takes a number of callees, 1 or more";
    return false;
  }
  config->top = static_cast<size_t>(top);
  config->tree_depth = static_cast<int>(depth);
  config->tree_width = static_cast<size_t>(width);
  return true;
}

}  // namespace

std::string ReportHelp() {
  return "Usage: flamereport [OPTIONS] [FILE...]\n"
         "Reports where a profile spends its samples: the functions with the\n"
         "most self samples (running in them), each with its heaviest\n"
         "callers and callees, and the functions with the most total samples\n"
         "(running in them or in what they call; a recursive stack counts\n"
         "once). On perf input the counts are sums of sample periods, and a\n"
         "perf.data report opens with the recording's facts.\n"
         "FILE is perf script output, perf.data or folded stacks, plain,\n"
         "gzip or zstd, as flamefold reads them; standard input when no FILE\n"
         "is given or FILE is -. The first frame of each stack is the\n"
         "process.\n\n"
         "Options (flamereport's, then flamefold's for folding the input):\n" +
         FormatOptionHelp(ReportOptions().all()) +
         "\nCSV columns: rank,function,self_samples,self_pct,total_samples,"
         "total_pct,\ncallers,callees (ranked by self samples; _period for "
         "_samples on\nperf input with periods, or the unit: _ns for "
         "cpu-clock, _bytes, _us...).\n"
         "Example: perf script | flamereport --top 20\n"
         "Exit status: 0 ok, 1 data or I/O error, 2 usage error.\n";
}

ArgsResult ParseReportArgs(int argc, char** argv, ReportConfig* config,
                           std::string* err) {
  ParsedOptions opts;
  ArgsResult result =
      ParseToolArgs("flamereport", ReportOptions(), Syntax::kGetoptLong, argc,
                    argv, &opts, err);
  if (result != ArgsResult::kRun) return result;
  if (!ParseTableOptions(opts, config, err)) return ArgsResult::kUsageError;
  std::string format = opts.Text("format", "text");
  if (format == "text") {
    config->format = ReportFormat::kText;
  } else if (format == "csv") {
    config->format = ReportFormat::kCsv;
  } else if (format == "json") {
    config->format = ReportFormat::kJson;
  } else {
    *err = "--format is text, csv or json, not '" + format + "'";
    return ArgsResult::kUsageError;
  }
  FoldConfig& fold = config->fold;
  if (!ParseStackLimits(opts, &fold.perf.limits, err) ||
      !ParseJobsOption(opts, &fold, err) ||
      !ParseFilterOptions(opts, &fold, err)) {
    return ArgsResult::kUsageError;
  }
  fold.max_line = fold.perf.limits.LineLimit(fold.max_line);
  if (!ApplyFoldOptions(opts, &fold, err)) return ArgsResult::kUsageError;
  config->output = opts.Text("output");
  config->quiet = opts.Flag("quiet");
  fold.quiet = config->quiet;
  config->inputs = opts.operands();
  return ArgsResult::kRun;
}

}  // namespace flamefold
