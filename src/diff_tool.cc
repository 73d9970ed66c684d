#include "flamefold/diff_tool.h"

#include <cstdlib>
#include <functional>
#include <vector>

#include "flamefold/arena.h"
#include "flamefold/diff.h"
#include "flamefold/diff_input.h"
#include "flamefold/diff_report.h"
#include "flamefold/folded.h"
#include "flamefold/report_stats.h"
#include "flamefold/stack_trie.h"

namespace flamefold {
namespace {

// Takes the value of a long option: "--top=5" or "--top 5".
bool LongValue(std::string_view name, std::string_view rest, int argc,
               char** argv, int* i, std::string* value, std::string* err) {
  if (rest.size() > name.size() && rest[name.size()] == '=') {
    *value = std::string(rest.substr(name.size() + 1));
    return true;
  }
  if (*i + 1 >= argc) {
    *err = "option --" + std::string(name) + " requires an argument";
    return false;
  }
  *value = argv[++*i];
  return true;
}

bool IsLong(std::string_view rest, std::string_view name) {
  return rest == name || (rest.size() > name.size() &&
                          rest.substr(0, name.size()) == name &&
                          rest[name.size()] == '=');
}

// One long option ("--report", "--top=5", ...). Returns false on an error.
bool ParseLong(std::string_view rest, int argc, char** argv, int* i,
               DiffConfig* config, DiffArgs* result, std::string* err) {
  std::string value;
  if (rest == "help") {
    *result = DiffArgs::kHelp;
  } else if (rest == "version") {
    *result = DiffArgs::kVersion;
  } else if (rest == "report") {
    config->report = true;
  } else if (IsLong(rest, "threshold")) {
    if (!LongValue("threshold", rest, argc, argv, i, &value, err)) return false;
    char* end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(v >= 0) || v > 100) {
      *err = "--threshold takes percentage points from 0 to 100, not '" +
             value + "'";
      return false;
    }
    config->has_threshold = true;
    config->threshold = v;
  } else if (IsLong(rest, "symfs")) {
    if (!LongValue("symfs", rest, argc, argv, i, &value, err)) return false;
    config->symbols.symfs = value;
  } else if (IsLong(rest, "kallsyms")) {
    if (!LongValue("kallsyms", rest, argc, argv, i, &value, err)) return false;
    config->symbols.kallsyms = value;
  } else if (IsLong(rest, "max-stack-depth") ||
             IsLong(rest, "max-frame-length") ||
             IsLong(rest, "max-line-length")) {
    std::string_view name = rest.substr(0, rest.find('='));
    if (!LongValue(name, rest, argc, argv, i, &value, err) ||
        !ParseStackLimit(name, value, &config->limits, err)) {
      return false;
    }
  } else if (IsLong(rest, "top")) {
    if (!LongValue("top", rest, argc, argv, i, &value, err)) return false;
    char* end = nullptr;
    long long v = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || v < 0) {
      *err = "--top takes a number of rows, 0 (all) or more, not '" + value +
             "'";
      return false;
    }
    config->top = static_cast<size_t>(v);
  } else {
    *err = "unknown option --" + std::string(rest);
    return false;
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
         "Options (difffolded.pl's, then flamediff's own):\n"
         "  -n               scale the BEFORE counts to the AFTER total\n"
         "  -s               replace hex addresses 0x1a2b with 0x...\n"
         "  -h, --help       print this help and exit\n"
         "  --report         list the functions whose share of the samples\n"
         "                   changed most (self and total, in percentage\n"
         "                   points), regressions first\n"
         "  --threshold P    exit with status 3 when a function's share grew\n"
         "                   by more than P percentage points\n"
         "  --top N          rows of --report (default 20; 0: all)\n"         "  --symfs DIR      perf.data input: look binaries up under DIR\n"
         "  --kallsyms FILE  perf.data input: kernel symbols from FILE\n"
         "  --max-stack-depth N\n"
         "                   cut deeper stacks to their N frames nearest the\n"
         "                   root (default 65536)\n"
         "  --max-frame-length BYTES\n"
         "                   cut longer frame names at a UTF-8 boundary\n"
         "                   (default 262144)\n"
         "  --max-line-length BYTES\n"
         "                   skip and count input lines longer than BYTES\n"
         "                   (default 16777216)\n"
         "  --version        print the version and exit\n"
         "Options go before the files, as with difffolded.pl.\n\n"
         "Example: flamediff before.folded after.folded | flamesvg > diff.svg\n"
         "Exit status: 0 ok, 1 data or I/O error, 2 usage error,\n"
         "3 --threshold exceeded.\n";
}

DiffArgs ParseDiffArgs(int argc, char** argv, DiffConfig* config,
                       std::string* err) {
  DiffArgs result = DiffArgs::kRun;
  int i = 1;
  for (; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') break;  // "-" is stdin
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg[1] == '-') {
      if (!ParseLong(arg.substr(2), argc, argv, &i, config, &result, err)) {
        return DiffArgs::kUsageError;
      }
      continue;
    }
    for (char c : arg.substr(1)) {  // bundled: -ns
      if (c == 'n') {
        config->normalize = true;
      } else if (c == 's') {
        config->strip_hex = true;
      } else if (c == 'h') {
        result = DiffArgs::kHelp;
      } else {
        *err = std::string("unknown option -") + c;
        return DiffArgs::kUsageError;
      }
    }
  }
  if (result != DiffArgs::kRun) return result;
  int operands = argc - i;
  if (operands != 2) {
    *err = "expected two files, BEFORE and AFTER (options go before them), "
           "got " + std::to_string(operands);
    return DiffArgs::kUsageError;
  }
  config->before = argv[i];
  config->after = argv[i + 1];
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
    if (!ReadDiffSide(*files[side], side, config.strip_hex, config.symbols,
                      config.limits,
                      &table, &stats[side], &err)) {
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
    WarnAboutDiffSide(*files[side], stats[side], config.limits, diag);
  }
  if (config.has_threshold) return CheckThreshold(config, changes, diag);
  return kExitOk;
}

}  // namespace flamefold
