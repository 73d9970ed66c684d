// The bookkeeping of a mapped file's chunks while --jobs threads parse
// them (FoldInputs): which are parsed, so that the pages before them can be
// given back (MappedChunks), and the first line number of each (LineBases).
#ifndef FLAMEFOLD_COLLAPSE_MAPPED_CHUNKS_H_
#define FLAMEFOLD_COLLAPSE_MAPPED_CHUNKS_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>

namespace flamefold {

// The chunks handed out of a mapped file and not parsed yet, in the order
// handed out: the pages before the first of them are read no more.
class MappedChunks {
 public:
  /// A chunk starting at `begin` is handed out; returns its number.
  size_t Start(size_t begin) {
    std::lock_guard<std::mutex> lock(mu_);
    waiting_.push_back({begin, false});
    return first_ + waiting_.size() - 1;
  }
  /// Chunk `number` is parsed.
  void Done(size_t number) {
    std::lock_guard<std::mutex> lock(mu_);
    waiting_[number - first_].done = true;
  }
  /// Where the first chunk not parsed yet begins; `next` (where the next
  /// chunk will) when every chunk is.
  size_t ParsedUpTo(size_t next) {
    std::lock_guard<std::mutex> lock(mu_);
    while (!waiting_.empty() && waiting_.front().done) {
      waiting_.pop_front();
      ++first_;
    }
    return waiting_.empty() ? next : waiting_.front().begin;
  }

 private:
  struct Waiting {
    size_t begin;
    bool done;
  };
  std::mutex mu_;
  std::deque<Waiting> waiting_;
  size_t first_ = 0;  // the number of waiting_.front()
};

// The first line number of each mapped chunk. The thread that reads a
// mapped file only cuts it (counting its lines there would read every byte
// a second time, on the wrong core): each parsing thread counts the lines
// of the chunk it takes, as it reads it into its cache anyway, and learns
// its first line number once the chunks before it are counted. Chunks are
// taken in order, so the wait is for a count another thread has just
// begun, if any.
class LineBases {
 public:
  explicit LineBases(uint64_t first) : next_base_(first) {}
  /// Chunk `number` (0, 1, ...) has `lines` lines; returns the number of
  /// the lines before it, waiting until the chunks before it are counted.
  uint64_t Counted(size_t number, uint64_t lines) {
    std::unique_lock<std::mutex> lock(mu_);
    counts_[number] = lines;
    bool advanced = false;
    for (auto it = counts_.find(next_); it != counts_.end();
         it = counts_.find(next_)) {
      bases_[next_] = next_base_;
      next_base_ += it->second;
      counts_.erase(it);
      ++next_;
      advanced = true;
    }
    if (advanced) known_.notify_all();
    known_.wait(lock, [&] { return next_ > number; });
    auto it = bases_.find(number);
    const uint64_t base = it->second;
    bases_.erase(it);
    return base;
  }
  /// The lines of all the chunks, once the first `chunks` are counted.
  uint64_t Total(size_t chunks) {
    std::unique_lock<std::mutex> lock(mu_);
    known_.wait(lock, [&] { return next_ >= chunks; });
    return next_base_;
  }

 private:
  std::mutex mu_;
  std::condition_variable known_;
  std::map<size_t, uint64_t> counts_;  // counted, before the ones before
  std::map<size_t, uint64_t> bases_;   // known, not yet asked for
  size_t next_ = 0;                    // the first chunk not counted
  uint64_t next_base_;                 // its first line's number
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_MAPPED_CHUNKS_H_
