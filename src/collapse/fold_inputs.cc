#include "collapse/fold_inputs.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <mutex>
#include <optional>
#include <thread>

#include "base/big_alloc.h"
#include "base/bounded_queue.h"
#include "collapse/input_kind.h"
#include "collapse/mapped_chunks.h"
#include "collapse/sample_cut.h"
#include "io/file_source.h"
#include "io/line_reader.h"
#include "io/mapped_file.h"

namespace flamefold {

// One parsing thread's parser: it adds to tables of its own
// (FoldInputs::WorkerTables, kept across inputs and merged at the end: a
// distinct stack costs one merge, not every sample a hand-over), or, for
// the reading thread, straight to the run's interner and counts. It is
// kept across inputs too, with its caches (FoldInputs::StartWorkers); its
// error is that of the input being parsed.
struct FoldWorker {
  FoldWorker(const PerfScriptOptions& options, StringInterner* names,
             StackCounts* counts)
      : parser(options, names, counts) {}
  PerfScriptParser parser;
  std::string error;
  uint64_t error_at = UINT64_MAX;  // line_base of the failing chunk
};

namespace {

// Small enough that the threads end at about the same time, that a chunk read
// by the thread that parses it is still in that core's cache, and that the
// buffers in flight stay small (larger chunks, in blocks mapped in huge
// pages, raise the peak memory with every thread). Large enough that handing
// a chunk over costs little next to parsing it.
constexpr size_t kChunkBytes = 128u << 10;
// Text held without a sample boundary before the rest of the input is
// parsed sequentially.
constexpr size_t kMaxUncut = 4u << 20;
// A file smaller than this is read rather than mapped: mapping costs more
// than copying a few pages.
constexpr size_t kMinMapped = 1u << 20;
// How far ahead of the chunk being cut a mapped file's pages are asked for,
// and every how many bytes those already parsed are given back: the memory
// held stays a few of these whatever the file's size. Each release with
// --jobs N makes the kernel stop the other threads' cores to flush their TLBs
// (an IPI, dear in a VM), so releases come in steps several times the
// read-ahead: fewer interruptions for a little more memory held.
constexpr size_t kMapAhead = 2u << 20;
constexpr size_t kReleaseStep = 8u << 20;
// With one thread, a mapped file is fed in windows of whole lines of about
// this size.
constexpr size_t kWindow = 2u << 20;

// A piece of one input that starts just after an empty line: the Perl
// script's state is fully reset there (no process name, no frames), so
// chunks parse independently once the event filter is known.
// Bytes without the zero-filling of std::string::resize, which costs as
// much as the read itself.
class TextBuffer {
 public:
  TextBuffer() = default;
  ~TextBuffer() { BigFree(data_, cap_); }
  TextBuffer(TextBuffer&& o) noexcept { *this = std::move(o); }
  TextBuffer& operator=(TextBuffer&& o) noexcept {
    if (this != &o) {
      BigFree(data_, cap_);
      data_ = o.data_;
      size_ = o.size_;
      cap_ = o.cap_;
      o.data_ = nullptr;
      o.size_ = o.cap_ = 0;
    }
    return *this;
  }
  /// Makes room for `n` more bytes at the end and returns where they go.
  char* Extend(size_t n) {
    if (size_ + n > cap_) Reserve(std::max(cap_ * 2, size_ + n));
    char* at = data_ + size_;
    size_ += n;
    return at;
  }
  /// Makes the capacity at least `n` bytes, keeping the content.
  void Reserve(size_t n) {
    if (n <= cap_) return;
    char* bigger = static_cast<char*>(BigAllocate(n));
    if (size_ > 0) std::memcpy(bigger, data_, size_);
    BigFree(data_, cap_);
    data_ = bigger;
    cap_ = n;
  }
  void Truncate(size_t n) { size_ = n; }
  std::string_view view() const { return {data_, size_}; }
  size_t size() const { return size_; }

