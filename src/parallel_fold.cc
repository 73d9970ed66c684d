#include "flamefold/parallel_fold.h"

#include <algorithm>
#include <cstdio>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include "flamefold/input.h"
#include "flamefold/line_reader.h"
#include "flamefold/perf_data_fold.h"

namespace flamefold {
namespace {

constexpr size_t kChunkBytes = 4u << 20;
// Text held without a sample boundary before it is parsed sequentially.
constexpr size_t kMaxUncut = 4 * kChunkBytes;

// A piece of one input that starts just after an empty line: the Perl
// script's state is fully reset there (no process name, no frames), so
// chunks parse independently once the event filter is known.
// Bytes without the zero-filling of std::string::resize, which costs as
// much as the read itself.
class TextBuffer {
 public:
  TextBuffer() = default;
  TextBuffer(TextBuffer&& o) noexcept { *this = std::move(o); }
  TextBuffer& operator=(TextBuffer&& o) noexcept {
    data_ = std::move(o.data_);
    size_ = o.size_;
    cap_ = o.cap_;
    o.size_ = o.cap_ = 0;
    return *this;
  }
  /// Makes room for `n` more bytes at the end and returns where they go.
  char* Extend(size_t n) {
    if (size_ + n > cap_) {
      size_t cap = std::max(cap_ * 2, size_ + n);
      std::unique_ptr<char[]> bigger(new char[cap]);
      if (size_ > 0) std::memcpy(bigger.get(), data_.get(), size_);
      data_ = std::move(bigger);
      cap_ = cap;
    }
    char* at = data_.get() + size_;
    size_ += n;
    return at;
  }
  void Truncate(size_t n) { size_ = n; }
  std::string_view view() const { return {data_.get(), size_}; }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<char[]> data_;
  size_t size_ = 0, cap_ = 0;
};

// The chunks' buffers, handed back by the workers for the reading thread to
// fill again: a fresh 4 MiB buffer a chunk would cost its page faults and,
// when freed, an munmap that interrupts every thread.
class BufferPool {
 public:
  TextBuffer Take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.empty()) return TextBuffer();
    TextBuffer b = std::move(free_.back());
    free_.pop_back();
    b.Truncate(0);
    return b;
  }
  void Give(TextBuffer b) {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.size() < kKeep) free_.push_back(std::move(b));
  }

 private:
  static constexpr size_t kKeep = 16;
  std::mutex mu_;
  std::vector<TextBuffer> free_;
};

struct Chunk {
  uint64_t line_base = 0;  // lines of the file before this chunk
  TextBuffer buffer;
  size_t begin = 0;        // the chunk's text is buffer[begin, end)
  size_t end = 0;
};

// A blocking queue; with a capacity, so that memory stays at a few chunks
// per thread whatever the input size.
template <typename T>
class Queue {
 public:
  explicit Queue(size_t cap) : cap_(cap) {}
  void Push(T item) {
    std::unique_lock<std::mutex> lock(mu_);
    not_full_.wait(lock, [&] { return q_.size() < cap_; });
    q_.push_back(std::move(item));
    not_empty_.notify_one();
  }
  /// Waits for an item; nullopt once closed and empty.
  std::optional<T> Pop() {
    std::unique_lock<std::mutex> lock(mu_);
    not_empty_.wait(lock, [&] { return !q_.empty() || closed_; });
    return Take();
  }
  /// An item if one is ready, else nullopt at once.
  std::optional<T> TryPop() {
    std::lock_guard<std::mutex> lock(mu_);
    return Take();
  }
  void Close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    not_empty_.notify_all();
  }

 private:
  std::optional<T> Take() {
    if (q_.empty()) return std::nullopt;
    T item = std::move(q_.front());
    q_.pop_front();
    not_full_.notify_one();
    return item;
  }
  size_t cap_;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<T> q_;
  bool closed_ = false;
};

// One parsing thread: its own interner, parser and stack counts, merged
// into the reading thread's when the input ends (a distinct stack costs
// one merge, not every sample a hand-over).
struct Worker {
  explicit Worker(const PerfScriptOptions& options)
      : parser(options, &names, &counts) {}
  StringInterner names;
  StackCounts counts;
  PerfScriptParser parser;
  std::string error;
  uint64_t error_at = UINT64_MAX;  // line_base of the failing chunk
};

void RunWorker(Worker* w, Queue<Chunk>* chunks, BufferPool* pool,
               const std::string& file, size_t max_line,
               uint64_t input_index) {
  while (std::optional<Chunk> chunk = chunks->Pop()) {
    LineReader reader(
        chunk->buffer.view().substr(chunk->begin, chunk->end - chunk->begin),
        max_line);
    std::string err;
    if (!w->parser.Feed(&reader, file, &err, chunk->line_base, input_index) &&
        chunk->line_base < w->error_at) {
      w->error = err;
      w->error_at = chunk->line_base;
    }
    pool->Give(std::move(chunk->buffer));
  }
}

