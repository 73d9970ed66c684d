// libFuzzer target for folded text: ReadFolded over the whole input (small
// chunks, a small line limit) and SplitFoldedLine on every line, checking
// what it promises: the count is digits with at most one '.', not first,
// and the stack plus one white-space character plus the count is the line;
// and that no stack read is past the (small) stack limits.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/string_interner.h"
#include "io/byte_source.h"
#include "collapse/folded.h"
#include "io/line_reader.h"
#include "collapse/stack_limits.h"
#include "collapse/stack_trie.h"

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

// What the limits promise (stack_limits.h): no more than max_depth frames,
// no frame name longer than max_frame bytes.
void CheckLimits(std::string_view line, const flamefold::StackLimits& l) {
  size_t frames = 0;
  size_t pos = 0;
  for (;;) {
    size_t semi = line.find(';', pos);
    size_t end = semi == std::string_view::npos ? line.size() : semi;
    if (end - pos > l.max_frame) abort();
    ++frames;
    if (semi == std::string_view::npos) break;
    pos = semi + 1;
  }
  if (frames > l.max_depth) abort();
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
  flamefold::StackLimits limits;
  if (size % 3 != 0) {  // small limits, to reach the cutting
    limits.max_depth = 1 + size % 5;
    limits.max_frame = 4 + size % 7;
  }
  std::string err;
  flamefold::ReadFolded(&reader, &names, &trie, &stats, &err, limits);
  size_t bytes = 0;
  trie.Walk([&](flamefold::NodeId, std::string_view line) {
    bytes += line.size();
    CheckLimits(line, limits);
  });
  return 0;
}