 private:
  char* data_ = nullptr;
  size_t size_ = 0, cap_ = 0;
};

// The chunks' buffers, handed back by the workers for the reading thread to
// fill again: a fresh buffer a chunk would cost its page faults and,
// when freed, an munmap that interrupts every thread.
class BufferPool {
 public:
  /// An empty buffer with room for a sample cut off the previous chunk and
  /// the next chunk's read, so that reading into it does not reallocate.
  TextBuffer Take() {
    TextBuffer b;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!free_.empty()) {
        b = std::move(free_.back());
        free_.pop_back();
      }
    }
    b.Truncate(0);
    b.Reserve(2 * kChunkBytes);
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

// Bytes already read, then the rest of a source (which it does not own).
class HeadSource : public ByteSource {
 public:
  HeadSource(std::string_view head, ByteSource* rest)
      : head_(head), rest_(rest) {}
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override {
    if (head_.empty()) return rest_->Read(buf, cap, got, err);
    *got = std::min(cap, head_.size());
    std::memcpy(buf, head_.data(), *got);
    head_.remove_prefix(*got);
    return true;
  }

 private:
  std::string_view head_;
  ByteSource* rest_;
};

struct Chunk {
  uint64_t line_base = 0;  // lines of the file before this chunk
  std::string_view text;   // in `buffer`, or in a mapped file
  TextBuffer buffer;       // holds `text` unless it is mapped
  // For a chunk of a mapped file: its number, whom to tell it is parsed,
  // and where its line_base comes from.
  size_t number = 0;
  MappedChunks* mapped = nullptr;
  LineBases* bases = nullptr;
};

// The number of '\n' in `s`: every chunk's first line number depends on it,
// so it is counted at memory speed rather than a byte a step (by the
// reading thread, or, of a mapped file, by the thread that parses it).
size_t CountNewlines(std::string_view s) {
  const char* p = s.data();
  size_t n = s.size(), i = 0, total = 0;
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  const size_t whole = n - n % 16;
  while (i < whole) {
    // Per-byte counters (0 - (-1) per match) for at most 255 blocks, then
    // summed by _mm_sad_epu8 into two 64-bit halves.
    __m128i acc = _mm_setzero_si128();
    size_t stop = std::min(whole, i + 255 * 16);
    for (; i < stop; i += 16) {
      __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(x, nl));
    }
    __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
    total += static_cast<size_t>(_mm_cvtsi128_si32(sums)) +
             static_cast<size_t>(_mm_extract_epi16(sums, 4));
  }
#endif
  for (; i < n; ++i) total += p[i] == '\n';
  return total;
}

// Parses one chunk into the worker's counts; the first error (in input
// order) is the one kept. A worker may get chunks out of order (the reading
// thread parses the newest chunk read, then helps with the queued ones; of
// a mapped file it parses the oldest queued), so a chunk before the one
// that failed is still parsed, and one after it is not.
void ParseChunk(FoldWorker* w, Chunk* chunk, BufferPool* pool,
                const std::string& file, size_t max_line,
                uint64_t input_index) {
  if (chunk->bases != nullptr) {
    chunk->line_base =
        chunk->bases->Counted(chunk->number, CountNewlines(chunk->text));
  }
  if (chunk->line_base <= w->error_at) {
    LineReader reader(chunk->text, max_line);
    std::string err;
    if (!w->parser.Feed(&reader, file, &err, chunk->line_base, input_index) &&
        chunk->line_base < w->error_at) {
      w->error = err;
      w->error_at = chunk->line_base;
    }
  }
  if (chunk->mapped != nullptr) {
    chunk->mapped->Done(chunk->number);
  } else {
    pool->Give(std::move(chunk->buffer));
  }
}

void RunWorker(FoldWorker* w, BoundedQueue<Chunk>* chunks, BufferPool* pool,
               const std::string& file, size_t max_line,
               uint64_t input_index) {
  while (std::optional<Chunk> chunk = chunks->Pop()) {
    ParseChunk(w, &*chunk, pool, file, max_line, input_index);
  }
}

}  // namespace

FoldInputs::FoldInputs(const FoldConfig& config, StringInterner* names,
                       StackTrie* trie, RecordingFolder* recordings)
    : config_(config), recordings_(recordings), names_(names), trie_(trie),
      parser_(config.perf, names, &counts_) {}

FoldInputs::~FoldInputs() = default;

std::string FoldInputs::event() const {
  return parser_.event_filter().empty() ? parallel_event_
                                        : parser_.event_filter();
}