// Adds a worker's stacks to `counts`, translating its frame ids.
void MergeWorker(Worker* w, StringInterner* names, StackCounts* counts) {
  std::vector<SymbolId> map(w->names.size());
  for (SymbolId id = 0; id < map.size(); ++id) map[id] = names->Intern(w->names.Get(id));
  std::vector<SymbolId> frames;
  w->counts.ForEach([&](std::span<const SymbolId> ids, const PerlNumber& weight,
                        uint64_t samples) {
    frames.clear();
    for (SymbolId id : ids) frames.push_back(map[id]);
    counts->Add(frames, weight, samples);
  });
}

}  // namespace

FoldInputs::FoldInputs(const FoldConfig& config, StringInterner* names,
                       StackTrie* trie)
    : config_(config), names_(names), trie_(trie),
      parser_(config.perf, names, &counts_) {}

FoldInputs::~FoldInputs() = default;

std::string FoldInputs::event() const {
  return parser_.event_filter().empty() ? parallel_event_
                                        : parser_.event_filter();
}

// perf.data: replayed into perf script text for the sequential parser;
// what the input lost or lacked is said as warnings.
// An uncompressed file is mapped rather than read.
static bool AddPerfData(const FoldConfig& config, const std::string& file,
                 uint64_t index, const Input& in, PerfScriptParser* parser,
                 std::string* err) {
  PerfDataStats stats;
  std::string map_path = in.compression == Compression::kNone ? file : "";
  bool ok = FoldPerfData(file, in.source.get(), config.symbols, parser, index,
                         &stats, err, map_path);
  Diag diag("flamefold");
  diag.set_quiet(config.quiet);
  if (!config.quiet) {
    for (const std::string& w : stats.warnings) diag.Warning(w);
    if (stats.dwarf_chains > 0) {
      diag.Warning(file + ": " + std::to_string(stats.dwarf_chains) +
                   " sample(s) recorded with --call-graph dwarf: user stacks "
                   "are not unwound");
    }
    if (!stats.truncated.empty()) {
      diag.Warning(file + ": input cut short: " + stats.truncated +
                   "; folded up to the last whole record");
    }
  }
  if (config.stats) {
    std::fprintf(stderr,
                 "flamefold: stats: %s: perf.data recorded on %s by perf %s: "
                 "%s\n"
                 "flamefold: stats: %s: %llu records, %llu samples "
                 "(%llu in guest mode skipped)\n",
                 file.c_str(),
                 stats.hostname.empty() ? "?" : stats.hostname.c_str(),
                 stats.perf_version.empty() ? "?" : stats.perf_version.c_str(),
                 stats.cmdline.empty() ? "?" : stats.cmdline.c_str(),
                 file.c_str(), (unsigned long long)stats.records,
                 (unsigned long long)stats.samples,
                 (unsigned long long)stats.samples_skipped);
  }
  return ok;
}

LimitStats FoldInputs::limit_totals() const {
  LimitStats all = parser_.stats().limits;
  all.Add(worker_stats_.limits);
  all.Add(folded_stats_.limits);
  return all;
}

void FoldInputs::NoteLimits(const std::string& file, const LimitStats& before) {
  LimitStats cut = limit_totals().Since(before);
  if (!cut.any()) return;
  if (!limit_hits_.empty() && limit_hits_.back().first == file) {
    limit_hits_.back().second.Add(cut);
  } else {
    limit_hits_.emplace_back(file, cut);
  }
}

bool FoldInputs::Add(const std::string& file, std::string* err) {
  LimitStats before = limit_totals();
  bool had_invalid = folded_stats_.invalid_lines > 0;
  bool ok = AddInput(file, err);
  NoteLimits(file, before);
  if (!had_invalid && folded_stats_.invalid_lines > 0) {
    folded_stats_.first_invalid_file = file;
  }
  last_file_ = file;
  return ok;
}

bool FoldInputs::AddInput(const std::string& file, std::string* err) {
  Input in;
  if (!OpenInput(file, &in, err)) return false;
  uint64_t index = input_count_++;
  switch (in.kind) {
    case ContentKind::kEmpty:
      return true;
    case ContentKind::kPerfData:
      return AddPerfData(config_, file, index, in, &parser_, err);
    case ContentKind::kFolded: {
      LineReader reader(in.source.get(), config_.max_line);
      std::string why;
      if (!ReadFolded(&reader, names_, &counts_, &folded_stats_, &why,
                      config_.perf.limits)) {
        *err = file + ": " + why;
        return false;
      }
      return true;
    }
    case ContentKind::kPerfScript:
      if (config_.jobs > 1 && !config_.perf.srcline) {
        return AddParallel(file, index, in.source.get(), err);
      }
      LineReader reader(in.source.get(), config_.max_line);
      std::string why;
      if (!parser_.Feed(&reader, file, &why, 0, index)) {
        *err = reader.error().empty() ? why : file + ": " + why;
        return false;
      }
      return true;
  }
  return true;
}

