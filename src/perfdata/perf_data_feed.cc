// FoldPerfData: perf.data folded into the run's fold. Without --srcline
// and --inline the replay hands it each sample by its fields
// (ReplayIntoFold); with them the fold reads the rendered text, in whole
// samples. Kept apart from the replay so that the fuzz target links the
// reader and the replay alone.
//
// For the text, the replay (reading, symbols, text) and the fold's reading
// run on two threads joined by a small bounded queue of text chunks, as
// `perf script | stackcollapse-perf.pl` runs as two processes; memory stays
// at a few chunks whatever the input size.
#include <optional>
#include <string>
#include <thread>

#include "base/bounded_queue.h"
#include "collapse/perf_script_lines.h"
#include "perfdata/perf_data_fold.h"

namespace flamefold {
namespace {

// Chunks of text between the replay and the fold; their buffers go back
// through `spare` for reuse: fresh megabyte buffers would each cost page
// faults and an munmap, more than the copying itself.
constexpr size_t kQueuedChunks = 4;

}  // namespace

bool FoldPerfData(const std::string& name, ByteSource* src,
                  const SymbolOptions& options, RecordingFold* into,
                  PerfDataStats* stats, std::string* err) {
  const PerfScriptOptions& po = into->options();
  if (!into->WantsText()) {
    return ReplayIntoFold(name, src, options, into->samples(), po, stats, err);
  }
  // --srcline reads the line after each frame (and a frame line when a
  // frame has no source line), --inline each frame's address: those read
  // the text.
  BoundedQueue<std::string> queue(kQueuedChunks);
  BoundedQueue<std::string> spare(kQueuedChunks + 2);
  std::string why;  // the fold's error, set by the reading thread
  std::thread parsing([&] {
    while (std::optional<std::string> text = queue.Pop()) {
      if (!into->ReadText(*text, &why)) {  // the chunk holds whole samples
        queue.Stop();
        return;
      }
      text->clear();
      spare.TryPush(&*text);
    }
  });
  // Queues the buffer of `*text` and leaves a spare one (or an empty
  // string) in its place: no copy. False once the fold has stopped.
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
  // Before the first chunk is queued: the parsing thread waits for it.
  text.sample_times = into->samples();
  text.ns = po.time_range.active();  // the range is in ns
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
