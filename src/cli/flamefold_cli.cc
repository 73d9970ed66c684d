#include "cli/flamefold_cli.h"

#include <algorithm>
#include <memory>

#include "cli/stack_limit_options.h"
#include "cli/usable_cores.h"
#include "collapse/stack_filter.h"
#include "collapse/off_cpu_waits.h"
#include "collapse/stack_transform.h"
#include "collapse/stack_writer.h"
#include "report/d3_tree.h"
#include "report/pprof.h"
#include "report/speedscope.h"
#include "symbols/frame_inliner.h"

namespace flamefold {

namespace {

// Without --jobs: one thread per core this process may use (UsableCores),
// at most 4.
// Past that the reading thread (which also parses) is the limit, and each
// thread's tables cost memory.
constexpr long long kDefaultMaxJobs = 4;

// stackcollapse-perf.pl's options.
po::options_description FoldPerlOptions() {
  po::options_description options;
  options.add_options()
      ("pid", SwitchValue(), "process frame as comm-PID")
      ("tid", SwitchValue(), "process frame as comm-PID/TID")
      ("kernel", SwitchValue(), "mark kernel frames with _[k]")
      ("jit", SwitchValue(), "mark JIT frames (/tmp/perf-PID.map) with _[j]")
      ("all", SwitchValue(), "all annotations (--kernel --jit)")
      ("addrs", SwitchValue(),
       "show addresses of unknown symbols: [mod <addr>]")
      ("event-filter", TextValue("EVENT"),
       "fold only samples of EVENT (default: the first event seen)")
      ("srcline", SwitchValue(),
       "add source lines to frames (perf script -F+srcline text, perf.data)")
      ("inline", SwitchValue(),
       "un-inline user frames as addr2line -i sees them")
      ("context", SwitchValue(),
       "with --inline: add :file:line to each function");
  return options;
}

// Ours, on how perf script text and perf.data are folded.
po::options_description FoldOwnOptions() {
  po::options_description options;
  options.add_options()
      ("modern", SwitchValue(),
       "fix the Perl script's data loss (see DIFFERENCES in the man page)")
      ("weight", TextValue("FIELD"),
       "count each tracepoint sample as the value of its FIELD "
       "(bytes_alloc, len...) instead of its period")
      ("symfs", TextValue("DIR"),
       "look binaries up under DIR, as perf --symfs (perf.data, --inline)")
      ("archive", TextValue("FILE"),
       "perf.data input: symbols from FILE, a perf archive (default: "
       "DATA.tar.bz2 beside DATA)")
      ("kallsyms", TextValue("FILE"),
       "perf.data input: kernel symbols from FILE (default /proc/kallsyms)")
      ("buildid-dir", TextValue("DIR"),
       "perf.data input: the build-id cache, as perf --buildid-dir "
       "(default SYMFS/.debug with --symfs, else $HOME/.debug)")
      ("time-range", TextValue("RANGES"),
       "fold only the samples in RANGES, as perf script --time: START,END "
       "in seconds (either side empty; several separated by spaces), "
       "+START,+END after the first sample, or percent slices of a "
       "perf.data (10%/2, 0%-10%,30%-40%)")
      ("off-cpu", SwitchValue(),
       "fold off-CPU time: each thread's time from a sched:sched_switch "
       "switching it out to running again, on the stack it left with")
      ("off-cpu-unit", TextValue("UNIT"),
       "--off-cpu counts in ns, us (default) or ms")
      ("off-cpu-state", TextValue("STATES"),
       "--off-cpu keeps only waits whose prev_state is one of STATES, "
       "comma-separated (S,D: sleeps; R: preempted)")
      ("off-cpu-min-us", IntValue("N"),
       "--off-cpu drops waits shorter than N microseconds")
      ("on-off", SwitchValue(),
       "--off-cpu's waits, their frames marked _[o], beside the CPU "
       "samples of cpu-clock or task-clock by their periods, both in "
       "--off-cpu-unit");
  return options;
}

OptionTable FlamefoldOptions() {
  po::options_description own;
  own.add_options()
      ("output,o", TextValue("FILE"),
       "write to FILE instead of standard output")
      ("format", TextValue("FORMAT"),
       "write folded stacks (default), speedscope (JSON), d3 "
       "(d3-flame-graph's JSON tree) or pprof (gzipped profile.proto)");
  po::options_description stats;
  stats.add_options()
      ("stats", SwitchValue(),
       "print counts of lines, samples and stacks on stderr");
  po::options_description last;
  last.add_options()
      ("quiet,q", SwitchValue(), "print no warnings")
      ("help,h", SwitchValue(), "print this help and exit")
      ("version,V", SwitchValue(), "print the version and exit");
  OptionTable table;
  AddFoldOptions(&table);
  table.Add(FoldFilterOptions())
      .Add(own)
      .Add(JobsOption(true))
      .Add(stats)
      .Add(FoldLineLengthOption())
      .Add(StackLimitOptions({StackLimitOption::kMaxStackDepth,
                              StackLimitOption::kMaxFrameLength}))
      .Add(last)
      .Add(ConfigFileOptions());
  return table;
}

}  // namespace

void AddFoldOptions(OptionTable* table) {
  table->AddPerl(FoldPerlOptions()).Add(FoldOwnOptions());
}

po::options_description FoldFilterOptions() {
  po::options_description options;
  options.add_options()
      ("include", ListValue("REGEX"),
       "keep only stacks matching REGEX (RE2; repeatable)")
      ("exclude", ListValue("REGEX"),
       "drop stacks matching REGEX (RE2; repeatable)")
      ("focus", ListValue("REGEX"),
       "keep only stacks with a frame matching REGEX")
      ("ignore", ListValue("REGEX"), "drop stacks with a frame matching REGEX")
      ("hide", ListValue("REGEX"), "remove the frames matching REGEX")
      ("show-from", ListValue("REGEX"),
       "start stacks at their frame nearest the root matching REGEX; drop "
       "stacks without one")
      ("skip-after", ListValue("NAME"),
       "start stacks at their frame named NAME nearest the leaf")
      ("prune-from", ListValue("REGEX"),
       "end stacks at their frame nearest the leaf matching REGEX")
      ("collapse-recursion", SwitchValue(),
       "merge directly repeated frames (a;a;b -> a;b)")
      ("generalize-names", SwitchValue(),
       "fold numbers in process names (ksoftirqd/3 -> ksoftirqd/*)");
  return options;
}

po::options_description FoldLineLengthOption() {
  po::options_description options;
  options.add_options()
      ("max-line-length", IntValue("BYTES"),
       "skip (and count) longer lines (default 16777216)");
  return options;
}

po::options_description JobsOption(bool with_letter) {
  po::options_description options;
  options.add_options()
      (with_letter ? "jobs,j" : "jobs", IntValue("N"),
       "parse with N threads (0: one per usable core; default: one per "
       "usable core, at most 4)");
  return options;
}

bool ParseJobsOption(const ParsedOptions& opts, FoldConfig* config,
                     std::string* err) {
  const long long cores = UsableCores();
  long long v = opts.Int("jobs", std::min(cores, kDefaultMaxJobs));
  if (v < 0) {
    *err = "--jobs takes a number of threads, 0 or more";
    return false;
  }
  config->jobs = static_cast<int>(v == 0 ? cores : std::min(v, 256LL));
  return true;
}

bool ParseFoldLineLength(const ParsedOptions& opts, FoldConfig* config,
                         std::string* err) {
  if (!opts.Has("max-line-length")) return true;
  long long v = opts.Int("max-line-length");
  if (v < 1) {
    *err = "--max-line-length takes a number of bytes, 1 or more";
    return false;
  }
  config->max_line = static_cast<size_t>(v);
  return true;
}

bool ParseFilterOptions(const ParsedOptions& opts, FoldConfig* config,
                        std::string* err) {
  config->include = opts.List("include");
  config->exclude = opts.List("exclude");
  config->transforms.clear();
  for (const ParsedOptions::Given& g : opts.InOrder(TransformOptionNames())) {
    config->transforms.push_back({*TransformKindOf(g.name), g.value});
  }
  StackFilter filter;
  StackTransform transform;
  return InitStackSelection(*config, &filter, &transform, err);
}

namespace {

// The prev_state letters perf script prints for sched_switch.
constexpr std::string_view kTaskStates = "RSDTtXZPI";

// --off-cpu and its options into `o`; the options without --off-cpu, and
// --off-cpu with what it does not go with, are usage errors.
bool ApplyOffCpuOptions(const ParsedOptions& opts, const PerfScriptOptions& p,
                        OffCpuOptions* o, std::string* err) {
  o->on_off = opts.Flag("on-off");
  o->enabled = opts.Flag("off-cpu") || o->on_off;
  for (const char* name : {"off-cpu-unit", "off-cpu-state", "off-cpu-min-us"}) {
    if (opts.Has(name) && !o->enabled) {
      *err = std::string("--") + name + " goes with --off-cpu or --on-off";
      return false;
    }
  }
  if (!o->enabled) return true;
  if (!p.weight_field.empty()) {
    *err = "--off-cpu counts time, --weight a field's values: not both";
    return false;
  }
  if (p.srcline || p.inliner) {
    *err = "--off-cpu does not go with --srcline or --inline";
    return false;
  }
  const std::string unit = opts.Text("off-cpu-unit", "us");
  o->unit_ns = OffCpuUnitNs(unit);
  if (o->unit_ns == 0) {
    *err = "--off-cpu-unit is ns, us or ms, not '" + unit + "'";
    return false;
  }
  const std::string states = opts.Text("off-cpu-state");
  for (size_t at = 0; opts.Has("off-cpu-state") && at <= states.size();) {
    size_t comma = std::min(states.find(',', at), states.size());
    std::string state = states.substr(at, comma - at);
    if (state.size() != 1 || kTaskStates.find(state) == std::string::npos) {
      *err = "--off-cpu-state takes letters of " + std::string(kTaskStates) +
             " separated by commas (S,D), not '" + states + "'";
      return false;
    }
    o->states.push_back(state);
    at = comma + 1;
  }
  const long long min_us = opts.Int("off-cpu-min-us", 0);
  if (min_us < 0) {
    *err = "--off-cpu-min-us takes a number of microseconds, 0 or more";
    return false;
  }
  // More microseconds than 64 bits of ns hold: every wait is shorter.
  o->min_ns = static_cast<uint64_t>(min_us) > UINT64_MAX / 1000
                  ? UINT64_MAX
                  : static_cast<uint64_t>(min_us) * 1000;
  return true;
}

}  // namespace

bool ApplyFoldOptions(const ParsedOptions& opts, FoldConfig* config,
                      std::string* err) {
  PerfScriptOptions& p = config->perf;
  p.include_pid = opts.Flag("pid");
  p.include_tid = opts.Flag("tid");
  p.annotate_kernel = opts.Flag("kernel") || opts.Flag("all");
  p.annotate_jit = opts.Flag("jit") || opts.Flag("all");
  p.include_addrs = opts.Flag("addrs");
  p.srcline = opts.Flag("srcline");
  p.event_filter = opts.Text("event-filter");
  p.weight_field = opts.Text("weight");
  p.modern = opts.Flag("modern");
  config->symbols.symfs = opts.Text("symfs");
  config->symbols.kallsyms = opts.Text("kallsyms");
  config->symbols.debug_dir = opts.Text("buildid-dir");
  config->archive = opts.Text("archive");
  if (opts.Flag("inline")) {  // --context alone does nothing, as in Perl
    config->inliner = std::make_shared<FrameInliner>(config->symbols.symfs,
                                                     opts.Flag("context"));
    p.inliner = config->inliner.get();
  }
  if (opts.Has("time-range") &&
      !ParseTimeRange(opts.Text("time-range"), &p.time_range, err)) {
    *err = "--time-range '" + opts.Text("time-range") + "': " + *err;
    return false;
  }
  return ApplyOffCpuOptions(opts, p, &p.off_cpu, err);
}

std::string FoldHelp() {
  return "Usage: flamefold [OPTIONS] [FILE...]\n"
         "Folds perf script output or perf.data (plain, gzip or zstd; or\n"
         "folded stacks) into one line per distinct stack, as\n"
         "stackcollapse-perf.pl does.\n"
         "Reads standard input when no FILE is given or FILE is -.\n\n"
         "Options (stackcollapse-perf.pl's, then flamefold's own):\n" +
         FormatOptionHelp(FlamefoldOptions().all()) +
         "\nExamples: perf script | flamefold | flamesvg > cpu.svg\n"
         "          flamefold --format=speedscope -o cpu.speedscope.json perf.data\n"
         "Exit status: 0 ok, 1 data or I/O error, 2 usage error.\n";
}

namespace {

// The name speedscope shows for the profile: the inputs' names.
std::string ProfileName(const std::vector<std::string>& inputs) {
  if (inputs.empty()) return "-";
  std::string name;
  for (const std::string& input : inputs) {
    if (!name.empty()) name += ", ";
    name += input;
  }
  return name;
}

// Sets config->make_writer from --format. False with `*err` for a format
// that is none of them.
bool ParseFormatOption(const ParsedOptions& opts, FoldConfig* config,
                       std::string* err) {
  const std::string format = opts.Text("format", "folded");
  if (format == "folded") {
    config->make_writer = MakeFoldedWriter;
  } else if (format == "speedscope") {
    config->make_writer = [name = ProfileName(config->inputs)](
                              OutputSink* out) {
      return MakeSpeedscopeWriter(out, name);
    };
  } else if (format == "d3") {
    config->make_writer = MakeD3Writer;
  } else if (format == "pprof") {
    config->make_writer = MakePprofWriter;
  } else {
    *err = "--format is folded, speedscope, d3 or pprof, not '" + format + "'";
    return false;
  }
  return true;
}

}  // namespace

ArgsResult ParseFoldArgs(int argc, char** argv, FoldConfig* config,
                         std::string* err) {
  ParsedOptions opts;
  ArgsResult result =
      ParseToolArgs("flamefold", FlamefoldOptions(), Syntax::kGetoptLong, argc,
                    argv, &opts, err);
  if (result != ArgsResult::kRun) return result;
  if (!ApplyFoldOptions(opts, config, err)) return ArgsResult::kUsageError;
  config->output = opts.Text("output");
  config->stats = opts.Flag("stats");
  config->quiet = opts.Flag("quiet");
  if (!ParseJobsOption(opts, config, err) ||
      !ParseFoldLineLength(opts, config, err) ||
      !ParseStackLimits(opts, &config->perf.limits, err) ||
      !ParseFilterOptions(opts, config, err)) {
    return ArgsResult::kUsageError;
  }
  config->inputs = opts.operands();
  if (!ParseFormatOption(opts, config, err)) return ArgsResult::kUsageError;
  return ArgsResult::kRun;
}

}  // namespace flamefold
