// libFuzzer target for the perf script text parser: the bytes after the
// first are parsed as `perf script` output with the options the first
// byte's bits pick (and, by the input's size, --off-cpu with a unit, a
// state filter, a shortest wait and --on-off), then the folded profile is
// walked as flamefold prints it. Any input must end in stacks, counted
// warnings or an error message, never a crash, a hang or memory out of
// proportion to the input; and no stack or frame name past the limits
// (small ones, picked by the size).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/string_interner.h"
#include "io/byte_source.h"
#include "io/line_reader.h"
#include "collapse/perf_script.h"
#include "collapse/stack_limits.h"
#include "collapse/stack_trie.h"

namespace {

// What the limits promise (stack_limits.h): no stack of more than
// max_depth frames, no frame name longer than max_frame bytes. Counted on
// the trie's path, not on the ';' of the folded line: with --srcline a
// frame keeps the ';' of its source line text, as the Perl script keeps it
// (a finding of this target: testdata/bad/srcline-semicolons.perf-script.txt).
void CheckLimits(const flamefold::StackTrie& trie, flamefold::NodeId node,
                 const flamefold::StackLimits& l) {
  size_t frames = 0;
  for (; node != flamefold::StackTrie::kRoot; node = trie.parent(node)) {
    if (trie.names().Get(trie.frame(node)).size() > l.max_frame) abort();
    ++frames;
  }
  if (frames > l.max_depth) abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t bits = data[0];
  flamefold::PerfScriptOptions options;
  options.include_pid = bits & 1;
  options.include_tid = bits & 2;
  options.annotate_kernel = bits & 4;
  options.annotate_jit = bits & 8;
  options.include_addrs = bits & 16;
  options.srcline = bits & 32;
  options.modern = bits & 64;
  if (bits & 128) options.event_filter = "cycles";
  if (size % 4 == 1 && !options.srcline) {  // as the tools allow it
    options.off_cpu.enabled = true;
    options.off_cpu.unit_ns = size % 8 == 1 ? 1 : 1000;
    if (size % 16 == 5) options.off_cpu.states = {"S", "R"};
    if (size % 32 == 9) options.off_cpu.min_ns = 1000;
    options.off_cpu.on_off = size % 64 == 17;
  }
  if (size % 3 != 0) {  // small limits, to reach the cutting
    options.limits.max_depth = 1 + size % 5;
    options.limits.max_frame = 4 + size % 7;
  }
  // Small chunks and a small line limit reach the reader's buffer edges and
  // its overlong-line path with short inputs.
  flamefold::StringSource src(
      std::string(reinterpret_cast<const char*>(data) + 1, size - 1),
      1 + bits % 61);
  flamefold::LineReader reader(&src, 64 + bits * 4);
  flamefold::StringInterner names;
  flamefold::StackTrie trie(&names);
  flamefold::PerfScriptParser parser(options, &names, &trie);
  std::string err;
  if (parser.Feed(&reader, "fuzz", &err) &&
      parser.fold()->EndInput("fuzz", &err)) {
    parser.Finish();
  }
  size_t bytes = 0;
  trie.Walk([&](flamefold::NodeId node, std::string_view line) {
    bytes += line.size();
    CheckLimits(trie, node, options.limits);
  });
  return 0;
}
