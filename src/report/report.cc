#include "report/report.h"

#include <algorithm>
#include <cstdio>

#include "collapse/fold_inputs.h"
#include "collapse/fold_warnings.h"
#include "collapse/folded.h"
#include "collapse/off_cpu_waits.h"
#include "collapse/stack_filter.h"
#include "collapse/stack_transform.h"
#include "perfdata/perf_data_folder.h"
#include "report/report_format.h"
#include "collapse/stack_limits.h"
#include "collapse/stack_trie.h"
#include "collapse/stack_writer.h"

namespace flamefold {
namespace {

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string Count(uint64_t n) {
  return WithThousands(PerlNumber::FromUint(n));
}

// The JSON "count_unit": whether the counts are numbers of samples or sums
// of something else ("period"); UnitOf says what.
std::string CountUnitKey(const ReportFacts& facts) {
  return facts.periods ? "period" : "samples";
}

// A time in ns as seconds, or milliseconds below one second.
std::string Seconds(double ns) {
  char buf[64];
  if (ns >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.3f s", ns / 1e9);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  }
  return buf;
}

// A caller that is the process frame is no function: it is marked so.
std::string NodeName(const CallNode& n) {
  return Printable(n.name, 4096) + (n.process ? " (process)" : "");
}

// A caller or callee tree, drawn with ASCII branches:
//   |- a  1,234 (12.34%)
//   |  `- b  1,000 (10.00%)
//   `- c  ...
void WriteTextTree(const std::vector<CallNode>& nodes, const PerlNumber& total,
                   const std::string& indent, OutputSink* out) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    bool last = i + 1 == nodes.size();
    const CallNode& n = nodes[i];
    out->Write(indent + (last ? "`- " : "|- ") + NodeName(n) + "  " +
               WithThousands(n.samples) + " (" +
               FormatPercent(Percent(n.samples, total)) + "%)\n");
    WriteTextTree(n.children, total, indent + (last ? "   " : "|  "), out);
  }
}

// The callers and callees of the functions of `rows`, for the self table.
struct RowTrees {
  std::vector<std::vector<CallNode>> callers, callees;
};

RowTrees TreesOf(const ReportConfig& config, const ProfileSummary& s,
                 const std::vector<size_t>& rows) {
  return {s.Callers(rows, config.tree_depth, config.tree_width),
          s.Callees(rows, config.tree_depth, config.tree_width)};
}

void WriteTextTable(const ReportConfig& config, const ProfileSummary& s,
                    const ReportFacts& facts, bool by_self,
                    OutputSink* out) {
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
             "functions by " + (by_self ? "self " : "total ") +
             UnitOf(facts).heading + ":\n");
  out->Write(" rank  " + Pad(by_self ? "self" : "total", w1) + "  " +
             Pad(by_self ? "self%" : "total%", 7) + "  " +
             Pad(by_self ? "total" : "self", w2) + "  " +
             Pad(by_self ? "total%" : "self%", 7) + "  function\n");
  const PerlNumber& total = s.total_samples();
  RowTrees trees;
  if (by_self) trees = TreesOf(config, s, rows);
  const std::string indent(9, ' ');
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
    if (!by_self) continue;
    if (!trees.callers[r].empty()) {
      out->Write(indent + "called by:\n");
      WriteTextTree(trees.callers[r], total, indent + "  ", out);
    }
    if (!trees.callees[r].empty()) {
      out->Write(indent + "calls:\n");
      WriteTextTree(trees.callees[r], total, indent + "  ", out);
    }
  }
  if (rows.empty()) out->Write("  (no functions)\n");
}

// "cpu-clock:u, 199 Hz" or "page-faults, every 10 events".
std::string Sampling(const PerfDataStats::Event& e) {
  std::string s = Printable(e.name, 4096) + ", ";
  if (e.freq) return s + Count(e.rate) + " Hz";
  if (e.rate == 1) return s + "every event";
  return s + "every " + Count(e.rate) + " events";
}

