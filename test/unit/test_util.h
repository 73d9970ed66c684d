// Helpers for unit tests: run a stage over in-memory text.
#ifndef FLAMEFOLD_TEST_UTIL_H_
#define FLAMEFOLD_TEST_UTIL_H_

#include <string>

#include "base/string_interner.h"
#include "io/line_reader.h"
#include "base/output.h"
#include "collapse/perf_script.h"
#include "collapse/stack_trie.h"

namespace flamefold::testing {

/// Folded output ("stack count\n" lines, sorted) of the trie.
inline std::string FoldedText(const StackTrie& trie) {
  std::string out;
  trie.Walk([&](NodeId n, std::string_view line) {
    out.append(line);
    out += ' ';
    trie.weight(n).AppendTo(&out);
    out += '\n';
  });
  return out;
}

/// Runs the perf script parser over `text` (fed in `chunk`-byte reads).
inline std::string FoldPerfScript(const std::string& text,
                                  const PerfScriptOptions& options = {},
                                  PerfScriptStats* stats = nullptr,
                                  size_t chunk = SIZE_MAX) {
  StringInterner names;
  StackTrie trie(&names);
  PerfScriptParser parser(options, &names, &trie);
  StringSource src(text, chunk);
  LineReader reader(&src);
  std::string err;
  bool ok = parser.Feed(&reader, "test", &err);
  parser.Finish();
  if (stats) *stats = parser.stats();
  if (!ok) return "ERROR: " + err;
  return FoldedText(trie);
}

}  // namespace flamefold::testing

#endif  // FLAMEFOLD_TEST_UTIL_H_