bool FoldInputs::FoldAll(std::vector<std::string> files, std::string* err) {
  if (files.empty()) files.push_back("-");
  for (const std::string& file : files) {
    if (!Add(file, err)) return false;
  }
  Finish();
  if (!TimeRangeKeptSome(err)) return false;
  const PerfScriptStats& s = stats_;
  const FoldedStats& f = folded_stats_;
  uint64_t bad = s.unrecognized_lines + s.long_lines + f.invalid_lines;
  if (total_samples_ > 0 || bad == 0) return true;
  std::string first = !s.first_unrecognized.empty() ? s.first_unrecognized
                      : !s.first_long_line.empty()
                          ? s.first_long_line + ": line too long"
                      : files.size() == 1
                          ? "line " + std::to_string(f.first_invalid_line)
                          : FirstInvalidWhere(f);
  *err = (files.size() == 1 ? files[0] + ": " : std::string()) +
         "no samples found: " + std::to_string(bad) +
         " line(s) are neither perf script output nor folded stacks "
         "(first: " + first + ")";
  return false;
}

bool FoldInputs::TimeRangeKeptSome(std::string* err) const {
  const TimeRangeSpec& range = config_.perf.time_range;
  if (stats_.timed_samples == 0 || stats_.samples_in_range > 0) return true;
  *err = "--time-range '" + range.text + "' selects no sample: the " +
         (input_count_ == 1 ? "input's" : "inputs'") + " samples run from " +
         SecondsText(stats_.first_time) + " to " +
         SecondsText(stats_.last_time);
  if (range.kind == TimeRangeSpec::Kind::kRelative) {
    *err += " (+0 to +" + SecondsText(stats_.last_time - stats_.first_time) +
            " after the first)";
  }
  return false;
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
  Input in;
  if (!config_.open_input(file, &in, err)) return false;
  return AddOpened(&in, err);
}

bool FoldInputs::AddOpened(Input* in, std::string* err) {
  const std::string file = in->name;
  LimitStats before = limit_totals();
  bool had_invalid = folded_stats_.invalid_lines > 0;
  bool ok = AddInput(*in, err);
  NoteLimits(file, before);
  if (!had_invalid && folded_stats_.invalid_lines > 0) {
    folded_stats_.first_invalid_file = file;
  }
  last_file_ = file;
  return ok;
}

bool FoldInputs::AddInput(Input& in, std::string* err) {
  const std::string& file = in.name;
  uint64_t index = input_count_++;
  switch (in.kind) {
    case ContentKind::kEmpty:
      return true;
    case ContentKind::kPerfData:
    case ContentKind::kPerfDataPipe: {
      if (!recordings_) {
        *err = file + ": perf.data input is not read here";
        return false;
      }
      ParserRecordingFold into(&parser_, file, index);
      return recordings_->Fold(file, &in, &into, err) &&
             parser_.fold()->EndInput(file, err);
    }
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
    case ContentKind::kNeither:  // read as stackcollapse-perf.pl reads text
      if (TextInParallel()) {
        return AddParallel(file, index, in.source.get(), err);
      }
      return AddSequential(file, index, in.source.get(), err) &&
             parser_.fold()->EndInput(file, err);
  }
  return true;
}

void FoldInputs::set_timed_sink(TimedSampleSink* sink) {
  timed_sink_ = sink;
  parser_.fold()->set_timed_sink(sink);
}

// Whether text is cut into chunks for --jobs N: not with --srcline (a
// frame's source line is the line after it), nor with a timed sink (its
// samples come in the input's order), nor with a --time-range relative to
// the input's first sample (which only the first chunk holds), nor with
// --off-cpu (a wait ends where its thread next runs, anywhere after).
bool FoldInputs::TextInParallel() const {
  return config_.jobs > 1 && !config_.perf.srcline && timed_sink_ == nullptr &&
         !config_.perf.time_range.NeedsFirstTime() &&
         !config_.perf.off_cpu.enabled;
}

// One thread. A regular file is mapped (MappedFile) and fed in windows of
// whole lines, the pages behind given back, so that its bytes are read in
// place rather than copied by read(2); the rest after the last window,
// anything else and --srcline (a frame's source line is the line after it,
// which a window may not hold) are read.
bool FoldInputs::AddSequential(const std::string& file, uint64_t index,
                               ByteSource* source, std::string* err) {
  std::string why;
  auto feed = [&](LineReader* reader, uint64_t line_base) {
    if (parser_.Feed(reader, file, &why, line_base, index)) return true;
    *err = reader->error().empty() ? why : file + ": " + why;
    return false;
  };
  std::unique_ptr<MappedFile> map;
  if (!config_.perf.srcline) map = MapSource(*source, kMinMapped, file);
  if (map == nullptr) {
    LineReader reader(source, config_.max_line);
    return feed(&reader, 0);
  }
  size_t pos = 0;
  uint64_t lines = 0;
  bool ok = true;
  ForEachLineWindow(map.get(), kWindow, &pos, [&](std::string_view text) {
    LineReader reader(text, config_.max_line);
    ok = feed(&reader, lines);
    lines += reader.line_number();
    return ok;
  });
  if (!ok) return false;
  MappedFileSource rest(map.get(), pos);
  LineReader reader(&rest, config_.max_line);
  return feed(&reader, lines);
}

