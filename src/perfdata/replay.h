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
//   - a sample that read counters is one sample per counter
//     (counter_reads.h); samples in guest mode are skipped;
//   - a sample's frames named in its thread's maps (sample_frames.h);
//   - the samples handed to the fold in order (sample_handover.h);
//   - what the recording holds besides, for --stats and flamereport
//     (recording_stats.h).
#ifndef FLAMEFOLD_PERFDATA_REPLAY_H_
#define FLAMEFOLD_PERFDATA_REPLAY_H_

#include <functional>
#include <string>
#include <string_view>

#include "collapse/perf_script_options.h"
#include "collapse/recorded_sample.h"
#include "io/byte_source.h"
#include "perfdata/recording_stats.h"
#include "perfdata/sample_handover.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

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
  /// replay names the next samples' frames (FoldThread). false: on the
  /// replay's thread (the same result, for tests).
  bool fold_thread = true;
  /// The fold keys frames on their addresses (--addrs): each address is a
  /// frame of its own, not each symbol.
  bool addrs = false;
  /// --weight: each sample carries the value of this field of its
  /// tracepoint data; a recording none of whose events has it is an error.
  std::string weight_field;
  /// Without a fold (the text is emitted): told the header's first and
  /// last sample times before the first sample, as a fold is.
  RecordedSampleSink* sample_times = nullptr;
  /// Times to the ns (perf script --ns), for a --time-range on the text.
  bool ns = false;
  /// --off-cpu: each sample carries its sched_switch fields, and the
  /// fold is told of switch-ins and of the last record's time.
  bool off_cpu = false;
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

/// RenderPerfData with chunks handed over by buffer.
bool RenderPerfDataChunks(const std::string& name, ByteSource* src,
                          const SymbolOptions& options, const ChunkSink& take,
                          PerfDataStats* stats, std::string* err,
                          PerfDataText text = {});

/// FoldPerfData without --srcline and --inline: no text is rendered, each
/// sample goes to `sink` by its fields and frames (see RecordedSampleSink).
/// `fold_options` are the fold's (--addrs keys frames on addresses).
/// `fold_thread`: as PerfDataText's (false: for tests, the same result
/// without the thread).
bool ReplayIntoFold(const std::string& name, ByteSource* src,
                    const SymbolOptions& options, RecordedSampleSink* sink,
                    const PerfScriptOptions& fold_options,
                    PerfDataStats* stats, std::string* err,
                    bool fold_thread = true);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_REPLAY_H_
