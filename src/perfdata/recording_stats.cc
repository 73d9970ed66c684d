#include "perfdata/recording_stats.h"

#include <algorithm>

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;
namespace {

constexpr int kFreqBit = 10;  // perf_event_attr's flag bit
constexpr uint64_t kSwDummy = 9;  // PERF_COUNT_SW_DUMMY

}  // namespace

std::string UnwindStopSummary(const PerfDataStats& stats) {
  std::string out = "DWARF unwinding ended early or left the CFI in " +
                    std::to_string(stats.unwind_stopped) + " of " +
                    std::to_string(stats.unwound) +
                    " unwound sample(s), so their stacks may be short or "
                    "wrong:";
  UnwindStop reason = UnwindStop::kNone;
  for (const auto& [key, count] : stats.unwind_stops) {
    if (key.first == reason) {
      out += ", ";
    } else {
      out += reason == UnwindStop::kNone ? " " : "; ";
      reason = key.first;
      out += UnwindStopName(reason);
      out += ": ";
    }
    out += key.second + " (" + std::to_string(count) + ")";
  }
  return out;
}

void WarnAboutPerfData(const std::string& file, const PerfDataStats& stats,
                       const Diag& diag) {
  for (const std::string& w : stats.warnings) diag.Warning(w);
  if (stats.dwarf_chains > 0) {
    diag.Warning(file + ": " + std::to_string(stats.dwarf_chains) +
                 " sample(s) recorded with --call-graph dwarf: user stacks "
                 "are not unwound");
  }
  if (!stats.truncated.empty()) {
    diag.Warning(file + ": input cut short: " + stats.truncated +
                 "; folded up to the last whole record");
  }
}

void TakeRecordCounts(const RecordCounts& counts, PerfDataStats* stats) {
  stats->records = counts.records;
  stats->lost_samples = counts.lost_samples;
  stats->lost_samples_recorded = counts.lost_samples_recorded;
  stats->lost_records = counts.lost_records;
  stats->lost_chunks = counts.lost_chunks;
}

void TakeRecordingFacts(const PerfDataInfo& info, PerfDataStats* stats) {
  stats->hostname = info.hostname;
  stats->perf_version = info.perf_version;
  stats->os_release = info.os_release;
  stats->arch = info.arch;
  stats->cmdline.clear();
  for (const std::string& arg : info.cmdline) {
    if (!stats->cmdline.empty()) stats->cmdline += ' ';
    stats->cmdline += arg;
  }
}

void CountEvents(const std::vector<PerfAttr>& attrs,
                 const std::vector<uint64_t>& samples, PerfDataStats* stats) {
  for (size_t i = 0; i < attrs.size(); ++i) {
    const PerfAttr& a = attrs[i];
    uint64_t n = i < samples.size() ? samples[i] : 0;
    if (n == 0 && a.type == abi::kTypeSoftware && a.config == kSwDummy) {
      continue;
    }
    stats->events.push_back({a.name, a.flag(kFreqBit), a.sample_period, n});
  }
}

void CountNoSymbolFrames(const std::map<std::string, uint64_t>& by_dso,
                         PerfDataStats* stats) {
  auto& dsos = stats->no_symbol_dsos;
  dsos.assign(by_dso.begin(), by_dso.end());
  stats->frames_no_symbol = 0;
  for (const auto& [name, n] : dsos) stats->frames_no_symbol += n;
  std::sort(dsos.begin(), dsos.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
}

}  // namespace flamefold
