#include "cli/flamebatch_cli.h"

#include <algorithm>
#include <vector>

#include "cli/flamefold_cli.h"
#include "cli/flamesvg_cli.h"
#include "cli/usable_cores.h"

namespace flamefold {
namespace {

// flamebatch's own options.
po::options_description OwnOptions() {
  po::options_description options;
  options.add_options()
      ("o,outdir", TextValue("OUTDIR"),
       "write outputs under OUTDIR (default: the current directory)")
      ("jobs,j", IntValue("N"),
       "convert N inputs at once (default: one per usable core)")
      ("folded", SwitchValue(), "write FILE.folded")
      ("svg", SwitchValue(), "write FILE.svg")
      ("report", SwitchValue(),
       "write FILE.report.txt (flamereport's text report)")
      ("force", SwitchValue(),
       "convert even when the outputs are newer than the input")
      ("quiet,q", SwitchValue(), "no warnings and no progress")
      ("help,h", SwitchValue(), "print this help and exit")
      ("version,V", SwitchValue(), "print the version and exit");
  options.add(ConfigFileOptions());
  return options;
}

// flamefold's options that flamebatch passes on to the folding: not -o,
// --jobs, -q, --help and --version (flamebatch has its own), nor --stats
// (every input's counts mixed on stderr), nor the two stack limits (they
// come with flamesvg's options, and apply to the folding as well).
OptionTable FoldOptions() {
  OptionTable table;
  AddFoldOptions(&table);
  table.Add(FoldFilterOptions()).Add(FoldLineLengthOption());
  return table;
}

// Everything flamebatch reads itself; the rest is flamesvg's.
OptionTable BatchOptions() {
  OptionTable table;
  table.Add(OwnOptions()).Add(FoldOptions().all());
  return table;
}

// Sets the folding's options, checked as flamefold checks them.
bool ParseFoldOptions(const ParsedOptions& opts, FoldConfig* fold,
                      std::string* err) {
  if (!ApplyFoldOptions(opts, fold, err) ||
      !ParseFoldLineLength(opts, fold, err) ||
      !ParseFilterOptions(opts, fold, err)) {
    return false;
  }
  fold->jobs = 1;  // the inputs are converted in parallel instead
  return true;
}

// Stores the settings of [flamebatch] that name flamebatch's options or
// flamefold's under `batch`, and flamesvg's under `svg`.
bool StoreBatchConfig(const OptionTable& batch_options,
                      const OptionTable& svg_options, ParsedOptions* batch,
                      ParsedOptions* svg, std::string* err) {
  ConfigSection section;
  std::vector<ConfigSetting> rest;
  if (!LoadToolConfig("flamebatch", *batch, &section, err) ||
      !StoreConfigSettings(section, batch_options.all(),
                           CommandLineOnlyOptions(), batch, &rest, err)) {
    return false;
  }
  section.settings = rest;
  return StoreConfigSettings(section, svg_options.all(),
                             CommandLineOnlyOptions(), svg, nullptr, err);
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
         FormatOptionHelp(OwnOptions()) +
         "Fold options (flamefold's, spelled in full):\n" +
         FormatOptionHelp(FoldOptions().all()) +
         "Any flamesvg option (see flamesvg --help) applies to every SVG;\n"
         "without --title, each SVG is titled with its input's path.\n"
         "flamesvg's --max-stack-depth and --max-frame-length apply to the\n"
         "folding as well (and so to FILE.folded and the report).\n\n"
         "Example: flamebatch -o graphs --jobs 4 --report archive/\n"
         "Exit status: 0 all converted, up to date or passed over, 1 an input\n"
         "failed or was refused, 2 usage error.\n";
}

ArgsResult ParseBatchArgs(int argc, char** argv, BatchConfig* config,
                          std::string* err) {
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  const OptionTable batch_options = BatchOptions();
  const OptionTable svg_options = FlameSvgOptions();
  ParsedOptions opts, svg;
  if (!ParseCommandLine(batch_options, Syntax::kPassThrough, args, &opts,
                        err)) {
    return ArgsResult::kUsageError;
  }
  if (opts.Flag("help")) return ArgsResult::kHelp;
  if (opts.Flag("version")) return ArgsResult::kVersion;
  if (!ParseCommandLine(svg_options, Syntax::kGetoptLong, opts.operands(),
                        &svg, err)) {
    return ArgsResult::kUsageError;
  }
  if (svg.Flag("help")) return ArgsResult::kHelp;
  if (svg.Flag("version")) return ArgsResult::kVersion;
  if (!StoreBatchConfig(batch_options, svg_options, &opts, &svg, err) ||
      !ParseFoldOptions(opts, &config->fold, err) ||
      !FillFlameSvgConfig(svg, &config->svg_config, err)) {
    return ArgsResult::kUsageError;
  }
  config->paths = config->svg_config.inputs;
  config->svg_config.inputs.clear();
  if (config->paths.empty()) {
    *err = "no PATH given: name the files or folders to convert";
    return ArgsResult::kUsageError;
  }
  if (!config->svg_config.output.empty()) {
    *err = "-o names the output folder in flamebatch";
    return ArgsResult::kUsageError;
  }
  config->outdir = opts.Text("o", ".");
  bool any = opts.Flag("folded") || opts.Flag("svg");
  config->folded = !any || opts.Flag("folded");
  config->svg = !any || opts.Flag("svg");
  config->report = opts.Flag("report");
  config->force = opts.Flag("force");
  config->quiet = opts.Flag("quiet");
  config->fold.quiet = config->quiet;
  config->fold.perf.limits = config->svg_config.limits;  // flamesvg's options
  const long long cores = UsableCores();
  config->jobs = static_cast<int>(cores);
  if (opts.Has("jobs")) {
    long long n = opts.Int("jobs");
    if (n < 0) {
      *err = "--jobs takes a number, 0 or more";
      return ArgsResult::kUsageError;
    }
    config->jobs = static_cast<int>(std::min(n == 0 ? cores : n, 64LL));
  }
  // --cp reads and rewrites one palette.map: conversions take turns.
  if (config->svg_config.use_palette_map) config->jobs = 1;
  return ArgsResult::kRun;
}

}  // namespace flamefold
