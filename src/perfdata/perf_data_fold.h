// From perf.data to folded stacks without perf: the records are replayed
// as perf script replays them, and each sample goes to the fold by its
// header's fields and its frames (ReplayIntoFold, RecordedSampleSink), each
// distinct frame resolved once, or, for --srcline and --inline, as the text
// perf script prints (RenderPerfData); either way every rule of
// stackcollapse-perf.pl (comm parsing, event filter, name tidying,
// --pid/--tid/--kernel/--jit) applies exactly as it does to
// `perf script | flamefold`.
//
// The replay, as perf script does it:
//   - records in perf's time order (ordered_records.h);
//   - COMM, FORK, MMAP and MMAP2 update threads and their maps, so a sample
//     takes the comm and maps of its moment (thread_maps.h);
//   - frames named once per (DSO, address) (frame_texts.h);
//   - call chains switch between kernel and user maps at the PERF_CONTEXT
//     markers; a guest context discards the chain; at most 127 frames;
//   - --call-graph dwarf samples unwound (sample_unwinder.h);
//   - samples in guest mode are skipped.
#ifndef FLAMEFOLD_PERFDATA_PERF_DATA_FOLD_H_
#define FLAMEFOLD_PERFDATA_PERF_DATA_FOLD_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_source.h"
#include "base/diag.h"
#include "perfdata/dwarf_unwind.h"
#include "collapse/perf_script_options.h"
#include "collapse/recorded_sample.h"
#include "collapse/recording_folder.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

struct PerfDataStats {
  uint64_t records = 0;
  uint64_t samples = 0;
  uint64_t samples_skipped = 0;  // guest mode
  uint64_t dwarf_chains = 0;     // --call-graph dwarf: not unwound
  std::string truncated;         // what a cut-short input lost
  // --call-graph dwarf: samples unwound, and those whose walk ended early
  // or went on by the frame-pointer guess, by (reason, DSO name).
  uint64_t unwound = 0, unwind_stopped = 0;
  std::map<std::pair<UnwindStop, std::string>, uint64_t> unwind_stops;
  std::vector<std::string> warnings;
  // From the feature sections, for --stats and flamereport.
  std::string hostname, perf_version, cmdline, os_release, arch;
  // The recording's own facts, for flamereport.
  struct Event {
    std::string name;
    bool freq = false;  // rate: samples a second (-F); else events a sample
    uint64_t rate = 0;
    uint64_t samples = 0;
  };
  std::vector<Event> events;  // perf's dummy (tracking-only) events left out
  uint64_t first_time = UINT64_MAX, last_time = 0;  // of the samples, in ns
  // What the kernel could not write (its buffer was full), as perf
  // record saw it: LOST_SAMPLES records count samples (perf 6.0 and
  // kernels 6.0 on write one at the end); LOST records count records of
  // any kind, in chunks.
  uint64_t lost_samples = 0;
  bool lost_samples_recorded = false;  // a LOST_SAMPLES record was read
  uint64_t lost_records = 0, lost_chunks = 0;
  uint64_t frames = 0;            // of every sample, as perf script prints
  uint64_t frames_no_symbol = 0;  // ... them: those shown as [unknown]
  /// The DSOs of those frames ("[unknown]": no mapping), most frames first.
  std::vector<std::pair<std::string, uint64_t>> no_symbol_dsos;
};

/// One line: how many unwound samples ended early, by reason, with the
/// DSOs and counts.
std::string UnwindStopSummary(const PerfDataStats& stats);

/// How RenderPerfData writes the samples.
struct PerfDataText {
  /// false: the frame lines are shortened where stackcollapse-perf.pl
  /// ignores the difference: no padding before the address and no "+0x"
  /// offset after the symbol (unless the name itself holds "+0x"), so that
  /// a function's frames are one distinct line for the fold's cache.
  bool exact = true;
  /// As `perf script -F+srcline`: each frame followed by the line
  /// "  SRCLINE" when perf prints one (see perf_srcline.h). The frames are
  /// then written exactly, whatever `exact` says: stackcollapse-perf.pl
  /// takes a frame line for the source line of a frame that has none.
  bool srcline = false;
  /// As `perf script -F +pid`: "comm PID/TID" in each sample's header
  /// instead of "comm TID", so that --pid and --tid see the process.
  bool pid_tid = false;
  /// With a fold and more than one core: once nothing is loading, the
  /// samples are given to the fold on a thread of their own while the
  /// replay names the next samples' frames (SampleLinesThread). false: on
  /// the replay's thread (the same result, for tests).
  bool lines_thread = true;
  /// The fold keys frames on their addresses (--addrs): each address is a
  /// frame of its own, not each symbol.
  bool addrs = false;
  /// Without a fold (the text is emitted): told the header's first and
  /// last sample times before the first sample, as a fold is.
  RecordedSampleSink* sample_times = nullptr;
  /// Times to the ns (perf script --ns), for a --time-range on the text.
  bool ns = false;
};

/// Writes the perf script text of every sample of the perf.data in `src`
/// through `emit`, in pieces that end at sample boundaries. False with
/// `*err` on corrupt input or when `emit` returns false.
/// When `src` reads a regular file as it is (ByteSource::InFile: an
/// uncompressed file input), the file is mapped instead of read.
bool RenderPerfData(const std::string& name, ByteSource* src,
                    const SymbolOptions& options,
                    const std::function<bool(std::string_view)>& emit,
                    PerfDataStats* stats, std::string* err,
                    PerfDataText text = {});

/// Receives a chunk of text. It may keep the chunk's buffer, swapping in
/// another (whose content is then dropped), so that chunks move between
/// threads without copies; false stops the rendering.
using ChunkSink = std::function<bool(std::string* chunk)>;

/// RenderPerfData with chunks handed over by buffer.
bool RenderPerfDataChunks(const std::string& name, ByteSource* src,
                          const SymbolOptions& options, const ChunkSink& take,
                          PerfDataStats* stats, std::string* err,
                          PerfDataText text = {});

/// FoldPerfData without --srcline and --inline: no text is rendered, each
/// sample goes to `sink` by its fields and frames (see RecordedSampleSink).
/// `fold_options` are the fold's (--addrs keys frames on addresses).
/// `lines_thread`: as PerfDataText's (false: for tests, the same result
/// without the thread).
bool ReplayIntoFold(const std::string& name, ByteSource* src,
                    const SymbolOptions& options, RecordedSampleSink* sink,
                    const PerfScriptOptions& fold_options,
                    PerfDataStats* stats, std::string* err,
                    bool lines_thread = true);

/// Folds the perf.data in `src` into `into` (its state, such as the event
/// filter, carries over as for any other input): by its samples' fields,
/// or, where the fold reads --srcline or --inline, as the text perf script
/// prints (-F+srcline: with the source lines), which `into` reads.
bool FoldPerfData(const std::string& name, ByteSource* src,
                  const SymbolOptions& options, RecordingFold* into,
                  PerfDataStats* stats, std::string* err);

/// Warns, once each, about what folding the perf.data `file` lost or
/// lacked (symbols, --call-graph dwarf stacks, a cut-short file): every
/// tool that folds perf.data says the same, under its own name.
void WarnAboutPerfData(const std::string& file, const PerfDataStats& stats,
                       const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_PERF_DATA_FOLD_H_
