// Reading one side of a flamediff: folded stacks as difffolded.pl reads
// them, or perf script text and perf.data folded as flamefold folds them.
#ifndef FLAMEFOLD_DIFFERENTIAL_DIFF_INPUT_H_
#define FLAMEFOLD_DIFFERENTIAL_DIFF_INPUT_H_

#include <cstdint>
#include <string>

#include "base/diag.h"
#include "collapse/fold_config.h"
#include "collapse/perf_script.h"
#include "collapse/stack_limits.h"
#include "differential/diff_table.h"

namespace flamefold {

struct DiffSideStats {
  uint64_t invalid_lines = 0;  // no "STACK COUNT": an empty stack, 0
  uint64_t first_invalid = 0;  // the first one's line number
  PerfScriptStats perf;        // when the input was perf script text
  std::string event;           // the event its samples were kept of
  LimitStats limits;           // stacks and names cut to the limits
  bool folded = false;         // read as folded text
  uint64_t samples = 0;        // else: the samples folded (none if empty)
};

/// Opens `file` ("-" is stdin) and adds its stacks to column `side` of
/// `table`, with hex addresses stripped when `strip_hex` (-s). Folded text
/// is read line by line as difffolded.pl reads it, a line without a count
/// giving the empty stack; perf script text and perf.data are folded as
/// flamefold folds them, through FoldInputs with `fold`
/// (stackcollapse-perf.pl's defaults unless told otherwise; fold.jobs
/// threads). Every stack is cut to fold.perf.limits and
/// lines to fold.max_line (see stack_limits.h). False with `*err`
/// ("FILE: ...") when the input cannot be read or holds lines but no
/// samples. A perf.data side reads its `perf archive` as flamefold does
/// (--archive, or FILE.tar.bz2 beside it; its note and warnings through
/// `diag`).
bool ReadDiffSide(const std::string& file, int side, bool strip_hex,
                  const FoldConfig& fold, const Diag& diag, DiffTable* table,
                  DiffSideStats* stats, std::string* err);

/// Warns, once each, about what reading `file` skipped or changed, as
/// flamefold warns about what it folds; and, as flamefold does, that an
/// input that is not folded text (empty, perf script text, perf.data)
/// held no sample, unless the event filter said why.
void WarnAboutDiffSide(const std::string& file, const DiffSideStats& stats,
                       const FoldConfig& fold, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_DIFFERENTIAL_DIFF_INPUT_H_
