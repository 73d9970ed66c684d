#include "cli/flamescope_cli.h"

#include <cctype>
#include <string_view>
#include <vector>

#include "cli/flamefold_cli.h"
#include "cli/stack_limit_options.h"

namespace flamefold {
namespace {

po::options_description OwnOptions() {
  po::options_description options;
  options.add_options()
      ("rows", IntValue("N"),
       "rows of the heat map: cells a second (default 50)")
      ("per-second", SwitchValue(),
       "print the samples of each second (\"SECOND SAMPLES\" lines) "
       "instead of the page")
      ("title", TextValue("TEXT"), "the page's title (default \"FlameScope\")");
  return options;
}

// The options that say how the inputs are folded: flamefold takes them
// too, and the page's command passes them on.
OptionTable FoldingOptions() {
  OptionTable table;
  table.Add(StackLimitOptions({StackLimitOption::kMaxStackDepth,
                               StackLimitOption::kMaxLineLength,
                               StackLimitOption::kMaxFrameLength}));
  AddFoldOptions(&table);
  table.Add(FoldFilterOptions());
  return table;
}

OptionTable ToolOptions() {
  OptionTable table;
  table.Add(OwnOptions()).Add(OutputAndHelpOptions());
  OptionTable folding = FoldingOptions();
  table.Add(folding.all()).Add(ConfigFileOptions());
  return table;
}

// Text for a POSIX shell: itself when it holds only safe characters, else
// in single quotes.
std::string ShellWord(const std::string& s) {
  bool plain = !s.empty();
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) ||
          std::string_view("-_./=,:+@%").find(c) != std::string_view::npos)) {
      plain = false;
    }
  }
  if (plain) return s;
  std::string quoted = "'";
  for (char c : s) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

// "flamefold", the fold options as given (the configuration file's
// included) and the inputs: the command that folds what the page shows.
std::string FoldCommand(const ParsedOptions& opts) {
  const OptionTable folding = FoldingOptions();
  std::vector<std::string> names_held;
  for (const auto& option : folding.all().options()) {
    names_held.push_back(option->long_name());
  }
  std::vector<std::string_view> names(names_held.begin(), names_held.end());
  std::string command = "flamefold";
  for (const ParsedOptions::Given& given : opts.InOrder(names)) {
    command += " " + ShellWord("--" + given.name +
                               (given.value.empty() ? "" : "=" + given.value));
  }
  for (const std::string& input : opts.operands()) {
    command += " " + ShellWord(input);
  }
  return command;
}

}  // namespace

std::string FlameScopeHelp() {
  return "Usage: flamescope [OPTIONS] [FILE...] > scope.html\n"
         "Writes a FlameScope page: a heat map of the samples, one column a\n"
         "second and one row a fraction of it (the colour the samples in\n"
         "it), and below it the flame graph of the cells selected (click a\n"
         "first and a last cell, or drag), as `flamefold --time-range R |\n"
         "flamesvg` draws it; the page names that command and saves the\n"
         "selection's folded stacks. One self-contained HTML file.\n"
         "FILE is perf script output (with times) or perf.data, plain, gzip\n"
         "or zstd, as flamefold reads them; standard input when no FILE is\n"
         "given or FILE is -.\n\n"
         "Options (flamescope's, then flamefold's for folding the input):\n" +
         FormatOptionHelp(ToolOptions().all()) +
         "\nExample: perf script | flamescope -o scope.html\n"
         "Exit status: 0 ok, 1 data or I/O error, 2 usage error.\n";
}

ArgsResult ParseFlameScopeArgs(int argc, char** argv,
                               FlameScopeConfig* config, std::string* err) {
  ParsedOptions opts;
  ArgsResult result = ParseToolArgs("flamescope", ToolOptions(),
                                    Syntax::kGetoptLong, argc, argv, &opts,
                                    err);
  if (result != ArgsResult::kRun) return result;
  long long rows = opts.Int("rows", 50);
  if (rows < 1 || rows > 1000) {
    *err = "--rows takes a number of rows from 1 to 1000";
    return ArgsResult::kUsageError;
  }
  config->rows = static_cast<uint32_t>(rows);
  config->per_second = opts.Flag("per-second");
  config->page.title = opts.Text("title", "FlameScope");
  FoldConfig& fold = config->fold;
  if (!ParseStackLimits(opts, &fold.perf.limits, err) ||
      !ParseFilterOptions(opts, &fold, err)) {
    return ArgsResult::kUsageError;
  }
  fold.max_line = fold.perf.limits.LineLimit(fold.max_line);
  if (!ApplyFoldOptions(opts, &fold, err)) return ArgsResult::kUsageError;
  if (fold.perf.off_cpu.enabled) {
    // The heat map places samples in time; a wait is no sample.
    *err = "--off-cpu is not for flamescope, whose heat map counts samples "
           "(flamefold --off-cpu --time-range folds the waits of a time "
           "range)";
    return ArgsResult::kUsageError;
  }
  fold.output = opts.Text("output");
  fold.quiet = opts.Flag("quiet");
  fold.inputs = opts.operands();
  config->page.fold_command = FoldCommand(opts);
  return ArgsResult::kRun;
}

}  // namespace flamefold