// The parsers of --jobs N for an input whose samples are those of
// `options.event_filter`: those of the inputs before when they parse the
// same event (their caches of lines and frames are as good for this one),
// else new ones; either way with no error of an input before.
void FoldInputs::StartWorkers(const PerfScriptOptions& options) {
  const size_t jobs = static_cast<size_t>(config_.jobs);
  if (workers_.size() != jobs ||
      workers_[0]->parser.event_filter() != options.event_filter) {
    workers_.clear();
    workers_.push_back(std::make_unique<FoldWorker>(options, names_, &counts_));
    while (worker_tables_.size() < jobs - 1) {
      worker_tables_.push_back(std::make_unique<WorkerTables>());
    }
    for (size_t i = 1; i < jobs; ++i) {
      WorkerTables* own = worker_tables_[i - 1].get();
      workers_.push_back(
          std::make_unique<FoldWorker>(options, &own->names, &own->counts));
    }
    for (auto& w : workers_) w->parser.ShareLineCache(jobs);
  }
  for (auto& w : workers_) {
    w->error.clear();
    w->error_at = UINT64_MAX;
  }
}

// This thread reads the input and cuts it after empty lines into chunks of
// about kChunkBytes. The sequential parser takes the text up to the first
// empty line (it may continue the previous input's sample), everything until
// the event filter is known, and the text after the last empty line (it may
// go on in the next input). The other chunks go to N-1 worker threads; when
// they are all busy and the queue is full, this thread parses a chunk
// itself rather than wait, so N threads parse on N cores. Each parser
// counts stacks of its own, merged at the end. The trie's walk sorts, so the
// output does not depend on the number of threads or their timing.
//
// A regular file (not compressed) is mapped rather than read (MappedFile):
// read(2)'s copies and a newline count of every chunk would all fall on this
// thread; mapped, this thread only looks for the last empty line of each
// chunk, and the thread that parses a chunk counts its lines (LineBases).
bool FoldInputs::AddParallel(const std::string& file, uint64_t index,
                             ByteSource* source, std::string* err) {
  PerfScriptOptions options = config_.perf;
  const size_t jobs = static_cast<size_t>(config_.jobs);
  // Six chunks per worker thread: a worker finds the next one ready while
  // this thread parses a chunk of its own, even one that takes long (new
  // frames, tables growing). With fewer, workers often wait for a chunk, each
  // wait a context switch.
  BoundedQueue<Chunk> chunks(6 * (jobs - 1));
  bool started = false;  // this input's worker threads are running
  std::vector<std::thread> threads;
  uint64_t lines = 0;
  // Where the sequential parser failed: the first error in input order is
  // reported, whichever thread met it.
  uint64_t sequential_error_at = UINT64_MAX;
  std::string why;
  auto feed = [&](LineReader* reader) {
    bool fed = parser_.Feed(reader, file, &why, lines, index);
    if (!fed) {  // a read error comes after all the text read before it
      *err = reader->error().empty() ? why : file + ": " + why;
      sequential_error_at = reader->error().empty() ? lines : UINT64_MAX;
    }
    lines += reader->line_number();
    return fed;
  };
  auto feed_sequential = [&](std::string_view text) {
    LineReader reader(text, config_.max_line);
    return feed(&reader);
  };
  BufferPool pool;
  auto parse_here = [&](Chunk* chunk) {
    ParseChunk(workers_[0].get(), chunk, &pool, file, config_.max_line, index);
  };
  // Every chunk handed out parsed (this thread helps), the workers gone.
  auto finish_chunks = [&] {
    chunks.Close();
    while (std::optional<Chunk> chunk = chunks.TryPop()) parse_here(&*chunk);
    for (std::thread& t : threads) t.join();
    threads.clear();
  };
  // The mapped file's bookkeeping, when it is mapped.
  std::unique_ptr<MappedChunks> mapped;
  std::unique_ptr<LineBases> bases;
  size_t mapped_chunks = 0;
  bool first = true;
  // Parses `text`, which ends after an empty line: sequentially up to the
  // input's first empty line and until the event filter is known, the rest
  // as a chunk, its text held by `*owner` or, when mapped, starting at
  // `offset` of the mapping.
  auto hand_out = [&](std::string_view text, TextBuffer* owner,
                      size_t offset) {
    size_t head = 0;
    if (first) {  // up to the first boundary: may continue a sample
      head = text.find("\n\n") + 2;
      first = false;
      if (!feed_sequential(text.substr(0, head))) return false;
    }
    if (head == text.size()) return true;
    text.remove_prefix(head);
    if (options.event_filter.empty() && parser_.event_filter().empty()) {
      return feed_sequential(text);
    }
    if (!started) {
      if (options.event_filter.empty()) {
        options.event_filter = parser_.event_filter();
      }
      parallel_event_ = options.event_filter;
      StartWorkers(options);
      for (size_t i = 1; i < jobs; ++i) {
        threads.emplace_back(RunWorker, workers_[i].get(), &chunks, &pool,
                             file, config_.max_line, index);
      }
      started = true;
    }
    Chunk chunk;
    chunk.text = text;
    if (mapped) {
      if (!bases) bases = std::make_unique<LineBases>(lines);
      chunk.number = mapped->Start(offset + head);
      chunk.mapped = mapped.get();
      chunk.bases = bases.get();
      ++mapped_chunks;
      // A full queue: this thread parses the oldest chunk queued (whose
      // line number comes first) and queues this one.
      while (!chunks.TryPush(&chunk)) {
        if (std::optional<Chunk> oldest = chunks.TryPop()) parse_here(&*oldest);
      }
      return true;
    }
    chunk.line_base = lines;
    lines += CountNewlines(text);
    chunk.buffer = std::move(*owner);
    if (!chunks.TryPush(&chunk)) parse_here(&chunk);
    return true;
  };
  bool ok = true;
  std::unique_ptr<MappedFile> map = MapSource(*source, kMinMapped, file);
  if (map != nullptr) {
    mapped = std::make_unique<MappedChunks>();
    const std::string_view all = map->bytes();
    size_t pos = 0, released = 0, asked = 0;
    while (ok && all.size() - pos >= kChunkBytes) {
      if (pos + kMapAhead / 2 >= asked) {
        asked = pos + kMapAhead;
        map->Prefetch(asked);
      }
      size_t window = kChunkBytes, cut;
      CutFinder finder;
      while ((cut = finder.Find(all.substr(pos, window))) ==
                 std::string_view::npos &&
             window < kMaxUncut && pos + window < all.size()) {
        window *= 2;
      }
      // No sample boundary in kMaxUncut bytes (a hostile input: a line of
      // gigabytes, a 100,000-deep stack), or none before the end: the
      // rest is read sequentially.
      if (cut == std::string_view::npos) break;
      ok = hand_out(all.substr(pos, cut), nullptr, pos);
      pos += cut;
      if (pos - released >= kReleaseStep) {
        released = mapped->ParsedUpTo(pos);
        map->Release(released);
      }
    }
    // The rest after the chunks, and what the file gained since it was
    // mapped, come after every chunk's lines.
    finish_chunks();
    if (bases) lines = bases->Total(mapped_chunks);
    if (ok) {
      MappedFileSource rest(map.get(), pos);
      LineReader reader(&rest, config_.max_line);
      ok = feed(&reader);
    }
  } else {
    TextBuffer buf = pool.Take();  // the text read and not handed out yet
    CutFinder finder;
    bool eof = false;
    while (ok && !eof) {
      size_t old = buf.size();
      char* to = buf.Extend(kChunkBytes);
      size_t got = 0;
      if (!source->Read(to, kChunkBytes, &got, &why)) {
        *err = file + ": " + why;
        ok = false;
        break;
      }
      buf.Truncate(old + got);
      eof = got == 0;
      if (!eof && buf.size() < kChunkBytes) continue;
      std::string_view text = buf.view();
      size_t cut = finder.Find(text);
      if (cut == std::string_view::npos) {
        if (text.size() < kMaxUncut) continue;
        // No sample boundary in kMaxUncut bytes: a hostile input (a line
        // of gigabytes, a 100,000-deep stack). Rather than hold it whole,
        // the sequential parser takes the rest of this input as a stream,
        // as with --jobs 1, under the same line-length limit.
        HeadSource rest(text, source);
        LineReader reader(&rest, config_.max_line);
        ok = feed(&reader);
        buf.Truncate(0);
        break;
      }
      TextBuffer tail = pool.Take();
      if (cut < text.size()) {
        std::memcpy(tail.Extend(text.size() - cut), text.data() + cut,
                    text.size() - cut);
      }
      ok = hand_out(text.substr(0, cut), &buf, 0);
      buf = std::move(tail);
      finder.Reset();
    }
    if (ok && buf.size() > 0) ok = feed_sequential(buf.view());
  }
  finish_chunks();
  // A read error comes after all the text read before it.
  uint64_t error_at = ok ? UINT64_MAX : sequential_error_at;
  // The workers' counts of this input (none if it was parsed here alone);
  // taken, as the parsers stay for the next input.
  for (size_t i = 0; started && i < workers_.size(); ++i) {
    FoldWorker& w = *workers_[i];
    if (!w.error.empty() && w.error_at < error_at) {
      error_at = w.error_at;
      *err = w.error;
    }
    MergeStats(&worker_stats_, w.parser.TakeStats());
  }
  return error_at == UINT64_MAX && ok;
}

