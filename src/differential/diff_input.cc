#include "differential/diff_input.h"

#include <memory>

#include "base/arena.h"
#include "collapse/fold_inputs.h"
#include "perfdata/perf_data_folder.h"
#include "collapse/fold_warnings.h"
#include "collapse/folded.h"
#include "collapse/input_kind.h"
#include "io/line_reader.h"

namespace flamefold {
namespace {

// Folded text, line by line as difffolded.pl reads it. A line without a
// count ("a;b", a blank line) is what Perl's failed match leaves: an empty
// stack with no count, which prints as " 0 0" (and we count it).
bool ReadFoldedSide(Input* in, int side, bool strip_hex,
                    const FoldConfig& fold, DiffTable* table,
                    DiffSideStats* stats, std::string* err) {
  const StackLimits& limits = fold.perf.limits;
  LineReader reader(in->source.get(), fold.max_line);
  std::string_view line;
  std::string scratch;
  for (;;) {
    LineReader::Result r = reader.Next(&line);
    if (r == LineReader::kEof) return true;
    if (r == LineReader::kError) {
      *err = in->name + ": " + reader.error();
      return false;
    }
    std::string_view stack, count;
    if (r == LineReader::kTooLong || !SplitFoldedLine(line, &stack, &count)) {
      if (stats->invalid_lines++ == 0) {
        stats->first_invalid = reader.line_number();
      }
      table->Add(side, "", PerlNumber());
      continue;
    }
    PerlNumber n = PerlNumber::Parse(count);
    stack = LimitFoldedStack(stack, limits, &stats->limits, &scratch);
    if (strip_hex) {
      table->Add(side, StripHexAddresses(stack), n);
    } else {
      table->Add(side, stack, n);
    }
  }
}

// perf script text or perf.data, folded as flamefold folds them with
// `fold` (FoldInputs: --jobs, the perf archive, perf.data's warnings under
// `diag`), then taken stack by stack like a folded file.
bool ReadPerfSide(Input* in, int side, bool strip_hex, const FoldConfig& fold,
                  const Diag& diag, DiffTable* table, DiffSideStats* stats,
                  std::string* err) {
  StringInterner names;
  PerfDataFolder recordings(fold.symbols, fold.archive, fold.stats, diag);
  FoldInputs inputs(fold, &names, /*trie=*/nullptr, &recordings);
  if (!inputs.AddOpened(in, err)) return false;
  inputs.Finish();
  if (!inputs.TimeRangeKeptSome(err)) return false;
  stats->perf = inputs.perf_stats();
  stats->event = inputs.event();
  stats->limits = inputs.limit_totals();
  stats->samples = inputs.total_samples();
  if (inputs.total_samples() == 0 && stats->perf.unrecognized_lines > 0) {
    *err = in->name + ": no samples found: " +
           std::to_string(stats->perf.unrecognized_lines) +
           " line(s) are neither perf script output nor folded stacks "
           "(first: " + stats->perf.first_unrecognized + ")";
    return false;
  }
  inputs.VisitStacks([&](std::string_view stack, const PerlNumber& weight,
                         uint64_t) {
    if (strip_hex) {
      table->Add(side, StripHexAddresses(stack), weight);
    } else {
      table->Add(side, stack, weight);
    }
  });
  return true;
}

}  // namespace

bool ReadDiffSide(const std::string& file, int side, bool strip_hex,
                  const FoldConfig& fold, const Diag& diag, DiffTable* table,
                  DiffSideStats* stats, std::string* err) {
  Input in;
  if (!OpenInput(file, &in, err)) return false;
  switch (in.kind) {
    case ContentKind::kEmpty:
      return true;
    case ContentKind::kFolded:
    case ContentKind::kNeither:  // read as difffolded.pl reads text
      stats->folded = true;
      return ReadFoldedSide(&in, side, strip_hex, fold, table, stats, err);
    case ContentKind::kPerfData:
    case ContentKind::kPerfDataPipe:
    case ContentKind::kPerfScript:
      return ReadPerfSide(&in, side, strip_hex, fold, diag, table, stats,
                          err);
  }
  return true;
}

void WarnAboutDiffSide(const std::string& file, const DiffSideStats& s,
                       const FoldConfig& fold, const Diag& diag) {
  if (s.invalid_lines > 0) {
    diag.Warning(Where(file, s.first_invalid) +
                 std::to_string(s.invalid_lines) +
                 " line(s) without a 'STACK COUNT' shape (this is the "
                 "first) were taken as an empty stack with no count, as "
                 "difffolded.pl takes them");
  }
  Diag side = diag;  // what perf script folding says, about this file
  side.set_context(file);
  WarnAboutPerfScript(fold, s.perf, s.event, side);
  if (s.limits.any()) {
    diag.Warning(LimitWarning(file, fold.perf.limits, s.limits));
  }
  if (!s.folded) WarnIfNoSamples(fold, s.perf, s.samples, side);
}

}  // namespace flamefold