// "N of M frames (P%), most in DSO (n), ..." for the frames without a
// symbol and the three DSOs most of them are in.
std::string NoSymbolShare(const PerfDataStats& r) {
  std::string s = Count(r.frames_no_symbol) + " of " + Count(r.frames) +
                  " frames (" +
                  FormatPercent(Percent(PerlNumber::FromUint(r.frames_no_symbol),
                                        PerlNumber::FromUint(r.frames))) +
                  "%)";
  const size_t kShown = 3;
  const auto& dsos = r.no_symbol_dsos;
  for (size_t i = 0; i < dsos.size() && i < kShown; ++i) {
    s += std::string(i == 0 ? ", most in " : ", ") +
         Printable(dsos[i].first, 4096) + " (" + Count(dsos[i].second) + ")";
  }
  if (dsos.size() > kShown) {
    s += " and " + std::to_string(dsos.size() - kShown) + " more DSO(s)";
  }
  return s;
}

// Whether the samples lost are known: from LOST_SAMPLES records, or none
// lost at all. LOST records alone (older perf and kernels) count records of
// any kind, so the samples among them are not known.
bool LostSamplesKnown(const PerfDataStats& r) {
  return r.lost_samples_recorded || r.lost_chunks == 0;
}

// "1.360 s (first to last sample)".
std::string Duration(const PerfDataStats& r) {
  if (r.first_time > r.last_time) return "(no sample times)";
  return Seconds(static_cast<double>(r.last_time - r.first_time)) +
         " (first to last sample)";
}

// "vm (6.18.44, x86_64)"; `missing` when the file names no host.
std::string Host(const PerfDataStats& r, const std::string& missing) {
  std::string host = r.hostname.empty() ? missing : Printable(r.hostname);
  std::string system = r.os_release;
  if (!r.arch.empty()) system += (system.empty() ? "" : ", ") + r.arch;
  if (!system.empty()) host += " (" + Printable(system) + ")";
  return host;
}

// The facts of a perf.data recording, as its header and records give them.
void WriteTextRecording(const std::string& file, const PerfDataStats& r,
                        OutputSink* out) {
  auto line = [&](const std::string& label, const std::string& value) {
    out->Write("  " + label + std::string(15 - label.size(), ' ') + value +
               "\n");
  };
  const std::string missing = "(not in the file)";
  out->Write("Recording:       " + Printable(file, 4096) + "\n");
  line("Host:", Host(r, missing));
  line("Command:", r.cmdline.empty() ? missing : Printable(r.cmdline, 4096));
  line("Perf version:", r.perf_version.empty() ? missing
                                                : Printable(r.perf_version));
  if (!r.truncated.empty()) {
    line("Cut short:", Printable(r.truncated, 4096) +
                           "; read up to the last whole record");
  }
  for (const PerfDataStats::Event& e : r.events) {
    line("Event:", Sampling(e) + ": " + Count(e.samples) + " samples");
  }
  line("Duration:", Duration(r));
  line("Samples:", Count(r.samples) + ", lost: " +
                       (LostSamplesKnown(r) ? Count(r.lost_samples)
                                            : "unknown"));
  if (r.lost_chunks > 0) {
    line("Lost records:", Count(r.lost_records) + " in " +
                              Count(r.lost_chunks) +
                              " chunk(s): the kernel's buffer was full");
  }
  line("No symbol:", NoSymbolShare(r));
  out->Put('\n');
}

// What the counts are: samples, or the sum of the sample periods, of a
// --weight field's bytes or of the time blocked, with the number of samples
// beside it and a time also in seconds.
void WriteTextTotals(const ProfileSummary& s, const ReportFacts& facts,
                     OutputSink* out) {
  const PerlNumber& total = s.total_samples();
  const CountUnit unit = UnitOf(facts);
  if (unit.column == "samples") {
    out->Write("Total samples:   " + WithThousands(total) + "\n");
    return;
  }
  const std::string event = facts.event.empty()
                                ? std::string("perf")
                                : Printable(facts.event, 4096);
  const bool time = unit.ns_per_count > 0;
  std::string label = "Total period:    ";
  std::string counts = "sums of the " + event + " sample periods";
  if (facts.on_off) {
    label = "Total time:      ";
    counts = "CPU time and time blocked off the CPU, summed per stack";
  } else if (!facts.off_cpu_unit.empty()) {
    label = "Total blocked:   ";
    counts = "time blocked off the CPU, summed per stack";
  } else if (unit.column == "bytes") {
    label = "Total bytes:     ";
    counts = "sums of the samples' " + Printable(facts.weight_field, 4096) +
             " field";
  }
  out->Write(label + WithThousands(total) +
             (time ? " " + unit.column + " (" +
                         Seconds(total.AsDouble() * unit.ns_per_count) + ")"
                   : "") +
             "\n");
  out->Write("Samples:         " + Count(facts.samples) + "\n");
  if (time) counts += " (" + unit.column + ")";
  out->Write("Counts:          " + counts + ", not numbers of samples\n");
}