void FoldInputs::Finish() {
  LimitStats before = limit_totals();
  parser_.Finish();  // may end the last input's last sample
  NoteLimits(last_file_, before);
  stats_ = parser_.stats();
  MergeStats(&stats_, worker_stats_);
  for (StackCounts* t : Tables()) total_samples_ += t->total_samples();
  if (trie_ == nullptr) return;  // VisitStacks gives the stacks
  if (worker_tables_.empty()) {
    counts_.MoveInto(trie_);
  } else {
    std::vector<std::vector<SymbolId>> maps;
    std::vector<uint32_t> rank;
    SortTables(&maps, &rank);
    StackCounts::MoveSortedInto(Tables(), maps, rank, trie_);
    workers_.clear();  // their tables are gone
    worker_tables_.clear();
  }
}

void FoldInputs::VisitStacks(const StackCounts::LineVisitor& visit) {
  std::vector<std::vector<SymbolId>> maps;
  std::vector<uint32_t> rank;
  SortTables(&maps, &rank);
  StackCounts::VisitSorted(Tables(), maps, rank, *names_, visit);
  workers_.clear();  // their tables are gone
  worker_tables_.clear();
}

// This thread's table, then the workers'.
std::vector<StackCounts*> FoldInputs::Tables() {
  std::vector<StackCounts*> tables{&counts_};
  for (auto& w : worker_tables_) tables.push_back(&w->counts);
  return tables;
}

