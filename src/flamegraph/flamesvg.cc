#include "flamegraph/flamesvg.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <thread>

#include "base/arena.h"
#include "base/bounded_queue.h"
#include "collapse/input_kind.h"
#include "collapse/stack_limits.h"
#include "flamegraph/svg_text.h"
#include "io/line_reader.h"

namespace flamefold {

namespace {

// flamegraph.pl has no limit; ours only guards against runaway input.
constexpr size_t kMaxLine = size_t{1} << 28;

// A copy of the lines read from a standard input that cannot be read
// twice (a pipe), to read them again if they turn out not to be sorted: in
// a temporary file, or in memory when no temporary file can be made. The
// lines are gathered in blocks that a writer thread appends to the file,
// so the main thread only copies bytes; the file is closed (its pages
// freed) on that thread too when the copy is dropped unread.
class Spool {
 public:
  Spool() : file_(std::tmpfile()), blocks_(kQueuedBlocks) {
    if (file_ != nullptr) writer_ = std::thread([this] { WriteBlocks(); });
  }
  ~Spool() { Drop(); }
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  void Add(std::string_view line) {
    if (file_ == nullptr) {
      lines_.push_back(arena_.Store(line));
      return;
    }
    block_.append(line);
    block_.push_back('\n');
    if (block_.size() >= kBlockBytes) PushBlock();
  }
  /// Calls `fn` with every line added. False with `*err` on a write or read
  /// error.
  bool ReadBack(const std::function<void(std::string_view)>& fn,
                std::string* err) {
    if (file_ == nullptr) {
      for (std::string_view line : lines_) fn(line);
      return true;
    }
    PushBlock();
    blocks_.Close();
    writer_.join();
    if (!write_ok_) {
      *err = "temporary file: write error";
      return false;
    }
    std::rewind(file_);
    FdSource source(fileno(file_), false);
    LineReader reader(&source, kMaxLine);  // lines already accepted
    std::string_view line;
    for (;;) {
      LineReader::Result r = reader.Next(&line);
      if (r == LineReader::kEof) return true;
      if (r == LineReader::kError) {
        *err = "temporary file: " + reader.error();
        return false;
      }
      fn(line);
    }
  }
  /// The copy will not be read: the writer thread stops writing and closes
  /// the file while the caller goes on; the destructor waits for it.
  void Discard() {
    dropped_ = true;
    blocks_.Close();
  }

 private:
  static constexpr size_t kBlockBytes = size_t{256} << 10;
  static constexpr size_t kQueuedBlocks = 4;

  void PushBlock() {
    if (block_.empty()) return;
    blocks_.Push(&block_);
    block_ = std::string();
    block_.reserve(kBlockBytes + 4096);
  }
  // The writer thread: appends each block to the file until the queue is
  // closed; closes the file if the copy was dropped.
  void WriteBlocks() {
    while (std::optional<std::string> block = blocks_.Pop()) {
      if (dropped_ || !write_ok_) continue;
      write_ok_ = std::fwrite(block->data(), 1, block->size(), file_) ==
                  block->size();
    }
    if (dropped_) {
      std::fclose(file_);
      file_closed_ = true;
      return;
    }
    if (std::fflush(file_) != 0) write_ok_ = false;
  }
  void Drop() {
    if (writer_.joinable()) {
      Discard();
      writer_.join();
    }
    if (file_ != nullptr && !file_closed_) std::fclose(file_);
  }

  std::FILE* file_;  // used by the writer thread until it is joined
  bool file_closed_ = false;  // by the writer thread (read once joined)
  BoundedQueue<std::string> blocks_;
  std::string block_;  // lines not yet queued
  std::atomic<bool> dropped_{false};
  bool write_ok_ = true;  // the writer thread's until it is joined
  std::thread writer_;
  Arena arena_;
  std::vector<std::string_view> lines_;
};

// Reads folded lines from the inputs in the order flamegraph.pl merges
// them: sorted as whole lines (byte order, which on valid UTF-8 is Perl's
// code point order), or in input order for --flamechart. Sorted input
// (flamefold's output is) streams straight into the merger; the lines are
// held and sorted only when one arrives out of order. Standard input that
// is a regular file is then read again from where it started; one that
// cannot be read twice (a pipe) is copied while it streams (Spool), to be
// read back in that case.
class LineFeeder {
 public:
  LineFeeder(const FlameSvgConfig& config, const Diag& diag)
      : config_(config), diag_(diag) {
    inputs_ = config.inputs;
    if (inputs_.empty()) inputs_.push_back("-");
  }