void WriteText(const ReportConfig& config, const ProfileSummary& s,
               const ReportFacts& facts, OutputSink* out) {
  for (const auto& [file, recording] : facts.recordings) {
    WriteTextRecording(file, recording, out);
  }
  const PerlNumber& total = s.total_samples();
  WriteTextTotals(s, facts, out);
  out->Write("Distinct stacks: " + Count(s.distinct_stacks()) + "\n");
  const auto& procs = s.processes();
  out->Write("Processes:       " + Count(procs.size()) + "\n");
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
  if (!facts.event.empty()) {
    out->Write("Event:           " + Printable(facts.event, 4096) + "\n");
  }
  out->Put('\n');
  WriteTextTable(config, s, facts, true, out);
  out->Put('\n');
  WriteTextTable(config, s, facts, false, out);
}

// The first level of a tree as one CSV field: "name count" for each node,
// heaviest first, separated by ';' (which no frame name holds).
std::string CsvTree(const std::vector<CallNode>& nodes) {
  std::string s;
  for (const CallNode& n : nodes) {
    if (!s.empty()) s += ';';
    s += n.name + (n.process ? " (process)" : "") + " " + n.samples.ToString();
  }
  return CsvField(s);
}

void WriteCsv(const ReportConfig& config, const ProfileSummary& s,
              const ReportFacts& facts, OutputSink* out) {
  std::string unit = UnitOf(facts).column;
  out->Write("rank,function,self_" + unit + ",self_pct,total_" + unit +
             ",total_pct,callers,callees\n");
  std::vector<size_t> rows = s.RankBySelf(config.top);
  ReportConfig direct = config;  // the CSV shows the first level only
  direct.tree_depth = std::min(config.tree_depth, 1);
  RowTrees trees = TreesOf(direct, s, rows);
  for (size_t r = 0; r < rows.size(); ++r) {
    const FunctionStat& f = s.functions()[rows[r]];
    out->Write(std::to_string(r + 1) + "," + CsvField(f.name) + "," +
               f.self.ToString() + "," +
               FormatPercent(Percent(f.self, s.total_samples())) + "," +
               f.total.ToString() + "," +
               FormatPercent(Percent(f.total, s.total_samples())) + "," +
               CsvTree(trees.callers[r]) + "," + CsvTree(trees.callees[r]) +
               "\n");
  }
}

// A tree as JSON; `key` names the children ("callers" or "callees"). A
// caller that is the process frame is {"process": NAME, ...}.
void WriteJsonTree(const std::vector<CallNode>& nodes, const char* key,
                   const PerlNumber& total, OutputSink* out) {
  out->Put('[');
  for (size_t i = 0; i < nodes.size(); ++i) {
    const CallNode& n = nodes[i];
    if (i > 0) out->Put(',');
    out->Write(std::string(n.process ? "{\"process\":" : "{\"function\":") +
               JsonString(n.name) + ",\"samples\":" + JsonNumber(n.samples) +
               ",\"pct\":" + FormatPercent(Percent(n.samples, total)) +
               ",\"" + key + "\":");
    WriteJsonTree(n.children, key, total, out);
    out->Put('}');
  }
  out->Put(']');
}

void WriteJsonRows(const ReportConfig& config, const ProfileSummary& s,
                   bool by_self, OutputSink* out) {
  std::vector<size_t> rows =
      by_self ? s.RankBySelf(config.top) : s.RankByTotal(config.top);
  const PerlNumber& total = s.total_samples();
  RowTrees trees;
  if (by_self) trees = TreesOf(config, s, rows);
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
      out->Write(",\"callers\":");
      WriteJsonTree(trees.callers[r], "callers", total, out);
      out->Write(",\"callees\":");
      WriteJsonTree(trees.callees[r], "callees", total, out);
    }
    out->Put('}');
  }
  out->Write(rows.empty() ? "]" : "\n  ]");
}

