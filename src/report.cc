#include "flamefold/report.h"

#include <algorithm>
#include <cstdio>

#include "flamefold/options.h"
#include "flamefold/parallel_fold.h"
#include "flamefold/report_format.h"
#include "flamefold/stack_limits.h"
#include "flamefold/stack_trie.h"

namespace flamefold {
namespace {

constexpr OptionSpec kSpecs[] = {
    {"top|n", OptType::kInt, false, false, "N",
     "functions in each table (default 10; 0: all)"},
    {"format|f", OptType::kString, false, false, "FORMAT",
     "text (default), csv or json"},
    {"depth", OptType::kInt, false, false, "N",
     "levels of callees under each function (default 2; 0: none)"},
    {"width", OptType::kInt, false, false, "N",
     "callees shown at each level (default 3)"},
    kMaxStackDepthOption,
    kMaxLineLengthOption,
    kMaxFrameLengthOption,
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

}  // namespace

std::string ReportHelp() {
  return "Usage: flamereport [OPTIONS] [FILE...]\n"
         "Reports where a profile spends its samples: the functions with the\n"
         "most self samples (running in them), each with its heaviest\n"
         "callees, and the functions with the most total samples (running in\n"
         "them or in what they call; a recursive stack counts once).\n"
         "FILE is perf script output, perf.data or folded stacks, plain,\n"
         "gzip or zstd, as flamefold reads them; standard input when no FILE\n"
         "is given or FILE is -. The first frame of each stack is the\n"
         "process.\n\n"
         "Options (flamereport's, then flamefold's for folding the input):\n" +
         FormatOptionHelp(JoinOptionSpecs({kSpecs, FoldOptionSpecs()})) +
         "\nCSV columns: rank,function,self_samples,self_pct,total_samples,"
         "total_pct\n(ranked by self samples).\n"
         "Example: perf script | flamereport --top 20\n"
         "Exit status: 0 ok, 1 data or I/O error, 2 usage error.\n";
}

ReportArgs ParseReportArgs(int argc, char** argv, ReportConfig* config,
                           std::string* err) {
  ParsedOptions opts;
  if (!ParseOptions(JoinOptionSpecs({kSpecs, FoldOptionSpecs()}), argc, argv,
                    &opts, err)) {
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
  if (!ParseStackLimits(opts, &config->limits, err)) {
    return ReportArgs::kUsageError;
  }
  ApplyFoldOptions(opts, &config->fold);
  config->output = opts.Get("output");
  config->quiet = opts.Has("quiet");
  config->inputs = opts.operands();
  return ReportArgs::kRun;
}

namespace {

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

// The callee tree under a function, drawn with ASCII branches:
//   |- a  1,234 (12.34%)
//   |  `- b  1,000 (10.00%)
//   `- c  ...
void WriteTextTree(const std::vector<CalleeNode>& nodes,
                   const PerlNumber& total, const std::string& indent,
                   OutputSink* out) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    bool last = i + 1 == nodes.size();
    const CalleeNode& n = nodes[i];
    out->Write(indent + (last ? "`- " : "|- ") + Printable(n.name, 4096) +
               "  " + WithThousands(n.samples) + " (" +
               FormatPercent(Percent(n.samples, total)) + "%)\n");
    WriteTextTree(n.children, total, indent + (last ? "   " : "|  "), out);
  }
}

void WriteTextTable(const ReportConfig& config, const ProfileSummary& s,
                    bool by_self, OutputSink* out) {
  const auto& fs = s.functions();
  std::vector<size_t> rows =
      by_self ? s.RankBySelf(config.top) : s.RankByTotal(config.top);
  size_t w1 = 5, w2 = 5;  // widths of the two count columns
  for (size_t i : rows) {
    w1 = std::max(w1, WithThousands(by_self ? fs[i].self : fs[i].total).size());
    w2 = std::max(w2, WithThousands(by_self ? fs[i].total : fs[i].self).size());
  }
  out->Write(std::string("Top ") +
             (config.top == 0 ? "" : std::to_string(rows.size()) + " ") +
             "functions by " + (by_self ? "self" : "total") + " samples:\n");
  out->Write(" rank  " + Pad(by_self ? "self" : "total", w1) + "  " +
             Pad(by_self ? "self%" : "total%", 7) + "  " +
             Pad(by_self ? "total" : "self", w2) + "  " +
             Pad(by_self ? "total%" : "self%", 7) + "  function\n");
  const PerlNumber& total = s.total_samples();
  std::vector<std::vector<CalleeNode>> trees;
  if (by_self) trees = s.Callees(rows, config.tree_depth, config.tree_width);
  for (size_t r = 0; r < rows.size(); ++r) {
    const FunctionStat& f = fs[rows[r]];
    const PerlNumber& a = by_self ? f.self : f.total;
    const PerlNumber& b = by_self ? f.total : f.self;
    out->Write(Pad(std::to_string(r + 1), 5) + "  " +
               Pad(WithThousands(a), w1) + "  " +
               Pad(FormatPercent(Percent(a, total)), 6) + "%  " +
               Pad(WithThousands(b), w2) + "  " +
               Pad(FormatPercent(Percent(b, total)), 6) + "%  " +
               Printable(f.name, 4096) + "\n");
    if (by_self && config.tree_depth > 0) {
      WriteTextTree(trees[r], total, "         ", out);
    }
  }
  if (rows.empty()) out->Write("  (no functions)\n");
}

void WriteText(const ReportConfig& config, const ProfileSummary& s,
               const std::string& event, OutputSink* out) {
  const PerlNumber& total = s.total_samples();
  out->Write("Total samples:   " + WithThousands(total) + "\n");
  out->Write("Distinct stacks: " +
             WithThousands(PerlNumber::FromUint(s.distinct_stacks())) + "\n");
  const auto& procs = s.processes();
  out->Write("Processes:       " +
             WithThousands(PerlNumber::FromUint(procs.size())) + "\n");
  size_t shown = config.top == 0 ? procs.size()
                                 : std::min(config.top, procs.size());
  size_t width = 0;
  for (size_t i = 0; i < shown; ++i) {
    width = std::max(width, WithThousands(procs[i].samples).size());
  }
  for (size_t i = 0; i < shown; ++i) {
    out->Write("  " + Pad(WithThousands(procs[i].samples), width) + "  " +
               Pad(FormatPercent(Percent(procs[i].samples, total)), 6) +
               "%  " + Printable(procs[i].name, 4096) + "\n");
  }
  if (shown < procs.size()) {
    out->Write("  (" + std::to_string(procs.size() - shown) + " more)\n");
  }
  if (!event.empty()) {
    out->Write("Event:           " + Printable(event, 4096) + "\n");
  }
  out->Put('\n');
  WriteTextTable(config, s, true, out);
  out->Put('\n');
  WriteTextTable(config, s, false, out);
}

void WriteCsv(const ReportConfig& config, const ProfileSummary& s,
              OutputSink* out) {
  out->Write("rank,function,self_samples,self_pct,total_samples,total_pct\n");
  std::vector<size_t> rows = s.RankBySelf(config.top);
  for (size_t r = 0; r < rows.size(); ++r) {
    const FunctionStat& f = s.functions()[rows[r]];
    out->Write(std::to_string(r + 1) + "," + CsvField(f.name) + "," +
               f.self.ToString() + "," +
               FormatPercent(Percent(f.self, s.total_samples())) + "," +
               f.total.ToString() + "," +
               FormatPercent(Percent(f.total, s.total_samples())) + "\n");
  }
}

void WriteJsonTree(const std::vector<CalleeNode>& nodes,
                   const PerlNumber& total, OutputSink* out) {
  out->Put('[');
  for (size_t i = 0; i < nodes.size(); ++i) {
    const CalleeNode& n = nodes[i];
    if (i > 0) out->Put(',');
    out->Write("{\"function\":" + JsonString(n.name) +
               ",\"samples\":" + JsonNumber(n.samples) + ",\"pct\":" +
               FormatPercent(Percent(n.samples, total)) + ",\"callees\":");
    WriteJsonTree(n.children, total, out);
    out->Put('}');
  }
  out->Put(']');
}

void WriteJsonRows(const ReportConfig& config, const ProfileSummary& s,
                   bool by_self, OutputSink* out) {
  std::vector<size_t> rows =
      by_self ? s.RankBySelf(config.top) : s.RankByTotal(config.top);
  const PerlNumber& total = s.total_samples();
  std::vector<std::vector<CalleeNode>> trees;
  if (by_self) trees = s.Callees(rows, config.tree_depth, config.tree_width);
  out->Put('[');
  for (size_t r = 0; r < rows.size(); ++r) {
    const FunctionStat& f = s.functions()[rows[r]];
    out->Write(std::string(r > 0 ? "," : "") + "\n    {\"rank\":" +
               std::to_string(r + 1) + ",\"function\":" + JsonString(f.name) +
               ",\"self_samples\":" + JsonNumber(f.self) +
               ",\"self_pct\":" + FormatPercent(Percent(f.self, total)) +
               ",\"total_samples\":" + JsonNumber(f.total) +
               ",\"total_pct\":" + FormatPercent(Percent(f.total, total)));
    if (by_self) {
      out->Write(",\"callees\":");
      WriteJsonTree(trees[r], total, out);
    }
    out->Put('}');
  }
  out->Write(rows.empty() ? "]" : "\n  ]");
}

void WriteJson(const ReportConfig& config, const ProfileSummary& s,
               const std::string& event, OutputSink* out) {
  const PerlNumber& total = s.total_samples();
  out->Write("{\n  \"total_samples\": " + JsonNumber(total) +
             ",\n  \"distinct_stacks\": " +
             std::to_string(s.distinct_stacks()) + ",\n  \"event\": " +
             (event.empty() ? std::string("null") : JsonString(event)) +
             ",\n  \"processes\": [");
  const auto& procs = s.processes();
  for (size_t i = 0; i < procs.size(); ++i) {
    out->Write(std::string(i > 0 ? "," : "") + "\n    {\"name\":" +
               JsonString(procs[i].name) +
               ",\"samples\":" + JsonNumber(procs[i].samples) + ",\"pct\":" +
               FormatPercent(Percent(procs[i].samples, total)) + "}");
  }
  out->Write(procs.empty() ? "],\n  \"top_self\": " : "\n  ],\n  \"top_self\": ");
  WriteJsonRows(config, s, true, out);
  out->Write(",\n  \"top_total\": ");
  WriteJsonRows(config, s, false, out);
  out->Write("\n}\n");
}

}  // namespace

void WriteReport(const ReportConfig& config, const ProfileSummary& summary,
                 const std::string& event, OutputSink* out) {
  switch (config.format) {
    case ReportFormat::kText:
      WriteText(config, summary, event, out);
      break;
    case ReportFormat::kCsv:
      WriteCsv(config, summary, out);
      break;
    case ReportFormat::kJson:
      WriteJson(config, summary, event, out);
      break;
  }
}

int RunReport(const ReportConfig& config, OutputSink* out, const Diag& diag) {
  StringInterner names;
  StackTrie trie(&names);
  FoldConfig fold = config.fold;
  fold.perf.limits = config.limits;
  fold.max_line = config.limits.LineLimit(fold.max_line);
  FoldInputs inputs(fold, &names, &trie, diag);
  std::vector<std::string> files = config.inputs;
  if (files.empty()) files.push_back("-");
  std::string err;
  for (const std::string& file : files) {
    if (!inputs.Add(file, &err)) {
      diag.Error(err);
      return kExitDataError;
    }
  }
  inputs.Finish();
  const PerfScriptStats& ps = inputs.perf_stats();
  const FoldedStats& fs = inputs.folded_stats();
  uint64_t unrecognized = ps.unrecognized_lines + fs.invalid_lines;
  if (trie.total_samples() == 0 && unrecognized > 0) {
    diag.Error("no samples found: " + std::to_string(unrecognized) +
               " line(s) are neither perf script output nor folded stacks "
               "(first: " +
               (ps.first_unrecognized.empty() ? FirstInvalidWhere(fs)
                                              : ps.first_unrecognized) +
               ")");
    return kExitDataError;
  }
  ProfileSummary summary(trie);
  WriteReport(config, summary, inputs.event(), out);
  if (!out->Flush()) {
    if (out->broken_pipe()) return kExitOk;
    diag.Error("write error: " + out->error());
    return kExitDataError;
  }
  WarnAboutFold(fold, inputs, trie, diag);
  return kExitOk;
}

}  // namespace flamefold
