// Folded stacks: "comm;frame;...;frame COUNT" lines.
#ifndef FLAMEFOLD_COLLAPSE_FOLDED_H_
#define FLAMEFOLD_COLLAPSE_FOLDED_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/string_interner.h"
#include "io/line_reader.h"
#include "base/perl_number.h"
#include "collapse/stack_limits.h"
#include "collapse/stack_trie.h"

namespace flamefold {

/// Splits a folded line as flamegraph.pl and difffolded.pl do with
/// /^(.*)\s+?(\d+(?:\.\d*)?)$/: the count is the trailing run of digits
/// (with at most one '.', not first), which must follow one white-space
/// character; the stack is everything before that character, so "a;b  5"
/// has the stack "a;b " (trailing space kept, as Perl keeps it).
/// Accepted: "java;main;foo 12", "a;b 2.5", "a;b 3.", " 7" (empty stack).
/// Returns false for lines without such a count ("a;b", "a;b 1e3", "").
bool SplitFoldedLine(std::string_view line, std::string_view* stack,
                     std::string_view* count);

/// Appends the ids of the ';'-separated frames of `stack` ("a;b;c") to
/// `*frames`, interning each name ("" for an empty piece).
void InternFrames(std::string_view stack, StringInterner* names,
                  std::vector<SymbolId>* frames);

struct FoldedStats {
  uint64_t lines = 0;
  uint64_t invalid_lines = 0;
  uint64_t first_invalid_line = 0;  // line number of the first one, or 0
  std::string first_invalid_file;   // its input, when the reader knows it
  LimitStats limits;                // stacks and names cut to `limits`
};

/// "FILE:LINE" of the first invalid line ("line LINE" when the file is not
/// known), for messages.
std::string FirstInvalidWhere(const FoldedStats& stats);

/// Reads folded lines into `trie` (frames interned in `names`), summing the
/// counts of equal stacks. Blank lines and lines that do not parse are
/// counted in `stats`; stacks are cut to `limits` (see stack_limits.h).
/// Returns false on a read error (in `*err`).
bool ReadFolded(LineReader* reader, StringInterner* names, SampleSink* sink,
                FoldedStats* stats, std::string* err,
                const StackLimits& limits = StackLimits());

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_FOLDED_H_
