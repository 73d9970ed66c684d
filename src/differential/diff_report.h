// flamediff --report: which functions' share of the samples changed most
// between two profiles, in percentage points of each profile's total.
#ifndef FLAMEFOLD_DIFFERENTIAL_DIFF_REPORT_H_
#define FLAMEFOLD_DIFFERENTIAL_DIFF_REPORT_H_

#include <algorithm>
#include <string>
#include <vector>

#include "base/output.h"
#include "report/report_stats.h"

namespace flamefold {

struct FunctionChange {
  std::string name;
  double self_before = 0, self_after = 0;    // % of each profile's total
  double total_before = 0, total_after = 0;
  double self_delta() const { return self_after - self_before; }
  double total_delta() const { return total_after - total_before; }
  /// The larger growth of the two (negative when both shrank).
  double growth() const { return std::max(self_delta(), total_delta()); }
};

/// Every function of either profile whose self or total share changed:
/// regressions first (largest growth first), then improvements (largest
/// shrinking first); ties by name.
std::vector<FunctionChange> CompareProfiles(const ProfileSummary& before,
                                            const ProfileSummary& after);

/// The changes whose self or total share grew by more than `points`.
std::vector<FunctionChange> Regressions(
    const std::vector<FunctionChange>& changes, double points);

/// Writes the report table: a header, then up to `top` rows (0: all).
void WriteDiffReport(const ProfileSummary& before,
                     const ProfileSummary& after,
                     const std::vector<FunctionChange>& changes, size_t top,
                     OutputSink* out);

}  // namespace flamefold

#endif  // FLAMEFOLD_DIFFERENTIAL_DIFF_REPORT_H_
