#include "flamefold/diff_input.h"

#include <memory>

#include "flamefold/arena.h"
#include "flamefold/folded.h"
#include "flamefold/input.h"
#include "flamefold/line_reader.h"
#include "flamefold/perf_data_fold.h"
#include "flamefold/stack_trie.h"

namespace flamefold {
namespace {

// Folded text, line by line as difffolded.pl reads it. A line without a
// count ("a;b", a blank line) is what Perl's failed match leaves: an empty
// stack with no count, which prints as " 0 0" (and we count it).
bool ReadFoldedSide(Input* in, int side, bool strip_hex,
                    const StackLimits& limits, DiffTable* table,
                    DiffSideStats* stats, std::string* err) {
  LineReader reader(in->source.get(),
                      limits.LineLimit(LineReader::kDefaultMaxLine));
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

// perf script text or perf.data, folded as flamefold folds them
// (stackcollapse-perf.pl's defaults), then taken line by line like a folded
// file.
bool ReadPerfSide(Input* in, int side, bool strip_hex,
                  const SymbolOptions& symbols, const StackLimits& limits,
                  DiffTable* table, DiffSideStats* stats, std::string* err) {
  StringInterner names;
  StackTrie trie(&names);
  PerfScriptOptions options;  // stackcollapse-perf.pl's defaults
  options.limits = limits;
  PerfScriptParser parser(options, &names, &trie);
  std::string why;
  if (in->kind == ContentKind::kPerfData) {
    if (!FoldPerfData(in->name, in->source.get(), symbols, &parser, 0,
                      &stats->perf_data, err)) {
      return false;
    }
  } else {
    LineReader reader(in->source.get(),
                      limits.LineLimit(LineReader::kDefaultMaxLine));
    if (!parser.Feed(&reader, in->name, &why)) {
      *err = reader.error().empty() ? why : in->name + ": " + why;
      return false;
    }
  }
  parser.Finish();
  stats->perf = parser.stats();
  stats->limits = stats->perf.limits;
  if (trie.total_samples() == 0 && stats->perf.unrecognized_lines > 0) {
    *err = in->name + ": no samples found: " +
           std::to_string(stats->perf.unrecognized_lines) +
           " line(s) are neither perf script output nor folded stacks "
           "(first: " + stats->perf.first_unrecognized + ")";
    return false;
  }
  trie.Walk([&](NodeId node, std::string_view stack) {
    if (strip_hex) {
      table->Add(side, StripHexAddresses(stack), trie.weight(node));
    } else {
      table->Add(side, stack, trie.weight(node));
    }
  });
  return true;
}

// The input layer calls text perf script output as soon as one line is not
// "STACK COUNT"; difffolded.pl reads such a folded file anyway (the odd
// line becomes an empty stack). So text is perf script output here only if
// its first 64 KiB hold a line perf script prints: a stack frame
//       7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)
// or a sample header with its event
//   java 12688 [002] 6544038.708352: 235 cpu-clock:
bool LooksLikePerfScript(Input* in, std::string* err) {
  std::string head;
  if (!ReadFully(in->source.get(), 64 * 1024, &head, err)) {
    *err = in->name + ": " + *err;
    return false;
  }
  bool perf = false;
  bool whole = head.size() < 64 * 1024;  // the last line is complete
  size_t pos = 0;
  while (!perf && pos < head.size()) {
    size_t nl = head.find('\n', pos);
    if (nl == std::string::npos) {
      if (!whole) break;  // a cut-off line says nothing
      nl = head.size();
    }
    std::string_view line(head.data() + pos, nl - pos);
    pos = nl + 1;
    PerfScriptParser::FrameFields frame;
    PerfScriptParser::HeaderFields header;
    PerfScriptParser::EventFields event;
    perf = (!line.empty() && (line[0] == ' ' || line[0] == '\t') &&
            PerfScriptParser::MatchFrameLine(line, &frame)) ||
           (PerfScriptParser::MatchHeaderLine(line, false, &header) &&
            PerfScriptParser::MatchEvent(line, &event));
  }
  in->source = std::make_unique<PrefixedSource>(std::move(head),
                                                std::move(in->source));
  if (!perf) in->kind = ContentKind::kFolded;
  return true;
}

}  // namespace

bool ReadDiffSide(const std::string& file, int side, bool strip_hex,
                  const SymbolOptions& symbols, const StackLimits& limits,
                  DiffTable* table, DiffSideStats* stats, std::string* err) {
  Input in;
  if (!OpenInput(file, &in, err)) return false;
  if (in.kind == ContentKind::kPerfScript && !LooksLikePerfScript(&in, err)) {
    return false;
  }
  switch (in.kind) {
    case ContentKind::kEmpty:
      return true;
    case ContentKind::kFolded:
      return ReadFoldedSide(&in, side, strip_hex, limits, table, stats, err);
    case ContentKind::kPerfData:
    case ContentKind::kPerfScript:
      return ReadPerfSide(&in, side, strip_hex, symbols, limits, table, stats,
                          err);
  }
  return true;
}

void WarnAboutDiffSide(const std::string& file, const DiffSideStats& s,
                       const StackLimits& limits, const Diag& diag) {
  if (s.invalid_lines > 0) {
    diag.Warning(Where(file, s.first_invalid) +
                 std::to_string(s.invalid_lines) +
                 " line(s) without a 'STACK COUNT' shape (this is the "
                 "first) were taken as an empty stack with no count, as "
                 "difffolded.pl takes them");
  }
  if (s.perf.unrecognized_lines > 0) {
    diag.Warning(std::to_string(s.perf.unrecognized_lines) +
                 " line(s) not recognised as perf script output were "
                 "skipped (first: " + s.perf.first_unrecognized + ")");
  }
  for (const std::string& w : s.perf_data.warnings) diag.Warning(w);
  if (s.perf_data.dwarf_chains > 0) {
    diag.Warning(file + ": " + std::to_string(s.perf_data.dwarf_chains) +
                 " sample(s) recorded with --call-graph dwarf: user stacks "
                 "are not unwound");
  }
  if (!s.perf_data.truncated.empty()) {
    diag.Warning(file + ": input cut short: " + s.perf_data.truncated +
                 "; folded up to the last whole record");
  }
  if (s.perf.samples_other_event > 0) {
    diag.Warning(file + ": kept only the first event's samples; " +
                 std::to_string(s.perf.samples_other_event) +
                 " sample(s) of '" + s.perf.other_event +
                 "' were skipped (use flamefold --event-filter)");
  }
  if (s.limits.any()) diag.Warning(LimitWarning(file, limits, s.limits));
}

}  // namespace flamefold
