#include "flamefold/parallel_fold.h"

#include <algorithm>
#include <condition_variable>
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

// A piece of one input that starts just after an empty line: the Perl
// script's state is fully reset there (no process name, no frames), so
// chunks parse independently once the event filter is known.
struct Chunk {
  uint64_t line_base = 0;  // lines of the file before this chunk
  std::string text;
};

// A bounded queue between the reading thread and the parsing threads, so
// memory stays at a few chunks per thread whatever the input size.
class ChunkQueue {
 public:
  explicit ChunkQueue(size_t cap) : cap_(cap) {}
  void Push(Chunk c) {
    std::unique_lock<std::mutex> lock(mu_);
    not_full_.wait(lock, [&] { return q_.size() < cap_; });
    q_.push_back(std::move(c));
    not_empty_.notify_one();
  }
  std::optional<Chunk> Pop() {
    std::unique_lock<std::mutex> lock(mu_);
    not_empty_.wait(lock, [&] { return !q_.empty() || closed_; });
    if (q_.empty()) return std::nullopt;
    Chunk c = std::move(q_.front());
    q_.pop_front();
    not_full_.notify_one();
    return c;
  }
  void Close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    not_empty_.notify_all();
  }

 private:
  size_t cap_;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<Chunk> q_;
  bool closed_ = false;
};

// One parsing thread's own interner, trie and parser.
struct Worker {
  explicit Worker(const PerfScriptOptions& options)
      : trie(&names), parser(options, &names, &trie) {}
  StringInterner names;
  StackTrie trie;
  PerfScriptParser parser;
  std::string error;
  uint64_t error_at = UINT64_MAX;  // line_base of the failing chunk
};

void RunWorker(Worker* w, ChunkQueue* queue, const std::string& file,
               size_t max_line, uint64_t input_index) {
  while (std::optional<Chunk> chunk = queue->Pop()) {
    StringSource src(std::move(chunk->text));
    LineReader reader(&src, max_line);
    std::string err;
    if (!w->parser.Feed(&reader, file, &err, chunk->line_base, input_index) &&
        chunk->line_base < w->error_at) {
      w->error = err;
      w->error_at = chunk->line_base;
    }
  }
}

}  // namespace

FoldInputs::FoldInputs(const FoldConfig& config, StringInterner* names,
                       StackTrie* trie)
    : config_(config), names_(names), trie_(trie),
      parser_(config.perf, names, trie) {}

FoldInputs::~FoldInputs() = default;

std::string FoldInputs::event() const {
  return parser_.event_filter().empty() ? parallel_event_
                                        : parser_.event_filter();
}

// perf.data: replayed into perf script text for the sequential parser;
// what the input lost or lacked is said as warnings.
static bool AddPerfData(const FoldConfig& config, const std::string& file,
                 uint64_t index, ByteSource* source, PerfScriptParser* parser,
                 std::string* err) {
  PerfDataStats stats;
  bool ok = FoldPerfData(file, source, config.symbols, parser, index, &stats,
                         err);
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
  return ok;
}

bool FoldInputs::Add(const std::string& file, std::string* err) {
  Input in;
  if (!OpenInput(file, &in, err)) return false;
  uint64_t index = input_count_++;
  switch (in.kind) {
    case ContentKind::kEmpty:
      return true;
    case ContentKind::kPerfData:
      return AddPerfData(config_, file, index, in.source.get(), &parser_,
                         err);
    case ContentKind::kFolded: {
      LineReader reader(in.source.get(), config_.max_line);
      std::string why;
      if (!ReadFolded(&reader, names_, trie_, &folded_stats_, &why)) {
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
// on in the next input). Workers parse the rest, each into its own trie,
// merged at the end. The output is the sorted walk of the merged trie, so
// it does not depend on the number of threads.
bool FoldInputs::AddParallel(const std::string& file, uint64_t index,
                             ByteSource* source, std::string* err) {
  PerfScriptOptions options = config_.perf;
  ChunkQueue queue(2 * static_cast<size_t>(config_.jobs));
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<std::thread> threads;
  uint64_t lines = 0;
  std::string pending;  // text read but not handed out yet
  bool eof = false, first = true, ok = true;
  std::string why;
  auto feed_sequential = [&](std::string text) {
    StringSource src(std::move(text));
    LineReader reader(&src, config_.max_line);
    bool fed = parser_.Feed(&reader, file, &why, lines, index);
    lines += reader.line_number();
    if (!fed) *err = why;
    return fed;
  };
  while (ok && !eof) {
    size_t old = pending.size();
    pending.resize(old + kChunkBytes);
    size_t got = 0;
    if (!source->Read(pending.data() + old, kChunkBytes, &got, &why)) {
      *err = file + ": " + why;
      ok = false;
      break;
    }
    pending.resize(old + got);
    eof = got == 0;
    if (!eof && pending.size() < kChunkBytes) continue;
    size_t cut = pending.rfind("\n\n");
    if (cut == std::string::npos) continue;
    cut += 2;
    if (first) {
      size_t head = pending.find("\n\n") + 2;
      ok = feed_sequential(pending.substr(0, head));
      pending.erase(0, head);
      cut -= head;
      first = false;
      if (!ok || cut == 0) continue;
    }
    std::string text = pending.substr(0, cut);
    pending.erase(0, cut);
    if (options.event_filter.empty() && parser_.event_filter().empty()) {
      ok = feed_sequential(std::move(text));
      continue;
    }
    if (workers.empty()) {
      if (options.event_filter.empty()) {
        options.event_filter = parser_.event_filter();
      }
      parallel_event_ = options.event_filter;
      for (int i = 0; i < config_.jobs; ++i) {
        workers.push_back(std::make_unique<Worker>(options));
        threads.emplace_back(RunWorker, workers.back().get(), &queue, file,
                             config_.max_line, index);
      }
    }
    uint64_t n = static_cast<uint64_t>(
        std::count(text.begin(), text.end(), '\n'));
    queue.Push(Chunk{lines, std::move(text)});
    lines += n;
  }
  if (ok && !pending.empty()) ok = feed_sequential(std::move(pending));
  queue.Close();
  for (std::thread& t : threads) t.join();
  uint64_t error_at = UINT64_MAX;
  for (auto& w : workers) {
    if (!w->error.empty() && w->error_at < error_at) {
      error_at = w->error_at;
      if (ok) *err = w->error;
    }
    trie_->Merge(w->trie, names_);
    MergeStats(&worker_stats_, w->parser.stats());
  }
  return ok && error_at == UINT64_MAX;
}

void FoldInputs::Finish() {
  parser_.Finish();
  stats_ = parser_.stats();
  MergeStats(&stats_, worker_stats_);
}

}  // namespace flamefold
