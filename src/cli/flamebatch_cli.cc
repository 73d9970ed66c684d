#include "cli/flamebatch_cli.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <string_view>
#include <vector>

#include "base/options.h"
#include "cli/flamefold_cli.h"
#include "cli/flamesvg_cli.h"
#include "cli/usable_cores.h"
#include "cli/stack_limit_options.h"

namespace flamefold {
namespace {

constexpr OptionSpec kSpecs[] = {
    {"o|outdir", OptType::kString, false, false, "OUTDIR",
     "write outputs under OUTDIR (default: the current directory)"},
    {"jobs|j", OptType::kInt, false, false, "N",
     "convert N inputs at once (default: one per usable core)"},
    {"folded", OptType::kFlag, false, false, "", "write FILE.folded"},
    {"svg", OptType::kFlag, false, false, "", "write FILE.svg"},
    {"report", OptType::kFlag, false, false, "",
     "write FILE.report.txt (flamereport's text report)"},
    {"force", OptType::kFlag, false, false, "",
     "convert even when the outputs are newer than the input"},
    {"quiet|q", OptType::kFlag, false, false, "",
     "no warnings and no progress"},
    {"help|h", OptType::kFlag, false, false, "", "print this help and exit"},
    {"version|V", OptType::kFlag, false, false, "",
     "print the version and exit"},
};

// flamefold's options that flamebatch passes on to the folding: not -o,
// --jobs, -q, --help and --version (flamebatch has its own), nor --stats
// (every input's counts mixed on stderr), nor the two limits (they come
// with flamesvg's options, and apply to the folding as well).
std::vector<OptionSpec> FoldSpecs() {
  std::vector<OptionSpec> specs;
  for (const OptionSpec& s : FlamefoldOptionSpecs()) {
    std::string_view name = s.names.substr(0, s.names.find('|'));
    bool own = false;
    for (std::string_view no : {"output", "jobs", "stats", "quiet", "help", "version"}) {
      own = own || name == no;
    }
    if (!own && s.names != kMaxStackDepthOption.names &&
        s.names != kMaxFrameLengthOption.names) {
      specs.push_back(s);
    }
  }
  return specs;
}

// Hands the fold options given to flamefold's own parser, so that they are
// read and checked exactly as flamefold reads them.
bool ParseFoldOptions(const ParsedOptions& opts, FoldConfig* fold,
                      std::string* err) {
  std::vector<std::string> args{"flamebatch"};
  for (const OptionSpec& s : FoldSpecs()) {
    std::string name(s.names.substr(0, s.names.find('|')));
    if (!opts.Has(name)) continue;
    if (s.type == OptType::kFlag) {
      args.push_back("--" + name);
      continue;
    }
    for (const std::string& v : opts.All(name)) args.push_back("--" + name + "=" + v);
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  if (ParseFoldArgs(static_cast<int>(argv.size()), argv.data(), fold, err) !=
      ArgsResult::kRun) {
    return false;
  }
  fold->jobs = 1;  // the inputs are converted in parallel instead
  return true;
}

}  // namespace

std::string BatchHelp() {
  return "Usage: flamebatch [OPTIONS] [FOLD OPTIONS] [FLAMESVG OPTIONS] PATH...\n"
         "Converts archived profiles (perf.data, perf script text plain or\n"
         "gzip/zstd, folded stacks; found by content) in files and folders\n"
         "(recursively) into OUTDIR/relative/path/FILE.folded and FILE.svg,\n"
         "FILE being the input's whole name, several at once. Inputs whose\n"
         "outputs are newer are skipped; files that hold no profile are\n"
         "passed over with a warning.\n\n"
         "Options (spelled in full):\n" +
         FormatOptionHelp(kSpecs) +
         "Fold options (flamefold's, spelled in full):\n" +
         FormatOptionHelp(FoldSpecs()) +
         "Any flamesvg option (see flamesvg --help) applies to every SVG;\n"
         "without --title, each SVG is titled with its input's path.\n"
         "flamesvg's --max-stack-depth and --max-frame-length apply to the\n"
         "folding as well (and so to FILE.folded and the report).\n\n"
         "Example: flamebatch -o graphs --jobs 4 --report archive/\n"
         "Exit status: 0 all converted, up to date or passed over, 1 an input\n"
         "failed or was refused, 2 usage error.\n";
}

BatchArgs ParseBatchArgs(int argc, char** argv, BatchConfig* config,
                         std::string* err) {
  std::vector<OptionSpec> specs(std::begin(kSpecs), std::end(kSpecs));
  for (const OptionSpec& s : FoldSpecs()) specs.push_back(s);
  ParsedOptions opts;
  if (!ParseOptionsPassThrough(specs, argc, argv, &opts, err)) {
    return BatchArgs::kUsageError;
  }
  if (opts.Has("help")) return BatchArgs::kHelp;
  if (opts.Has("version")) return BatchArgs::kVersion;
  if (!ParseFoldOptions(opts, &config->fold, err)) return BatchArgs::kUsageError;
  std::vector<std::string> rest = opts.operands();
  std::vector<char*> svg_argv{const_cast<char*>("flamebatch")};
  for (std::string& a : rest) svg_argv.push_back(a.data());
  switch (ParseFlameSvgArgs(static_cast<int>(svg_argv.size()), svg_argv.data(),
                            &config->svg_config, err)) {
    case SvgArgsResult::kRun: break;
    case SvgArgsResult::kHelp: return BatchArgs::kHelp;
    case SvgArgsResult::kVersion: return BatchArgs::kVersion;
    case SvgArgsResult::kUsageError: return BatchArgs::kUsageError;
  }
  config->paths = config->svg_config.inputs;
  config->svg_config.inputs.clear();
  if (config->paths.empty()) {
    *err = "no PATH given: name the files or folders to convert";
    return BatchArgs::kUsageError;
  }
  if (!config->svg_config.output.empty()) {
    *err = "-o names the output folder in flamebatch";
    return BatchArgs::kUsageError;
  }
  config->outdir = opts.Get("o", ".");
  bool any = opts.Has("folded") || opts.Has("svg");
  config->folded = !any || opts.Has("folded");
  config->svg = !any || opts.Has("svg");
  config->report = opts.Has("report");
  config->force = opts.Has("force");
  config->quiet = opts.Has("quiet");
  config->fold.quiet = config->quiet;
  config->fold.perf.limits = config->svg_config.limits;  // flamesvg's options
  const long long cores = UsableCores();
  config->jobs = static_cast<int>(cores);
  if (opts.Has("jobs")) {
    long long n = std::atoll(opts.Get("jobs").c_str());
    if (n < 0) {
      *err = "--jobs takes a number, 0 or more";
      return BatchArgs::kUsageError;
    }
    config->jobs = static_cast<int>(std::min(n == 0 ? cores : n, 64LL));
  }
  // --cp reads and rewrites one palette.map: conversions take turns.
  if (config->svg_config.use_palette_map) config->jobs = 1;
  return BatchArgs::kRun;
}

}  // namespace flamefold
