// libFuzzer target for folded text: ReadFolded over the whole input (small
// chunks, a small line limit) and SplitFoldedLine on every line, checking
// what it promises: the count is digits with at most one '.', not first,
// and the stack plus one white-space character plus the count is the line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "flamefold/arena.h"
#include "flamefold/byte_source.h"
#include "flamefold/folded.h"
#include "flamefold/line_reader.h"
#include "flamefold/stack_trie.h"

namespace {

void CheckSplit(std::string_view line) {
  std::string_view stack, count;
  if (!flamefold::SplitFoldedLine(line, &stack, &count)) return;
  if (count.empty() || count[0] == '.') abort();
  int dots = 0;
  for (char c : count) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      abort();
    }
  }
  if (dots > 1) abort();
  if (stack.size() + 1 + count.size() != line.size()) abort();
  if (line.substr(0, stack.size()) != stack) abort();
  if (line.substr(line.size() - count.size()) != count) abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    CheckSplit(std::string_view(text).substr(start, nl - start));
    start = nl + 1;
  }
  flamefold::StringSource src(std::move(text), 1 + size % 37);
  flamefold::LineReader reader(&src, 256);
  flamefold::StringInterner names;
  flamefold::StackTrie trie(&names);
  flamefold::FoldedStats stats;
  std::string err;
  flamefold::ReadFolded(&reader, &names, &trie, &stats, &err);
  size_t bytes = 0;
  trie.Walk([&](flamefold::NodeId, std::string_view line) {
    bytes += line.size();
  });
  return 0;
}
