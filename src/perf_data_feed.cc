// FoldPerfData: perf.data rendered as perf script text, fed to the perf
// script parser in whole samples. Kept apart from the replay so that the
// fuzz target links the reader and the replay alone.
#include "flamefold/line_reader.h"
#include "flamefold/perf_data_fold.h"

namespace flamefold {

bool FoldPerfData(const std::string& name, ByteSource* src,
                  const SymbolOptions& options, PerfScriptParser* parser,
                  uint64_t input_index, PerfDataStats* stats,
                  std::string* err, const std::string& map_path) {
  uint64_t lines = 0;
  std::string why;
  auto emit = [&](std::string_view text) {
    StringSource chunk{std::string(text)};
    LineReader reader(&chunk, text.size() + 1);
    if (!parser->Feed(&reader, name, &why, lines, input_index)) return false;
    lines += reader.line_number();
    return true;
  };
  if (!RenderPerfData(name, src, options, emit, stats, err, false,
                      map_path)) {
    if (!why.empty()) *err = why;
    return false;
  }
  return true;
}

}  // namespace flamefold
