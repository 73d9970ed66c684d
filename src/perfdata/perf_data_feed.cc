// FoldPerfData: perf.data folded by the perf script parser. Without
// --srcline and --inline the replay hands it each sample's lines
// (ReplayIntoParser); with them it reads the rendered text, in whole
// samples. Kept apart from the replay so that the fuzz target links the
// reader and the replay alone.
//
// For the text, the replay (reading, symbols, text) and the parsing run on
// two threads joined by a small bounded queue of text chunks, as `perf
// script | stackcollapse-perf.pl` runs as two processes; memory stays at a
// few chunks whatever the input size.
#include <optional>
#include <string>
#include <thread>

#include "base/bounded_queue.h"
#include "io/line_reader.h"
#include "perfdata/perf_data_fold.h"

namespace flamefold {
namespace {

// Chunks of text between the replay and the parser; their buffers go back
// through `spare` for reuse: fresh megabyte buffers would each cost page
// faults and an munmap, more than the copying itself.
constexpr size_t kQueuedChunks = 4;

}  // namespace

bool FoldPerfData(const std::string& name, ByteSource* src,
                  const SymbolOptions& options, PerfScriptParser* parser,
                  uint64_t input_index, PerfDataStats* stats,
                  std::string* err) {
  const PerfScriptOptions& po = parser->options();
  if (!po.srcline && !po.inliner) {
    return ReplayIntoParser(name, src, options, parser, input_index, stats,
                            err);
  }
  // --srcline reads the line after each frame (and a frame line when a
  // frame has no source line), --inline each frame's address: those read
  // the text.
  BoundedQueue<std::string> queue(kQueuedChunks);
  BoundedQueue<std::string> spare(kQueuedChunks + 2);
  std::string why;  // the parser's error, set by the parsing thread
  std::thread parsing([&] {
    uint64_t lines = 0;
    while (std::optional<std::string> text = queue.Pop()) {
      LineReader reader(*text);  // in place: the chunk holds whole samples
      if (!parser->Feed(&reader, name, &why, lines, input_index)) {
        queue.Stop();
        return;
      }
      lines += reader.line_number();
      text->clear();
      spare.TryPush(&*text);
    }
  });
  // Queues the buffer of `*text` and leaves a spare one (or an empty
  // string) in its place: no copy. False once the parser has stopped.
  ChunkSink take = [&](std::string* text) {
    if (!queue.Push(text)) return false;
    text->clear();
    if (std::optional<std::string> buffer = spare.TryPop()) text->swap(*buffer);
    return true;
  };
  PerfDataText text;
  // --inline reads a frame's "+0x" offset: where addr2line knows nothing of
  // the address, the Perl script asks again at the symbol's address (nm)
  // plus that offset.
  text.exact = po.inliner;
  text.srcline = po.srcline;
  text.pid_tid = PidTidWanted(po);
  bool ok = RenderPerfDataChunks(name, src, options, take, stats, err, text);
  queue.Close();
  parsing.join();
  if (!why.empty()) {
    *err = why;
    return false;
  }
  return ok;
}

}  // namespace flamefold