// The reading thread cuts the input after empty lines into chunks of about
// kChunkBytes. The sequential parser takes the text up to the first empty
// line (it may continue the previous input's sample), everything until the
// event filter is known, and the text after the last empty line (it may go
// on in the next input). Workers parse the other chunks, each into stack
// counts of its own, merged at the end. The trie's walk sorts, so the
// output does not depend on the number of threads or their timing.
bool FoldInputs::AddParallel(const std::string& file, uint64_t index,
                             ByteSource* source, std::string* err) {
  PerfScriptOptions options = config_.perf;
  const size_t jobs = static_cast<size_t>(config_.jobs);
  Queue<Chunk> chunks(2 * jobs);
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<std::thread> threads;
  uint64_t lines = 0;
  std::string why;
  auto feed_sequential = [&](std::string_view text) {
    LineReader reader(text, config_.max_line);
    bool fed = parser_.Feed(&reader, file, &why, lines, index);
    lines += reader.line_number();
    if (!fed) *err = why;
    return fed;
  };
  BufferPool pool;
  TextBuffer buf;  // the text read and not handed out yet
  bool eof = false, first = true, ok = true;
  while (ok && !eof) {
    size_t old = buf.size();
    char* at = buf.Extend(kChunkBytes);
    size_t got = 0;
    if (!source->Read(at, kChunkBytes, &got, &why)) {
      *err = file + ": " + why;
      ok = false;
      break;
    }
    buf.Truncate(old + got);
    eof = got == 0;
    if (!eof && buf.size() < kChunkBytes) continue;
    std::string_view text = buf.view();
    size_t cut = text.rfind("\n\n");
    if (cut == std::string_view::npos) {
      // No sample boundary in all this text: one huge sample (a hostile
      // 100,000-deep stack, say). Rather than hold it whole, the sequential
      // parser, which carries its state on, takes its whole lines; it then
      // also takes the rest of the sample, up to the next boundary.
      size_t nl = text.rfind('\n');
      if (text.size() < kMaxUncut || nl == std::string_view::npos) continue;
      ok = feed_sequential(text.substr(0, nl + 1));
      TextBuffer rest = pool.Take();
      if (nl + 1 < text.size()) {
        std::memcpy(rest.Extend(text.size() - nl - 1), text.data() + nl + 1,
                    text.size() - nl - 1);
      }
      buf = std::move(rest);
      first = true;
      continue;
    }
    cut += 2;
    size_t head = 0;
    if (first) {  // up to the first boundary: may continue a sample
      head = text.find("\n\n") + 2;
      ok = feed_sequential(text.substr(0, head));
      first = false;
    }
    TextBuffer tail = pool.Take();
    if (cut < text.size()) {
      std::memcpy(tail.Extend(text.size() - cut), text.data() + cut,
                  text.size() - cut);
    }
    if (ok && head < cut) {
      if (options.event_filter.empty() && parser_.event_filter().empty()) {
        ok = feed_sequential(text.substr(head, cut - head));
      } else {
        if (workers.empty()) {
          if (options.event_filter.empty()) {
            options.event_filter = parser_.event_filter();
          }
          parallel_event_ = options.event_filter;
          for (size_t i = 0; i < jobs; ++i) {
            workers.push_back(std::make_unique<Worker>(options));
            threads.emplace_back(RunWorker, workers.back().get(), &chunks,
                                 &pool, file, config_.max_line, index);
          }
        }
        std::string_view body = text.substr(head, cut - head);
        uint64_t n = static_cast<uint64_t>(std::count(body.begin(), body.end(), '\n'));
        chunks.Push(Chunk{lines, std::move(buf), head, cut});
        lines += n;
      }
    }
    buf = std::move(tail);
  }
  if (ok && buf.size() > 0) ok = feed_sequential(buf.view());
  chunks.Close();
  for (std::thread& t : threads) t.join();
  uint64_t error_at = UINT64_MAX;
  for (auto& w : workers) {
    if (!w->error.empty() && w->error_at < error_at) {
      error_at = w->error_at;
      if (ok) *err = w->error;
    }
    MergeStats(&worker_stats_, w->parser.stats());
    MergeWorker(w.get(), names_, &counts_);
  }
  return ok && error_at == UINT64_MAX;
}

void FoldInputs::Finish() {
  LimitStats before = limit_totals();
  parser_.Finish();  // may end the last input's last sample
  NoteLimits(last_file_, before);
  counts_.MoveInto(trie_);
  stats_ = parser_.stats();
  MergeStats(&stats_, worker_stats_);
}

}  // namespace flamefold
