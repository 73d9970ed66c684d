#include "perfdata/perf_data_folder.h"

#include <cstdio>
#include <optional>
#include <thread>

#include "base/bounded_queue.h"
#include "collapse/perf_script_lines.h"
#include "perfdata/perf_archive.h"
#include "perfdata/replay.h"

namespace flamefold {
namespace {

// Chunks of text between the replay and the fold; their buffers go back
// through `spare` for reuse: fresh megabyte buffers would each cost page
// faults and an munmap, more than the copying itself.
constexpr size_t kQueuedChunks = 4;

// The perf.data in `src` rendered as perf script's text, which `into`
// reads. The replay (reading, symbols, text) and the fold's reading run on
// two threads joined by a small bounded queue of text chunks, as
// `perf script | stackcollapse-perf.pl` runs as two processes; memory stays
// at a few chunks whatever the input size.
bool FoldAsText(const std::string& name, ByteSource* src,
                const SymbolOptions& options, RecordingFold* into,
                PerfDataStats* stats, std::string* err) {
  const PerfScriptOptions& po = into->options();
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
  text.weight_field = po.weight_field;
  // Before the first chunk is queued: the parsing thread waits for it.
  text.sample_times = into->samples();
  // A range is compared at the recording's full precision: the text shows
  // it (perf script --ns) so that its reading keeps every sample in range.
  text.ns = po.time_range.active();
  bool ok = RenderPerfDataChunks(name, src, options, take, stats, err, text);
  queue.Close();
  parsing.join();
  if (!why.empty()) {
    *err = why;
    return false;
  }
  return ok;
}

}  // namespace

// Without --srcline and --inline the replay hands the fold each sample by
// its fields. --srcline reads the line after each frame (and a frame line
// when a frame has no source line), --inline each frame's address: those
// read the text.
bool FoldPerfData(const std::string& name, ByteSource* src,
                  const SymbolOptions& options, RecordingFold* into,
                  PerfDataStats* stats, std::string* err) {
  if (into->WantsText()) return FoldAsText(name, src, options, into, stats, err);
  return ReplayIntoFold(name, src, options, into->samples(), into->options(),
                        stats, err);
}

PerfDataFolder::PerfDataFolder(const SymbolOptions& symbols,
                               std::string archive, bool print_stats,
                               const Diag& diag)
    : symbols_(symbols), archive_(std::move(archive)),
      print_stats_(print_stats), diag_(diag) {}

// A regular file read as it is (not compressed, not a pipe, not a buffer)
// is mapped rather than read: the replay asks the source (ByteSource::InFile).
bool PerfDataFolder::Fold(const std::string& file, Input* in,
                          RecordingFold* into, std::string* err) {
  recordings_.emplace_back(file, PerfDataStats());
  PerfArchive archive;
  SymbolOptions symbols = symbols_;
  if (!UsePerfArchive(archive_, file, diag_, &archive, &symbols, err)) {
    return false;
  }
  PerfDataStats& stats = recordings_.back().second;
  bool ok = FoldPerfData(file, in->source.get(), symbols, into, &stats, err);
  WarnAboutPerfData(file, stats, diag_);
  if (print_stats_) PrintStats(file, stats);
  return ok;
}

void PerfDataFolder::PrintStats(const std::string& file,
                                const PerfDataStats& stats) const {
  const char* tool = diag_.tool().c_str();
  std::fprintf(stderr,
               "%s: stats: %s: perf.data recorded on %s by perf %s: %s\n"
               "%s: stats: %s: %llu records, %llu samples "
               "(%llu in guest mode skipped)\n",
               tool, file.c_str(),
               stats.hostname.empty() ? "?" : stats.hostname.c_str(),
               stats.perf_version.empty() ? "?" : stats.perf_version.c_str(),
               stats.cmdline.empty() ? "?" : stats.cmdline.c_str(), tool,
               file.c_str(), (unsigned long long)stats.records,
               (unsigned long long)stats.samples,
               (unsigned long long)stats.samples_skipped);
  if (stats.unwound > 0) {
    std::fprintf(stderr, "%s: stats: %s: %s\n", tool, file.c_str(),
                 UnwindStopSummary(stats).c_str());
  }
}

}  // namespace flamefold
