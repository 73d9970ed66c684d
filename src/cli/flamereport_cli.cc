#include "cli/flamereport_cli.h"

#include <cstdlib>
#include <vector>

#include "base/options.h"
#include "cli/flamefold_cli.h"
#include "cli/stack_limit_options.h"

namespace flamefold {
namespace {

constexpr OptionSpec kSpecs[] = {
    {"top|n", OptType::kInt, false, false, "N",
     "functions in each table (default 10; 0: all)"},
    {"format|f", OptType::kString, false, false, "FORMAT",
     "text (default), csv or json"},
    {"depth", OptType::kInt, false, false, "N",
     "levels of callers and callees of each function (default 2; 0: none)"},
    {"width", OptType::kInt, false, false, "N",
     "callers and callees shown at each level (default 3)"},
    kMaxStackDepthOption,
    kMaxLineLengthOption,
    kMaxFrameLengthOption,
    kJobsOption,
    {"output|o", OptType::kString, false, false, "FILE",
     "write to FILE instead of standard output"},
    {"quiet|q", OptType::kFlag, false, false, "", "print no warnings"},
    {"help|h", OptType::kFlag, false, false, "", "print this help and exit"},
    {"version|V", OptType::kFlag, false, false, "",
     "print the version and exit"},
};

bool ParseCount(const std::string& s, long long* out) {
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v < 0) return false;
  *out = v;
  return true;
}

std::vector<OptionSpec> AllSpecs() {
  return JoinOptionSpecs({kSpecs, FoldOptionSpecs(), FoldFilterOptionSpecs()});
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
         FormatOptionHelp(AllSpecs()) +
         "\nCSV columns: rank,function,self_samples,self_pct,total_samples,"
         "total_pct,\ncallers,callees (ranked by self samples; _period for "
         "_samples on\nperf input with periods).\n"
         "Example: perf script | flamereport --top 20\n"
         "Exit status: 0 ok, 1 data or I/O error, 2 usage error.\n";
}

ReportArgs ParseReportArgs(int argc, char** argv, ReportConfig* config,
                           std::string* err) {
  ParsedOptions opts;
  if (!ParseOptions(AllSpecs(), argc, argv, &opts, err)) {
    return ReportArgs::kUsageError;
  }
  if (opts.Has("help")) return ReportArgs::kHelp;
  if (opts.Has("version")) return ReportArgs::kVersion;
  long long v = 0;
  if (opts.Has("top")) {
    if (!ParseCount(opts.Get("top"), &v)) {
      *err = "--top takes a number of functions, 0 (all) or more";
      return ReportArgs::kUsageError;
    }
    config->top = static_cast<size_t>(v);
  }
  if (opts.Has("depth")) {
    if (!ParseCount(opts.Get("depth"), &v) || v > 100) {
      *err = "--depth takes a number of levels from 0 to 100";
      return ReportArgs::kUsageError;
    }
    config->tree_depth = static_cast<int>(v);
  }
  if (opts.Has("width")) {
    if (!ParseCount(opts.Get("width"), &v) || v < 1) {
      *err = "--width takes a number of callees, 1 or more";
      return ReportArgs::kUsageError;
    }
    config->tree_width = static_cast<size_t>(v);
  }
  std::string format = opts.Get("format", "text");
  if (format == "text") {
    config->format = ReportFormat::kText;
  } else if (format == "csv") {
    config->format = ReportFormat::kCsv;
  } else if (format == "json") {
    config->format = ReportFormat::kJson;
  } else {
    *err = "--format is text, csv or json, not '" + format + "'";
    return ReportArgs::kUsageError;
  }
  FoldConfig& fold = config->fold;
  if (!ParseStackLimits(opts, &fold.perf.limits, err) ||
      !ParseJobsOption(opts, &fold, err) ||
      !ParseFilterOptions(opts, &fold, err)) {
    return ReportArgs::kUsageError;
  }
  fold.max_line = fold.perf.limits.LineLimit(fold.max_line);
  ApplyFoldOptions(opts, &fold);
  config->output = opts.Get("output");
  config->quiet = opts.Has("quiet");
  fold.quiet = config->quiet;
  config->inputs = opts.operands();
  return ReportArgs::kRun;
}

}  // namespace flamefold
