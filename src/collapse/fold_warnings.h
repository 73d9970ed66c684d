// What folding lost or changed, said once each as warnings at the end of a
// run, in the same words by every tool that folds (flamefold, flamereport,
// flamediff, flamebatch), under the running tool's name (the Diag given).
#ifndef FLAMEFOLD_COLLAPSE_FOLD_WARNINGS_H_
#define FLAMEFOLD_COLLAPSE_FOLD_WARNINGS_H_

#include <string>

#include "base/diag.h"
#include "collapse/fold_config.h"
#include "collapse/perf_script.h"

namespace flamefold {

class FoldInputs;

/// Warns, once each, about what folding perf script text lost or changed:
/// lines skipped, other events, an --event-filter that matched nothing
/// (naming the events there are), the Perl script's quirks (unless
/// --modern). `event` is the event kept.
void WarnAboutPerfScript(const FoldConfig& config, const PerfScriptStats& s,
                         const std::string& event, const Diag& diag);

/// "no samples in the input" when `samples` (those folded) is 0, unless an
/// --event-filter kept none of those there were (WarnAboutPerfScript says
/// so, naming the events).
void WarnIfNoSamples(const FoldConfig& config, const PerfScriptStats& s,
                     uint64_t samples, const Diag& diag);

/// WarnAboutPerfScript for all of `inputs`, then folded lines skipped,
/// stacks cut to the limits, and an empty result: what every tool that
/// folds with FoldInputs says once its output is written.
void WarnAboutFold(const FoldConfig& config, const FoldInputs& inputs,
                   const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_FOLD_WARNINGS_H_
