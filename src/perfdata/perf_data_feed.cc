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
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "io/line_reader.h"
#include "perfdata/perf_data_fold.h"

namespace flamefold {
namespace {

// The chunks' buffers go back and forth between the threads (Push, Recycle):
// fresh megabyte buffers would each cost page faults and an munmap, more
// than the copying itself.
class TextQueue {
 public:
  // Queues the buffer of `*text` and leaves a recycled one (or an empty
  // string) in its place: no copy. False when the consumer has stopped
  // (after a parse error).
  bool Push(std::string* text) {
    std::unique_lock<std::mutex> lock(mu_);
    not_full_.wait(lock, [&] { return q_.size() < kCap || stopped_; });
    if (stopped_) return false;
    q_.push_back(std::move(*text));
    text->clear();
    if (!free_.empty()) {
      text->swap(free_.back());
      free_.pop_back();
    }
    not_empty_.notify_one();
    return true;
  }
  /// Gives a buffer that was popped back for reuse.
  void Recycle(std::string buffer) {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.size() < kCap + 2) free_.push_back(std::move(buffer));
  }
  bool Pop(std::string* text) {
    std::unique_lock<std::mutex> lock(mu_);
    not_empty_.wait(lock, [&] { return !q_.empty() || closed_; });
    if (q_.empty()) return false;
    *text = std::move(q_.front());
    q_.pop_front();
    not_full_.notify_one();
    return true;
  }
  void Close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    not_empty_.notify_all();
  }
  void Stop() {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    not_full_.notify_all();
  }

 private:
  static constexpr size_t kCap = 4;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<std::string> q_;
  std::vector<std::string> free_;
  bool closed_ = false, stopped_ = false;
};

}  // namespace

bool FoldPerfData(const std::string& name, ByteSource* src,
                  const SymbolOptions& options, PerfScriptParser* parser,
                  uint64_t input_index, PerfDataStats* stats,
                  std::string* err, const std::string& map_path) {
  const PerfScriptOptions& po = parser->options();
  if (!po.srcline && !po.inliner) {
    return ReplayIntoParser(name, src, options, parser, input_index, stats,
                            err, map_path);
  }
  // --srcline reads the line after each frame (and a frame line when a
  // frame has no source line), --inline each frame's address: those read
  // the text.
  TextQueue queue;
  std::string why;  // the parser's error, set by the parsing thread
  std::thread parsing([&] {
    uint64_t lines = 0;
    std::string text;
    while (queue.Pop(&text)) {
      LineReader reader(text);  // in place: the chunk holds whole samples
      if (!parser->Feed(&reader, name, &why, lines, input_index)) {
        queue.Stop();
        return;
      }
      lines += reader.line_number();
      queue.Recycle(std::move(text));
    }
  });
  ChunkSink take = [&](std::string* text) { return queue.Push(text); };
  PerfDataText text;
  text.exact = false;
  text.srcline = po.srcline;
  text.pid_tid = PidTidWanted(po);
  bool ok = RenderPerfDataChunks(name, src, options, take, stats, err, text,
                                 map_path);
  queue.Close();
  parsing.join();
  if (!why.empty()) {
    *err = why;
    return false;
  }
  return ok;
}

}  // namespace flamefold