std::string JsonOrNull(const std::string& s) {
  return s.empty() ? "null" : JsonString(s);
}

void WriteJsonRecording(const std::string& file, const PerfDataStats& r,
                        OutputSink* out) {
  out->Write("{\"file\":" + JsonString(file) +
             ",\"hostname\":" + JsonOrNull(r.hostname) +
             ",\"os_release\":" + JsonOrNull(r.os_release) +
             ",\"arch\":" + JsonOrNull(r.arch) +
             ",\"perf_version\":" + JsonOrNull(r.perf_version) +
             ",\"cmdline\":" + JsonOrNull(r.cmdline) +
             ",\"cut_short\":" + JsonOrNull(r.truncated) + ",\"events\":[");
  for (size_t i = 0; i < r.events.size(); ++i) {
    const PerfDataStats::Event& e = r.events[i];
    std::string rate = std::to_string(e.rate);
    out->Write(std::string(i > 0 ? "," : "") +
               "{\"name\":" + JsonString(e.name) +
               ",\"frequency_hz\":" + (e.freq ? rate : "null") +
               ",\"period\":" + (e.freq ? "null" : rate) +
               ",\"samples\":" + std::to_string(e.samples) + "}");
  }
  bool timed = r.first_time <= r.last_time;
  out->Write("],\"duration_ns\":" +
             (timed ? std::to_string(r.last_time - r.first_time) : "null") +
             ",\"samples\":" + std::to_string(r.samples) +
             ",\"lost_samples\":" +
             (LostSamplesKnown(r) ? std::to_string(r.lost_samples)
                                  : "null") +
             ",\"lost_records\":" + std::to_string(r.lost_records) +
             ",\"lost_chunks\":" + std::to_string(r.lost_chunks) +
             ",\"frames\":" + std::to_string(r.frames) +
             ",\"frames_without_symbol\":" +
             std::to_string(r.frames_no_symbol) +
             ",\"no_symbol_dsos\":[");
  for (size_t i = 0; i < r.no_symbol_dsos.size(); ++i) {
    out->Write(std::string(i > 0 ? "," : "") +
               "{\"dso\":" + JsonString(r.no_symbol_dsos[i].first) +
               ",\"frames\":" + std::to_string(r.no_symbol_dsos[i].second) +
               "}");
  }
  out->Write("]}");
}

