#include "cli/flamefold_cli.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "base/options.h"
#include "cli/stack_limit_options.h"
#include "cli/usable_cores.h"
#include "collapse/stack_filter.h"
#include "symbols/frame_inliner.h"

namespace flamefold {

namespace {

// Without --jobs: one thread per core this process may use (UsableCores),
// at most 4.
// Past that the reading thread (which also parses) is the limit, and each
// thread's tables cost memory.
constexpr long long kDefaultMaxJobs = 4;

// How perf script text and perf.data are folded: the options every tool
// that folds takes (flamefold, flamereport, flamediff).
constexpr OptionSpec kFoldSpecs[] = {
    {"pid", OptType::kFlag, true, false, "", "process frame as comm-PID"},
    {"tid", OptType::kFlag, true, false, "",
     "process frame as comm-PID/TID"},
    {"kernel", OptType::kFlag, true, false, "",
     "mark kernel frames with _[k]"},
    {"jit", OptType::kFlag, true, false, "",
     "mark JIT frames (/tmp/perf-PID.map) with _[j]"},
    {"all", OptType::kFlag, true, false, "", "all annotations (--kernel --jit)"},
    {"addrs", OptType::kFlag, true, false, "",
     "show addresses of unknown symbols: [mod <addr>]"},
    {"event-filter", OptType::kString, true, false, "EVENT",
     "fold only samples of EVENT (default: the first event seen)"},
    {"srcline", OptType::kFlag, true, false, "",
     "add source lines to frames (perf script -F+srcline text, perf.data)"},
    {"inline", OptType::kFlag, true, false, "",
     "un-inline user frames as addr2line -i sees them"},
    {"context", OptType::kFlag, true, false, "",
     "with --inline: add :file:line to each function"},
    {"modern", OptType::kFlag, false, false, "",
     "fix the Perl script's data loss (see DIFFERENCES in the man page)"},
    {"symfs", OptType::kString, false, false, "DIR",
     "look binaries up under DIR, as perf --symfs (perf.data, --inline)"},
    {"archive", OptType::kString, false, false, "FILE",
     "perf.data input: symbols from FILE, a perf archive (default: "
     "DATA.tar.bz2 beside DATA)"},
    {"kallsyms", OptType::kString, false, false, "FILE",
     "perf.data input: kernel symbols from FILE (default /proc/kallsyms)"},
    {"buildid-dir", OptType::kString, false, false, "DIR",
     "perf.data input: the build-id cache, as perf --buildid-dir "
     "(default SYMFS/.debug with --symfs, else $HOME/.debug)"},
};

// Which stacks are kept (flamefold, flamereport).
constexpr OptionSpec kFilterSpecs[] = {
    {"include", OptType::kString, false, true, "REGEX",
     "keep only stacks matching REGEX (RE2; repeatable)"},
    {"exclude", OptType::kString, false, true, "REGEX",
     "drop stacks matching REGEX (RE2; repeatable)"},
};

// flamefold's own options, after kFoldSpecs and kFilterSpecs.
constexpr OptionSpec kOwnSpecs[] = {
    {"output|o", OptType::kString, false, false, "FILE",
     "write to FILE instead of standard output"},
    kJobsOption,
    {"stats", OptType::kFlag, false, false, "",
     "print counts of lines, samples and stacks on stderr"},
    {"max-line-length", OptType::kInt, false, false, "BYTES",
     "skip (and count) longer lines (default 16777216)"},
    kMaxStackDepthOption,
    kMaxFrameLengthOption,
    {"quiet|q", OptType::kFlag, false, false, "", "print no warnings"},
    {"help|h", OptType::kFlag, false, false, "", "print this help and exit"},
    {"version|V", OptType::kFlag, false, false, "",
     "print the version and exit"},
};

bool ParsePositive(const std::string& s, long long min, long long* out) {
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || v < min) return false;
  *out = v;
  return true;
}

}  // namespace

std::span<const OptionSpec> FoldOptionSpecs() { return kFoldSpecs; }

std::span<const OptionSpec> FoldFilterOptionSpecs() { return kFilterSpecs; }

