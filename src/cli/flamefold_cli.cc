#include "cli/flamefold_cli.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "collapse/folded.h"
#include "symbols/frame_inliner.h"
#include "io/input.h"
#include "base/options.h"
#include "collapse/fold_inputs.h"
#include "perfdata/perf_data_folder.h"
#include "collapse/stack_filter.h"
#include "collapse/stack_limits.h"
#include "flamefold_config.h"

namespace flamefold {

namespace {

// Without --jobs: one thread per core this process may run on, at most 4.
// Past that the reading thread (which also parses) is the limit, and each
// thread's tables cost memory.
constexpr long long kDefaultMaxJobs = 4;

// The cores this process may run on (taskset, cgroup cpusets), else online.
long long UsableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
    return CPU_COUNT(&set);
  }
  return std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
}

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

// flamefold's own options, after kFoldSpecs.
constexpr OptionSpec kOwnSpecs[] = {
    {"include", OptType::kString, false, true, "REGEX",
     "keep only stacks matching REGEX (RE2; repeatable)"},
    {"exclude", OptType::kString, false, true, "REGEX",
     "drop stacks matching REGEX (RE2; repeatable)"},
    {"output|o", OptType::kString, false, false, "FILE",
     "write to FILE instead of standard output"},
    {"jobs|j", OptType::kInt, false, false, "N",
     "parse with N threads (0: one per core; default: one per core, at most 4)"},
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

std::span<const OptionSpec> FlamefoldOptionSpecs() {
  static const std::vector<OptionSpec> all =
      JoinOptionSpecs({kFoldSpecs, kOwnSpecs});
  return all;
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
  config->include = opts.All("include");
  config->exclude = opts.All("exclude");
  config->output = opts.Get("output");
  config->stats = opts.Has("stats");
  config->quiet = opts.Has("quiet");
  const long long cores = UsableCores();
  long long v = std::min(cores, kDefaultMaxJobs);
  if (opts.Has("jobs") && !ParsePositive(opts.Get("jobs"), 0, &v)) {
    *err = "--jobs takes a number of threads, 0 or more";
    return ArgsResult::kUsageError;
  }
  config->jobs = static_cast<int>(v == 0 ? cores : std::min(v, 256LL));
  if (opts.Has("max-line-length")) {
    if (!ParsePositive(opts.Get("max-line-length"), 1, &v)) {
      *err = "--max-line-length takes a number of bytes, 1 or more";
      return ArgsResult::kUsageError;
    }
    config->max_line = static_cast<size_t>(v);
  }
  if (!ParseStackLimits(opts, &p.limits, err)) return ArgsResult::kUsageError;
  StackFilter filter;
  if (!filter.Init(config->include, config->exclude, err)) {
    return ArgsResult::kUsageError;
  }
  config->inputs = opts.operands();
  return ArgsResult::kRun;
}

namespace {

// "'a' (3 samples), 'b' (1 sample)": the events an --event-filter skipped.
std::string EventList(const PerfScriptStats& s) {
  std::string out;
  for (const auto& [name, n] : s.other_events) {
    if (!out.empty()) out += ", ";
    out += "'" + Printable(name) + "' (" + std::to_string(n) +
           (n == 1 ? " sample)" : " samples)");
  }
  if (s.other_events.size() == PerfScriptStats::kMaxOtherEvents) {
    out += ", ...";
  }
  return out;
}

}  // namespace

void WarnAboutPerfScript(const FoldConfig& config, const PerfScriptStats& s,
                         const std::string& event, const Diag& diag) {
  auto warn = [&](uint64_t n, const std::string& text) {
    if (n > 0) diag.Warning(text);
  };
  auto num = [](uint64_t n) { return std::to_string(n); };
  warn(s.unrecognized_lines,
       num(s.unrecognized_lines) +
           " line(s) not recognised as perf script output were skipped "
           "(first: " + s.first_unrecognized + ")");
  warn(s.long_lines, num(s.long_lines) + " line(s) longer than " +
                         num(config.max_line) +
                         " bytes were skipped (first: " + s.first_long_line +
                         "; see --max-line-length)");
  if (config.perf.event_filter.empty()) {
    warn(s.samples_other_event,
         "kept only samples of '" + event + "', the first event seen; " +
             num(s.samples_other_event) + " sample(s) of other events (first: '" +
             s.other_event + "') were skipped: choose with --event-filter");
  } else if (s.samples == 0) {
    warn(s.samples_other_event,
         "--event-filter '" + Printable(config.perf.event_filter) +
             "' matched no sample; the input has " + EventList(s));
  }
  if (config.perf.modern) return;
  const std::string fix = " (--modern fixes this)";
  warn(s.last_sample_dropped,
       "the input does not end with a blank line: its last sample was "
       "dropped, as stackcollapse-perf.pl drops it" + fix);
  warn(s.blank_with_spaces,
       num(s.blank_with_spaces) +
           " white-space-only line(s) did not end a sample, so samples were "
           "merged as stackcollapse-perf.pl merges them" + fix);
  warn(s.paren_frames, num(s.paren_frames) +
                           " frame(s) beginning with '(', such as "
                           "'(anonymous namespace)::f', were dropped" + fix);
  warn(s.cut_names, num(s.cut_names) +
                        " C++ name(s) were cut at a '(' inside a template "
                        "argument list, such as 'std::function<void '" + fix);
  warn(s.one_char_comm,
       num(s.one_char_comm) +
           " event line(s) with a one-character command name were "
           "misparsed (the name took in the numbers after it)" + fix);
  warn(s.upper_hex_offsets,
       num(s.upper_hex_offsets) +
           " frame(s) kept an upper-case hex offset (+0xABC) in the name" +
           fix);
  warn(s.kernel_modules, num(s.kernel_modules) +
                             " frame(s) in kernel modules (.ko) or a "
                             "versioned vmlinux were not marked _[k]" + fix);
  warn(s.jitdump_frames,
       num(s.jitdump_frames) +
           " frame(s) in jitdump code (jitted-*.so) were not marked _[j]" +
           fix);
}

void WarnAboutFold(const FoldConfig& config, const FoldInputs& inputs,
                   const StackTrie& trie, const Diag& diag) {
  const PerfScriptStats& s = inputs.perf_stats();
  const FoldedStats& f = inputs.folded_stats();
  WarnAboutPerfScript(config, s, inputs.event(), diag);
  if (f.invalid_lines > 0) {
    diag.Warning(std::to_string(f.invalid_lines) +
                 " folded line(s) without a count were skipped (first: " +
                 FirstInvalidWhere(f) + ")");
  }
  for (const auto& [file, cut] : inputs.limit_hits()) {
    diag.Warning(LimitWarning(file, config.perf.limits, cut));
  }
  bool filtered_out = !config.perf.event_filter.empty() && s.samples == 0 &&
                      s.samples_other_event > 0;  // said above
  if (trie.total_samples() == 0 && !filtered_out) {
    diag.Warning("no samples in the input");
  }
}

namespace {

struct WriteCounts {
  uint64_t stacks = 0, stacks_written = 0;
  uint64_t samples_filtered = 0;
};

WriteCounts WriteStacks(const StackTrie& trie, const StackFilter& filter,
                        OutputSink* out) {
  WriteCounts c;
  std::string buf;
  trie.Walk([&](NodeId node, std::string_view line) {
    c.stacks++;
    if (filter.active() && !filter.Keep(line)) {
      c.samples_filtered += trie.samples(node);
      return;
    }
    c.stacks_written++;
    out->Write(line);
    buf.assign(1, ' ');
    trie.weight(node).AppendTo(&buf);
    buf += '\n';
    out->Write(buf);
  });
  return c;
}

}  // namespace

int RunFold(const FoldConfig& config, OutputSink* out, const Diag& diag) {
  StackFilter filter;
  std::string err;
  if (!filter.Init(config.include, config.exclude, &err)) {
    diag.Error(err);
    return kExitUsage;
  }
  StringInterner names;
  StackTrie trie(&names);
  PerfDataFolder recordings(config.symbols, config.archive, config.stats,
                            diag);
  FoldInputs inputs(config, &names, &trie, &recordings);
  std::vector<std::string> files = config.inputs;
  if (files.empty()) files.push_back("-");
  for (const std::string& file : files) {
    if (!inputs.Add(file, &err)) {
      diag.Error(err);
      return kExitDataError;
    }
  }
  inputs.Finish();
  const PerfScriptStats& s = inputs.perf_stats();
  const FoldedStats& f = inputs.folded_stats();
  uint64_t bad = s.unrecognized_lines + s.long_lines + f.invalid_lines;
  if (trie.total_samples() == 0 && bad > 0) {
    // Nothing folded and lines skipped: this is not a profile at all.
    std::string first = !s.first_unrecognized.empty() ? s.first_unrecognized
                        : !s.first_long_line.empty()
                            ? s.first_long_line + ": line too long"
                        : files.size() == 1
                            ? "line " + std::to_string(f.first_invalid_line)
                            : FirstInvalidWhere(f);
    diag.Error((files.size() == 1 ? files[0] + ": " : std::string()) +
               "no samples found: " + std::to_string(bad) +
               " line(s) are neither perf script output nor folded stacks "
               "(first: " + first + ")");
    return kExitDataError;
  }
  WriteCounts c = WriteStacks(trie, filter, out);
  if (!out->Flush()) {
    if (out->broken_pipe()) return kExitOk;
    diag.Error("write error: " + out->error());
    return kExitDataError;
  }
  WarnAboutFold(config, inputs, trie, diag);
  if (config.stats) {
    std::fprintf(stderr,
                 "flamefold: stats: %llu lines (%llu comments, %llu unrecognized, %llu too long)\n"
                 "flamefold: stats: %llu samples folded, %llu of other events skipped, %llu filtered out\n"
                 "flamefold: stats: %llu distinct stacks, %llu written; %zu distinct frames\n",
                 (unsigned long long)(s.lines + f.lines),
                 (unsigned long long)s.comment_lines,
                 (unsigned long long)(s.unrecognized_lines + f.invalid_lines),
                 (unsigned long long)s.long_lines,
                 (unsigned long long)trie.total_samples(),
                 (unsigned long long)s.samples_other_event,
                 (unsigned long long)c.samples_filtered,
                 (unsigned long long)c.stacks,
                 (unsigned long long)c.stacks_written, names.size());
    std::fprintf(stderr, "flamefold: stats: %s\n",
                 LimitStatsText(inputs.limit_totals()).c_str());
  }
  return kExitOk;
}

}  // namespace flamefold