void WriteJson(const ReportConfig& config, const ProfileSummary& s,
               const ReportFacts& facts, OutputSink* out) {
  const PerlNumber& total = s.total_samples();
  out->Write("{\n  \"total_samples\": " + JsonNumber(total) +
             ",\n  \"count_unit\": \"" + CountUnitKey(facts) +
             "\",\n  \"unit\": \"" + UnitOf(facts).column +
             "\",\n  \"sample_count\": " +
             (facts.samples > 0 ? std::to_string(facts.samples) : "null") +
             ",\n  \"distinct_stacks\": " +
             std::to_string(s.distinct_stacks()) + ",\n  \"event\": " +
             JsonOrNull(facts.event) + ",\n  \"recordings\": [");
  for (size_t i = 0; i < facts.recordings.size(); ++i) {
    out->Write(i > 0 ? ",\n    " : "\n    ");
    WriteJsonRecording(facts.recordings[i].first, facts.recordings[i].second,
                       out);
  }
  out->Write(facts.recordings.empty() ? "]" : "\n  ]");
  out->Write(",\n  \"processes\": [");
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

// What the inputs say beside their stacks. The counts are sums of periods
// when perf input gave samples and the total is not their number (some
// period was above 1); folded stacks mixed in make the unit unknown, and
// the counts are then called samples, as for folded input alone, whatever
// --weight (`perf.weight_field`) says; with --off-cpu they are time
// blocked, in its unit.
// `total` is that of all the stacks folded, before --include/--exclude.
ReportFacts FactsOf(const FoldInputs& inputs,
                    const PerfDataFolder& recordings, const PerlNumber& total,
                    const PerfScriptOptions& perf) {
  ReportFacts facts;
  facts.event = inputs.event();
  facts.samples = inputs.perf_stats().samples;
  if (perf.off_cpu.enabled) {  // the switch-outs and CPU samples read
    const OffCpuStats& o = inputs.perf_stats().off_cpu;
    facts.samples = o.switch_outs + o.on_cpu_samples;
  }
  const FoldedStats& fs = inputs.folded_stats();
  bool folded = fs.lines > fs.invalid_lines;
  bool all_ones = total.is_integer() && total.uint_value() == facts.samples;
  facts.periods = facts.samples > 0 && !folded && !all_ones;
  if (facts.samples > 0 && !folded) facts.weight_field = perf.weight_field;
  facts.off_cpu_unit = OffCpuUnitAbbrev(perf.off_cpu);
  facts.on_off = perf.off_cpu.on_off;
  facts.recordings = recordings.recordings();
  return facts;
}

// The stacks of `trie` that `filter` keeps, as `transform` makes them,
// with their counts, in `*kept` (stacks made equal add up). Returns the
// total count of all the stacks of `trie`.
PerlNumber KeepStacks(const StackTrie& trie, const StackFilter& filter,
                      const StackTransform& transform, StringInterner* names,
                      StackTrie* kept) {
  std::vector<SymbolId> frames;
  std::string transformed;
  PerlNumber total;
  trie.Walk([&](NodeId node, std::string_view stack) {
    total.Add(trie.weight(node));
    if (!ShapeStackLine(filter, transform, stack, &transformed)) return;
    stack = transformed;
    frames.clear();
    InternFrames(stack, names, &frames);
    kept->Add(frames, trie.weight(node));
  });
  return total;
}

}  // namespace

CountUnit UnitOf(const ReportFacts& facts) {
  if (!facts.off_cpu_unit.empty()) {
    const std::string& u = facts.off_cpu_unit;
    double ns = u == "ms" ? 1e6 : u == "us" ? 1e3 : 1;
    std::string what = facts.on_off ? "time on and off the CPU (" : "time blocked (";
    return {what + u + ")", u, ns};
  }
  FoldFacts fold;
  fold.event = facts.event;
  fold.periods = facts.periods;
  fold.weight_field = facts.weight_field;
  if (fold.bytes()) return {"bytes", "bytes", 0};
  if (fold.nanoseconds()) return {"CPU time (ns)", "ns", 1};
  if (facts.periods) return {"period", "period", 0};
  return {"samples", "samples", 0};
}

void WriteReport(const ReportConfig& config, const ProfileSummary& summary,
                 const ReportFacts& facts, OutputSink* out) {
  switch (config.format) {
    case ReportFormat::kText:
      WriteText(config, summary, facts, out);
      break;
    case ReportFormat::kCsv:
      WriteCsv(config, summary, facts, out);
      break;
    case ReportFormat::kJson:
      WriteJson(config, summary, facts, out);
      break;
  }
}

int RunReport(const ReportConfig& config, OutputSink* out, const Diag& diag) {
  const FoldConfig& fold = config.fold;
  StackFilter filter;
  StackTransform transform;
  if (std::optional<int> exit =
          SelectStacks(fold, &filter, &transform, diag)) {
    return *exit;
  }
  std::string err;
  StringInterner names;
  StackTrie trie(&names);
  PerfDataFolder recordings(fold.symbols, fold.archive, fold.stats, diag);
  FoldInputs inputs(fold, &names, &trie, &recordings);
  if (!inputs.FoldAll(config.inputs, &err)) {
    diag.Error(err);
    return kExitDataError;
  }
  StringInterner kept_names;
  StackTrie kept(&kept_names);
  PerlNumber total;
  const bool selected = filter.active() || transform.active();
  if (selected) {
    total = KeepStacks(trie, filter, transform, &kept_names, &kept);
  }
  ProfileSummary summary(selected ? kept : trie);
  if (!selected) total = summary.total_samples();
  WriteReport(config, summary,
              FactsOf(inputs, recordings, total, fold.perf), out);
  if (std::optional<int> exit = FlushFailed(out, diag)) return *exit;
  WarnAboutFold(fold, inputs, diag);
  return kExitOk;
}

}  // namespace flamefold
