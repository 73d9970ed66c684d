// The flamereport engine: a hotspot report of a profile (anything
// flamefold reads) as text, CSV or JSON. Its command line is
// cli/flamereport_cli.h.
#ifndef FLAMEFOLD_REPORT_REPORT_H_
#define FLAMEFOLD_REPORT_REPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "base/diag.h"
#include "collapse/fold_config.h"
#include "base/output.h"
#include "perfdata/recording_stats.h"
#include "report/report_stats.h"
#include "collapse/stack_limits.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

enum class ReportFormat { kText, kCsv, kJson };

struct ReportConfig {
  size_t top = 10;  // --top N: functions per table (0: all)
  ReportFormat format = ReportFormat::kText;
  int tree_depth = 2;      // levels of callees under each function
  size_t tree_width = 3;   // callees shown per level
  // How inputs are folded: flamefold's options, the limits
  // (fold.perf.limits, fold.max_line), --jobs, --include, --exclude and
  // the stack transforms.
  FoldConfig fold;
  std::string output;      // -o FILE; "" is stdout
  bool quiet = false;      // -q: no warnings
  std::vector<std::string> inputs;  // none: stdin
};

/// What a report says about its input beside the stacks.
struct ReportFacts {
  std::string event;  // the event kept; "" when unknown
  /// The samples of perf input (perf script text, perf.data) folded; 0
  /// when there were none (folded stacks carry no sample numbers).
  uint64_t samples = 0;
  /// The counts are sums of sample periods, not numbers of samples.
  bool periods = false;
  /// --weight's field ("": none): the counts are sums of its values (bytes
  /// when it names them: FoldFacts::bytes).
  std::string weight_field;
  /// The unit of off-CPU time ("us", "ns", "ms") when the counts are the
  /// time threads spent blocked (flamefold --off-cpu); "" otherwise.
  std::string off_cpu_unit;
  /// With off_cpu_unit: the counts hold CPU time too (flamefold --on-off).
  bool on_off = false;
  /// Each perf.data input with its recording's facts.
  std::vector<std::pair<std::string, PerfDataStats>> recordings;
};

/// What the counts of a report are, in the words the report uses.
struct CountUnit {
  /// For headings: "samples", "period", "CPU time (ns)", "bytes",
  /// "time blocked (us)", "time on and off the CPU (us)".
  std::string heading;
  /// For CSV column names and the JSON "unit": "samples", "period", "ns",
  /// "bytes", "us".
  std::string column;
  /// A time unit's nanoseconds (1 for ns, 1000 for us...); 0 when the
  /// counts are no time.
  double ns_per_count = 0;
};

/// The unit of `facts`' counts: off-CPU time, then bytes of a --weight
/// field, then the nanoseconds of cpu-clock and task-clock periods, then
/// other periods; else samples.
CountUnit UnitOf(const ReportFacts& facts);

/// Writes the report of `summary`.
void WriteReport(const ReportConfig& config, const ProfileSummary& summary,
                 const ReportFacts& facts, OutputSink* out);

/// Reads the inputs and writes the report. Returns the exit status.
int RunReport(const ReportConfig& config, OutputSink* out, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_REPORT_REPORT_H_