  // Feeds every line to `merger`; returns the exit status.
  int Run(FrameMerger* merger, FlameSvgStats* stats);
  // The first input that is perf script output, not folded stacks ("" if
  // none): flamegraph.pl draws nothing of it, and neither do we.
  const std::string& perf_script() const { return perf_script_; }
  // The copy of standard input, if one was made and is not needed any more
  // (the input was sorted): its file is being closed on its own thread, so
  // the caller keeps it while drawing and lets it go at the end.
  std::unique_ptr<Spool> TakeDiscardedCopy() { return std::move(stdin_copy_); }

 private:
  enum class Pass { kStream, kHold };
  // Reads input `i` (from its start) into the pass. Returns false with a
  // message printed on a read error; sets disorder_ when streaming meets a
  // line out of order.
  bool ReadInput(size_t i, Pass pass);
  bool ReadLines(LineReader* reader, const std::string& name, Pass pass,
                 bool transform);
  std::string_view Transform(std::string_view raw);
  std::string_view Limit(std::string_view line);
  void Accept(std::string_view line, Pass pass);
  // Holds the lines copied from standard input.
  bool ReadBackStdin();
  // Moves standard input back to where it started, to be read again.
  bool RewindStdin();

  const FlameSvgConfig& config_;
  const Diag& diag_;
  std::vector<std::string> inputs_;
  FrameMerger* merger_ = nullptr;
  std::string prev_;
  bool disorder_ = false;
  std::unique_ptr<Spool> stdin_copy_;
  // Where standard input started, when it is a regular file and has not
  // been rewound yet; -1 otherwise.
  int64_t stdin_offset_ = -1;
  // Standard input was opened for streaming (and copied or its offset
  // kept): a second "-" reads what is left of it, nothing.
  bool stdin_opened_ = false;
  Spool* spool_ = nullptr;  // where the current input is copied, if anywhere
  std::string utf8_buf_, reverse_buf_, limit_stack_, limit_line_;
  // What the stack limits cut, per input (inputs_[i]); current_ is read.
  std::vector<LimitStats> limit_stats_;
  size_t current_ = 0;
  Arena held_arena_;
  std::vector<std::string_view> held_;
  uint64_t lines_ = 0;
  uint64_t too_long_ = 0;
  std::string perf_script_;
  // The stdin reader, kept when disorder interrupts it.
  std::unique_ptr<Input> stdin_input_;
  std::unique_ptr<LineReader> stdin_reader_;
};

std::string_view LineFeeder::Transform(std::string_view raw) {
  std::string_view line = raw;
  if (!IsValidUtf8(line)) {
    utf8_buf_.clear();
    AppendValidUtf8(line, &utf8_buf_);
    line = utf8_buf_;
  }
  line = Limit(line);
  if (config_.reverse) {
    reverse_buf_ = ReverseFlameLine(line);
    line = reverse_buf_;
  }
  return line;
}

// The line with its stack cut to the limits (stack_limits.h); most lines
// are shorter than both limits and pass as they are.
std::string_view LineFeeder::Limit(std::string_view line) {
  const StackLimits& limits = config_.limits;
  if (line.size() <= limits.max_frame && line.size() < limits.max_depth) {
    return line;
  }
  std::string_view stack, c1, c2;
  if (!ParseFlameLine(line, &stack, &c1, &c2)) return line;
  std::string_view cut = LimitFoldedStack(stack, limits,
                                          &limit_stats_[current_],
                                          &limit_stack_);
  if (cut.size() == stack.size()) return line;  // nothing was cut
  std::string_view counts = line.substr(stack.size());
  limit_line_.assign(cut);
  limit_line_.append(counts);
  return limit_line_;
}

void LineFeeder::Accept(std::string_view line, Pass pass) {
  ++lines_;
  if (pass == Pass::kHold) {
    held_.push_back(held_arena_.Store(line));
    return;
  }
  if (!config_.graph.flamechart) {
    std::string_view stack, c1, c2;
    if (ParseFlameLine(line, &stack, &c1, &c2)) {
      if (line < std::string_view(prev_)) {
        disorder_ = true;
        return;
      }
      prev_.assign(line);
    }
  }
  if (spool_ != nullptr) spool_->Add(line);
  merger_->AddLine(line);
}

bool LineFeeder::ReadLines(LineReader* reader, const std::string& name,
                           Pass pass, bool transform) {
  std::string_view raw;
  for (;;) {
    LineReader::Result r = reader->Next(&raw);
    if (r == LineReader::kEof) return true;
    if (r == LineReader::kError) {
      diag_.Error(name + ": " + reader->error());
      return false;
    }
    if (r == LineReader::kTooLong) {
      ++too_long_;
      Accept("", pass);  // counted as an invalid line
      continue;
    }
    std::string_view line = transform ? Transform(raw) : raw;
    Accept(line, pass);
    if (pass == Pass::kStream && disorder_) {
      // Keep the line that broke the order with the copied ones.
      if (spool_ != nullptr) spool_->Add(line);
      return true;
    }
  }
}

bool LineFeeder::ReadInput(size_t i, Pass pass) {
  const std::string& name = inputs_[i];
  bool is_stdin = name == "-";
  current_ = i;
  bool rewound = is_stdin && pass == Pass::kHold && stdin_offset_ >= 0;
  if (rewound && !RewindStdin()) return false;
  // Read again from its start (not a copied standard input, whose copy
  // holds its lines as already cut): count again.
  if (pass == Pass::kHold && (!is_stdin || rewound)) {
    limit_stats_[i] = LimitStats();
  }
  if (is_stdin && pass == Pass::kHold && stdin_reader_ != nullptr) {
    // Streaming stopped in standard input: read back the copy, then the
    // rest.
    if (!ReadBackStdin()) return false;
    bool ok = ReadLines(stdin_reader_.get(), name, pass, true);
    stdin_reader_.reset();
    stdin_input_.reset();
    return ok;
  }
  auto in = std::make_unique<Input>();
  std::string err;
  if (!config_.open_input(name, in.get(), &err)) {
    diag_.Error(err);
    return false;
  }
  if (IsPerfData(in->kind)) {
    diag_.Error(name + ": perf.data input: fold it first (flamefold " +
                name + " | flamesvg)");
    return false;
  }
  // Any other text is read as flamegraph.pl reads it, as folded stacks;
  // perf script output is named in a warning.
  if (pass == Pass::kStream && in->kind == ContentKind::kPerfScript &&
      perf_script_.empty()) {
    perf_script_ = name;
  }
  auto reader = std::make_unique<LineReader>(
      in->source.get(), config_.limits.LineLimit(kMaxLine));
  if (is_stdin && pass == Pass::kStream && !config_.graph.flamechart &&
      !stdin_opened_) {
    stdin_opened_ = true;
    stdin_offset_ = in->stdin_offset;
    if (stdin_offset_ < 0) {
      stdin_copy_ = std::make_unique<Spool>();
      spool_ = stdin_copy_.get();
    }
  }
  bool ok = ReadLines(reader.get(), name, pass, true);
  spool_ = nullptr;
  if (ok && disorder_ && is_stdin && pass == Pass::kStream) {
    stdin_input_ = std::move(in);
    stdin_reader_ = std::move(reader);
  }
  return ok;
}

bool LineFeeder::RewindStdin() {
  stdin_reader_.reset();
  stdin_input_.reset();
  if (lseek(STDIN_FILENO, static_cast<off_t>(stdin_offset_), SEEK_SET) < 0) {
    diag_.Error(std::string("-: cannot read standard input again: ") +
                std::strerror(errno));
    return false;
  }
  stdin_offset_ = -1;
  return true;
}

bool LineFeeder::ReadBackStdin() {
  if (stdin_copy_ == nullptr) return true;  // "-" given twice: empty now
  std::string err;
  if (!stdin_copy_->ReadBack([&](std::string_view line) {
        Accept(line, Pass::kHold);
      }, &err)) {
    diag_.Error(err);
    return false;
  }
  stdin_copy_.reset();
  return true;
}

int LineFeeder::Run(FrameMerger* merger, FlameSvgStats* stats) {
  merger_ = merger;
  limit_stats_.assign(inputs_.size(), LimitStats());
  size_t stopped = inputs_.size();
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (!ReadInput(i, Pass::kStream)) return kExitDataError;
    if (disorder_) {
      stopped = i;
      break;
    }
  }
  if (stats) stats->sorted_input = !disorder_;
  if (!disorder_ && stdin_copy_ != nullptr) stdin_copy_->Discard();
  if (disorder_) {
    // Hold every line, sort, and merge again from the start.
    lines_ = 0;
    too_long_ = 0;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (inputs_[i] == "-" && i < stopped && stdin_offset_ < 0) {
        // Read whole while streaming: its copy has every line.
        if (!ReadBackStdin()) return kExitDataError;
        continue;
      }
      if (!ReadInput(i, Pass::kHold)) return kExitDataError;
    }
    std::sort(held_.begin(), held_.end());
    *merger_ = FrameMerger(config_.graph.min_width,
                           config_.graph.palette == "chain");
    for (std::string_view line : held_) merger_->AddLine(line);
  }
  if (too_long_ > 0) {
    diag_.Warning(std::to_string(too_long_) +
                  " lines longer than the line limit were skipped");
  }
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (limit_stats_[i].any()) {
      diag_.Warning(LimitWarning(inputs_[i], config_.limits, limit_stats_[i]));
    }
  }
  if (stats) stats->lines = lines_;
  return kExitOk;
}

}  // namespace