std::span<const OptionSpec> FlamefoldOptionSpecs() {
  static const std::vector<OptionSpec> all =
      JoinOptionSpecs({kFoldSpecs, kFilterSpecs, kOwnSpecs});
  return all;
}

bool ParseJobsOption(const ParsedOptions& opts, FoldConfig* config,
                     std::string* err) {
  const long long cores = UsableCores();
  long long v = std::min(cores, kDefaultMaxJobs);
  if (opts.Has("jobs") && !ParsePositive(opts.Get("jobs"), 0, &v)) {
    *err = "--jobs takes a number of threads, 0 or more";
    return false;
  }
  config->jobs = static_cast<int>(v == 0 ? cores : std::min(v, 256LL));
  return true;
}

bool ParseFilterOptions(const ParsedOptions& opts, FoldConfig* config,
                        std::string* err) {
  config->include = opts.All("include");
  config->exclude = opts.All("exclude");
  StackFilter filter;
  return filter.Init(config->include, config->exclude, err);
}

void ApplyFoldOptions(const ParsedOptions& opts, FoldConfig* config) {
  PerfScriptOptions& p = config->perf;
  p.include_pid = opts.Has("pid");
  p.include_tid = opts.Has("tid");
  p.annotate_kernel = opts.Has("kernel") || opts.Has("all");
  p.annotate_jit = opts.Has("jit") || opts.Has("all");
  p.include_addrs = opts.Has("addrs");
  p.srcline = opts.Has("srcline");
  p.event_filter = opts.Get("event-filter");
  p.modern = opts.Has("modern");
  config->symbols.symfs = opts.Get("symfs");
  config->symbols.kallsyms = opts.Get("kallsyms");
  config->symbols.debug_dir = opts.Get("buildid-dir");
  config->archive = opts.Get("archive");
  if (opts.Has("inline")) {  // --context alone does nothing, as in Perl
    config->inliner = std::make_shared<FrameInliner>(config->symbols.symfs,
                                                     opts.Has("context"));
    p.inliner = config->inliner.get();
  }
}

std::string FoldHelp() {
  return "Usage: flamefold [OPTIONS] [FILE...]\n"
         "Folds perf script output or perf.data (plain, gzip or zstd; or\n"
         "folded stacks) into one line per distinct stack, as\n"
         "stackcollapse-perf.pl does.\n"
         "Reads standard input when no FILE is given or FILE is -.\n\n"
         "Options (stackcollapse-perf.pl's, then flamefold's own):\n" +
         FormatOptionHelp(FlamefoldOptionSpecs()) +
         "\nExample: perf script | flamefold | flamesvg > cpu.svg\n"
         "Exit status: 0 ok, 1 data or I/O error, 2 usage error.\n";
}

ArgsResult ParseFoldArgs(int argc, char** argv, FoldConfig* config,
                         std::string* err) {
  ParsedOptions opts;
  if (!ParseOptions(FlamefoldOptionSpecs(), argc, argv, &opts, err)) {
    return ArgsResult::kUsageError;
  }
  if (opts.Has("help")) return ArgsResult::kHelp;
  if (opts.Has("version")) return ArgsResult::kVersion;
  ApplyFoldOptions(opts, config);
  PerfScriptOptions& p = config->perf;
  config->output = opts.Get("output");
  config->stats = opts.Has("stats");
  config->quiet = opts.Has("quiet");
  if (!ParseJobsOption(opts, config, err)) return ArgsResult::kUsageError;
  long long v = 0;
  if (opts.Has("max-line-length")) {
    if (!ParsePositive(opts.Get("max-line-length"), 1, &v)) {
      *err = "--max-line-length takes a number of bytes, 1 or more";
      return ArgsResult::kUsageError;
    }
    config->max_line = static_cast<size_t>(v);
  }
  if (!ParseStackLimits(opts, &p.limits, err) ||
      !ParseFilterOptions(opts, config, err)) {
    return ArgsResult::kUsageError;
  }
  config->inputs = opts.operands();
  return ArgsResult::kRun;
}

}  // namespace flamefold
