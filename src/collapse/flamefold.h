// The flamefold engine: every input folded (FoldInputs) and written as one
// "STACK COUNT" line per distinct stack, sorted, as stackcollapse-perf.pl
// writes them, or in another format (collapse/stack_writer.h). Its command line is cli/flamefold_cli.h.
#ifndef FLAMEFOLD_COLLAPSE_FLAMEFOLD_H_
#define FLAMEFOLD_COLLAPSE_FLAMEFOLD_H_

#include "base/diag.h"
#include "base/output.h"
#include "collapse/fold_config.h"
#include "collapse/recording_folder.h"

namespace flamefold {

/// Folds every input of `config` into `out`, keeping the stacks that pass
/// --include/--exclude, as the transforms make them, and writes them with
/// config.make_writer (folded lines unless --format says otherwise); recordings (perf.data) go through `recordings`
/// (perfdata's PerfDataFolder). Returns the exit status; messages (and
/// --stats) go through `diag`, under its tool's name.
int RunFold(const FoldConfig& config, RecordingFolder* recordings,
            OutputSink* out, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_FLAMEFOLD_H_