// The worker threads' tables and this one's are sorted at once, each on a
// thread and in the order of its own names' ranks (the same order), while
// this thread maps the workers' names into the run's (`maps`, one per
// table, the first empty: its ids are the run's); `rank` is KeyRanks of the
// run's names. Then one sweep of their merged order builds the trie or
// writes the lines.
void FoldInputs::SortTables(std::vector<std::vector<SymbolId>>* maps_out,
                            std::vector<uint32_t>* rank_out) {
  const size_t k = worker_tables_.size();
  std::vector<std::thread> sorters;
  std::vector<std::vector<uint32_t>> own_ranks(k);
  for (size_t i = 0; i < k; ++i) {
    sorters.emplace_back([this, &own_ranks, i] {
      own_ranks[i] = StackTrie::KeyRanks(worker_tables_[i]->names);
      worker_tables_[i]->counts.SortForMove(own_ranks[i]);
    });
  }
  // maps[0]: this thread's table, already in the run's ids.
  std::vector<std::vector<SymbolId>> maps(k + 1);
  for (size_t i = 0; i < k; ++i) {
    const StringInterner& own = worker_tables_[i]->names;  // read-only here
    maps[i + 1].resize(own.size());
    for (SymbolId id = 0; id < own.size(); ++id) {
      maps[i + 1][id] = names_->Intern(own.Get(id));
    }
  }
  std::vector<uint32_t> rank = StackTrie::KeyRanks(*names_);
  counts_.SortForMove(rank);
  for (std::thread& t : sorters) t.join();
  *maps_out = std::move(maps);
  *rank_out = std::move(rank);
}

}  // namespace flamefold
