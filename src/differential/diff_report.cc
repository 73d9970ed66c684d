#include "differential/diff_report.h"

#include <cstdio>
#include <map>

#include "base/diag.h"
#include "report/report_format.h"

namespace flamefold {

std::vector<FunctionChange> CompareProfiles(const ProfileSummary& before,
                                            const ProfileSummary& after) {
  std::map<std::string, FunctionChange> by_name;
  for (const FunctionStat& f : before.functions()) {
    FunctionChange& c = by_name[f.name];
    c.name = f.name;
    c.self_before = Percent(f.self, before.total_samples());
    c.total_before = Percent(f.total, before.total_samples());
  }
  for (const FunctionStat& f : after.functions()) {
    FunctionChange& c = by_name[f.name];
    c.name = f.name;
    c.self_after = Percent(f.self, after.total_samples());
    c.total_after = Percent(f.total, after.total_samples());
  }
  std::vector<FunctionChange> changes;
  for (auto& [name, c] : by_name) {
    if (c.self_delta() != 0 || c.total_delta() != 0) changes.push_back(c);
  }
  // Regressions (something grew) by growth, then the rest by how much
  // they shrank; std::stable_sort keeps the map's name order for ties.
  std::stable_sort(changes.begin(), changes.end(),
                   [&](const FunctionChange& a, const FunctionChange& b) {
                     bool ga = a.growth() > 0, gb = b.growth() > 0;
                     if (ga != gb) return ga;
                     if (ga) return a.growth() > b.growth();
                     return std::min(a.self_delta(), a.total_delta()) <
                            std::min(b.self_delta(), b.total_delta());
                   });
  return changes;
}

std::vector<FunctionChange> Regressions(
    const std::vector<FunctionChange>& changes, double points) {
  std::vector<FunctionChange> out;
  for (const FunctionChange& c : changes) {
    if (c.self_delta() > points || c.total_delta() > points) out.push_back(c);
  }
  return out;
}

void WriteDiffReport(const ProfileSummary& before,
                     const ProfileSummary& after,
                     const std::vector<FunctionChange>& changes, size_t top,
                     OutputSink* out) {
  out->Write("Samples: before " + WithThousands(before.total_samples()) +
             ", after " + WithThousands(after.total_samples()) + "\n");
  out->Write("Shares in % of each profile's samples; changes in percentage "
             "points, regressions first.\n\n");
  out->Write("  self%:  before    after   change    total%:  before    after"
             "   change  function\n");
  size_t rows = top == 0 ? changes.size() : std::min(top, changes.size());
  char buf[160];
  for (size_t i = 0; i < rows; ++i) {
    const FunctionChange& c = changes[i];
    std::snprintf(buf, sizeof buf, "        %8s %8s %8s           %8s %8s %8s  ",
                  FormatPercent(c.self_before).c_str(),
                  FormatPercent(c.self_after).c_str(),
                  FormatPoints(c.self_delta()).c_str(),
                  FormatPercent(c.total_before).c_str(),
                  FormatPercent(c.total_after).c_str(),
                  FormatPoints(c.total_delta()).c_str());
    out->Write(buf);
    out->Write(Printable(c.name, 4096));
    out->Put('\n');
  }
  if (changes.empty()) out->Write("(no function's share changed)\n");
  if (rows < changes.size()) {
    std::snprintf(buf, sizeof buf, "(%zu more; see --top)\n",
                  changes.size() - rows);
    out->Write(buf);
  }
}

}  // namespace flamefold