int RunFlameSvg(const FlameSvgConfig& config, OutputSink* out,
                const Diag& diag, FlameSvgStats* stats) {
  const FlameGraphOptions& g = config.graph;
  PaletteMap palette_map;
  std::string err;
  if (config.use_palette_map && !palette_map.Load(config.palette_file, &err)) {
    diag.Error(err);
    return kExitDataError;
  }
  if (!IsKnownPalette(g.palette)) {
    diag.Warning("unknown --colors '" + Printable(g.palette) +
                 "': every frame is black, as flamegraph.pl paints it; the "
                 "palettes are " + std::string(kPaletteNames));
  }
  FrameMerger merger(g.min_width, g.palette == "chain");
  std::string perf_script;  // an input that is perf script output
  // Closes on its own thread while the graph is drawn; waited for on return.
  std::unique_ptr<Spool> discarded_copy;
  {
    LineFeeder feeder(config, diag);
    int status = feeder.Run(&merger, stats);
    if (status != kExitOk) return status;
    perf_script = feeder.perf_script();
    discarded_copy = feeder.TakeDiscardedCopy();
  }
  merger.Finish();
  double time = merger.time();
  if (g.count_name == "samples" && time < 100) {
    diag.Warning("the total count is low (" + [&] {
      std::string s;
      AppendPerlValue(time, &s);
      return s;
    }() + "): is this the input you meant?");
  }
  if (merger.ignored() > 0) {
    diag.Warning("ignored " + std::to_string(merger.ignored()) +
                 " lines that are not \"STACK COUNT\"");
  }
  std::string fold_first;  // what to run instead, for perf script input
  if (!perf_script.empty()) {
    fold_first = perf_script + " is perf script output, not folded stacks: "
                 "fold it first (" +
                 (perf_script == "-" ? std::string("perf script | flamefold")
                                     : "flamefold " + perf_script) +
                 " | flamesvg)";
  }
  if (time == 0) {
    diag.Error("no stack counts in the input" +
               (fold_first.empty() ? "" : ": " + fold_first));
    WriteErrorSvg(g, out);
    return kExitUsage;
  }
  if (!fold_first.empty()) diag.Warning(fold_first);
  if (g.min_width.has_total && g.min_width.total < time &&
      g.min_width.total / time > 0.02) {
    std::string t;
    AppendPerlValue(time, &t);
    diag.Warning("--total is below the input's total " + t + ": ignored");
  }
  if (config.max_frames > 0) {
    size_t dropped = merger.LimitFrames(config.max_frames);
    if (dropped > 0) {
      diag.Warning("--max-frames: left out the " + std::to_string(dropped) +
                   " narrowest frames (their counts stay in their parents)");
    }
  }
  uint32_t seed = 0;
  if (config.color_mode == ColorMode::kRandom) seed = std::random_device{}();
  ColorSource colors(config.color_mode, seed);
  WriteFlameGraph(merger, g, &colors,
                  config.use_palette_map ? &palette_map : nullptr, out);
  if (config.use_palette_map && !palette_map.Save(config.palette_file, &err)) {
    diag.Error(err);
    return kExitDataError;
  }
  return kExitOk;
}

}  // namespace flamefold
