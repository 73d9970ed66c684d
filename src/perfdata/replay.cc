#include "perfdata/replay.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "collapse/perf_script_lines.h"
#include "io/file_source.h"
#include "io/mapped_file.h"
#include "perfdata/counter_reads.h"
#include "perfdata/ordered_records.h"
#include "perfdata/perf_abi.h"
#include "perfdata/perf_data.h"
#include "perfdata/sample_frames.h"
#include "perfdata/sample_weights.h"
#include "perfdata/sched_fields.h"
#include "perfdata/thread_maps.h"

namespace flamefold {
namespace abi = perf_abi;
namespace {

// The replay: each record in perf's order (FeedRecords) updates the
// threads and maps (ThreadMaps) or, for a sample, is held with its header
// and its frames (SampleFrames) and handed to the fold or out as text
// (SampleHandover).
class Replay : public OrderedRecords {
 public:
  Replay(PerfDataReader* reader, SymbolResolver* symbols,
         const ChunkSink& emit, RecordedSampleSink* sink, PerfDataStats* stats,
         PerfDataText text)
      : reader_(reader), sink_(sink), stats_(stats), threads_(symbols),
        frames_(symbols, &threads_, FrameStyle(text, sink), stats),
        handover_(reader->info(), frames_.resolver(), sink, emit,
                  text.fold_thread),
        weight_field_(text.weight_field), off_cpu_(text.off_cpu && sink) {
    header_style_.pid_tid = text.pid_tid;
    header_style_.weight_field = weight_field_;
    header_style_.ns = text.ns;
    sample_times_ = sink ? sink : text.sample_times;
  }

  bool OnHeader(const PerfDataInfo& info, std::string* err) override {
    if (!weight_field_.empty() &&
        !weights_.Init(weight_field_, info, reader_->name(), err)) {
      return false;
    }
    if (off_cpu_ && !sched_.Init(info, reader_->name(), err)) return false;
    if (sample_times_ && info.first_sample_time != 0 &&
        info.last_sample_time != 0) {
      sample_times_->SetSampleTimes(info.first_sample_time,
                                    info.last_sample_time);
    }
    attr_samples_.assign(info.attrs.size(), 0);
    handover_.SyncEvents();
    for (const PerfAttr& a : info.attrs) {
      header_style_.name_width =
          std::max(header_style_.name_width, a.name.size());
    }
    threads_.AddBuildIds(info.build_ids);
    frames_.SetArch(info.swapped ? nullptr : RegisterMapFor(info.arch));
    return true;
  }

  bool OnOrdered(const PerfRecord& rec, std::string* err) override {
    return Apply(rec, err);
  }

  /// Once every record was replayed: lets the held samples go and emits
  /// the text not yet emitted.
  bool Finish(std::string* err) {
    if (!handover_.Finish(err)) return false;
    if (off_cpu_ && last_time_ != 0) sink_->RecordEnd(last_time_);
    return true;
  }

  /// Puts the recording's facts in `stats`: its events with their sample
  /// counts and the frames without a symbol by DSO.
  void Summarize(const PerfDataInfo& info) {
    std::string ignored;  // an error, if any, was given before
    handover_.StopFoldThread(&ignored);
    CountEvents(info.attrs, attr_samples_, stats_);
    stats_->frames = handover_.frame_count();
    CountNoSymbolFrames(frames_.resolver().NoSymbolByDso(), stats_);
  }

 private:
  static FrameResolver::Style FrameStyle(PerfDataText text,
                                         const RecordedSampleSink* sink) {
    FrameResolver::Style style;
    style.exact = text.exact;
    style.srcline = text.srcline;
    // The fold names every "[unknown]" frame alike, unless --addrs.
    style.one_unmapped = sink && !text.addrs;
    // Without --addrs the fold's key of a frame is its symbol without the
    // offset and its module (FrameNames::Key); with --srcline or --inline
    // the replay renders text instead.
    style.by_symbol = style.one_unmapped;
    return style;
  }

  // A record in perf's order.
  bool Apply(const PerfRecord& rec, std::string* err) {
    if (off_cpu_) {
      uint64_t t = reader_->TimeOf(rec);
      if (t != UINT64_MAX && t > last_time_) last_time_ = t;
    }
    switch (rec.type) {
      case abi::kRecordComm: {
        PerfComm c;
        if (!reader_->ParseComm(rec, &c, err)) return false;
        threads_.OnComm(c);
        return true;
      }
      case abi::kRecordFork: {
        PerfFork f;
        if (!reader_->ParseFork(rec, &f, err)) return false;
        threads_.OnFork(f, !(rec.misc & abi::kMiscForkExec));
        return true;
      }
      case abi::kRecordMmap:
      case abi::kRecordMmap2: {
        PerfMmap m;
        if (!reader_->ParseMmap(rec, &m, err)) return false;
        threads_.OnMmap(m, rec.misc & abi::kMiscCpumodeMask);
        return true;
      }
      case abi::kRecordSample: return OnSample(rec, err);
      case abi::kRecordSwitch: return OnSwitch(rec, 0, err);
      case abi::kRecordSwitchCpuWide: return OnSwitch(rec, 8, err);
      default: return true;  // EXIT, LOST, THROTTLE, ...: nothing to print
    }
  }

  // --off-cpu: a SWITCH record (`fixed` bytes before its sample_id
  // trailer: the next or previous pid and tid of a CPU-wide one). Only a
  // switch-in ends a wait; the trailer names the thread switched in.
  bool OnSwitch(const PerfRecord& rec, size_t fixed, std::string* err) {
    if (!off_cpu_ || (rec.misc & abi::kMiscSwitchOut)) return true;
    PerfSample s;
    if (!reader_->ParseIdTrailer(rec, fixed, &s) || s.time == UINT64_MAX ||
        s.tid == UINT32_MAX) {
      return true;
    }
    return handover_.HoldSwitchIn(static_cast<int32_t>(s.tid), s.time, err);
  }

  bool OnSample(const PerfRecord& rec, std::string* err) {
    if (!sample_.callchain.capacity()) sample_.callchain.reserve(64);
    if (!reader_->ParseSample(rec, &sample_, err)) return false;
    stats_->samples++;
    if (sample_.time != UINT64_MAX) {
      stats_->first_time = std::min(stats_->first_time, sample_.time);
      stats_->last_time = std::max(stats_->last_time, sample_.time);
    }
    uint8_t cpumode = rec.misc & abi::kMiscCpumodeMask;
    if (cpumode == abi::kMiscGuestKernel || cpumode == abi::kMiscGuestUser) {
      if (sample_.attr < attr_samples_.size()) attr_samples_[sample_.attr]++;
      stats_->samples_skipped++;
      return true;
    }
    if (sample_.read_values.empty()) return Deliver(rec, err);
    return DeliverReads(rec, err);
  }

  // A sample that read counters: one sample per counter read, each of its
  // counter's event and period (CounterReads).
  bool DeliverReads(const PerfRecord& rec, std::string* err) {
    reads_.Read(
        sample_.read_values,
        [this](uint64_t id) { return reader_->AttrOfId(id); }, &counters_);
    for (const CounterRead& r : counters_) {
      sample_.attr = r.attr;
      sample_.period = r.period;
      if (!Deliver(rec, err)) return false;
    }
    return true;
  }

  // Holds the sample, its header and its frames, and hands it on.
  bool Deliver(const PerfRecord& rec, std::string* err) {
    if (!handover_.BeforeSample(err)) return false;
    if (sample_.attr < attr_samples_.size()) attr_samples_[sample_.attr]++;
    const PerfAttr& a = reader_->info().attrs[sample_.attr];
    const Thread* t = threads_.FindNew(static_cast<int32_t>(sample_.pid),
                                       static_cast<int32_t>(sample_.tid));
    bool header_nul = HoldHeader(rec, a, *t);
    frames_.Hold(t, a, sample_, rec.misc & abi::kMiscCpumodeMask,
                 handover_.held());
    return handover_.AfterSample(header_nul || frames_.nul(), err);
  }

  // Begins the held sample: its header's fields and comm for the fold, or
  // its header line. True when the fold may refuse the header (a NUL byte
  // in the comm or the event's name).
  bool HoldHeader(const PerfRecord& rec, const PerfAttr& a, const Thread& t) {
    bool chain = a.sample_type & abi::kSampleCallchain;
    HeaderValues v{sample_.period, static_cast<uint32_t>(sample_.attr),
                   static_cast<int32_t>(sample_.pid),
                   static_cast<int32_t>(sample_.tid),
                   static_cast<int32_t>(sample_.cpu), sample_.time,
                   ++ordinal_, rec.offset};
    if (!weight_field_.empty()) {
      v.weight = weights_.Of(sample_.attr, sample_.raw);
    }
    if (off_cpu_) v.sched = sched_.Of(sample_.attr, sample_.raw);
    HeldSamples* held = handover_.held();
    if (sink_) {
      held->Begin(chain, &v);
      *held->header() += t.comm;
      return HoldsNul(t.comm) || HoldsNul(a.name);
    }
    held->Begin(chain);
    AppendSampleHeader(RecordedSamples::EventOf(a),
                       RecordedSamples::HeaderOf(v, t.comm, chain),
                       header_style_, held->header());
    return false;
  }

  PerfDataReader* reader_;
  RecordedSampleSink* sink_;  // when set, the samples go here, not as text
  PerfDataStats* stats_;
  ThreadMaps threads_;
  SampleFrames frames_;
  SampleHandover handover_;
  const std::string weight_field_;  // --weight's ("": none)
  SampleWeights weights_;  // --weight's field of each event
  const bool off_cpu_;  // --off-cpu, into a fold
  SchedFields sched_;   // --off-cpu's fields of sched_switch
  uint64_t last_time_ = 0;  // --off-cpu: of the last record read
  RecordedSampleSink* sample_times_;  // told the header's sample times
  CounterReads reads_;
  std::vector<CounterRead> counters_;  // DeliverReads'
  SampleHeaderStyle header_style_;  // the text's headers
  uint64_t ordinal_ = 0;  // of the last sample delivered
  PerfSample sample_;  // the sample being replayed
  std::vector<uint64_t> attr_samples_;  // samples of each attr
};

// Replays the perf.data in `src`, its samples' text going through `take`
// or, when `sink` is set, to that fold by their fields.
bool ReplayRecording(const std::string& name, ByteSource* src,
                     const SymbolOptions& options, const ChunkSink& take,
                     RecordedSampleSink* sink, PerfDataStats* stats,
                     std::string* err, PerfDataText text) {
  // A regular file is mapped; one that shrinks under the mapping ends with a
  // message, not a SIGBUS. Its pages come as they are read: asking for all at
  // once (MAP_POPULATE) would hold the replay's start back until the whole
  // file is in.
  std::unique_ptr<MappedFile> mapped = MapSource(*src, 1, name);
  PerfDataReader reader = mapped ? PerfDataReader(name, mapped->bytes())
                                 : PerfDataReader(name, src);
  if (mapped) {
    reader.SetReadPast([&mapped](size_t offset) { mapped->Release(offset); });
  }
  SymbolOptions symbol_options = options;
  // Where the recording is mapped (the tools: guarded against SIGBUS),
  // kallsyms may be too; the library maps neither.
  symbol_options.kallsyms_in_place = mapped != nullptr;
  // The replay goes before the symbols: its threads read their DSOs.
  SymbolResolver symbols(symbol_options);
  Replay replay(&reader, &symbols, take, sink, stats, text);
  RecordCounts counts;
  bool ok = FeedRecords(&reader, &replay, &counts, err) &&
            replay.Finish(err);
  TakeRecordCounts(counts, stats);
  stats->truncated = reader.truncated();
  stats->warnings = symbols.warnings();
  if (stats->unwind_stopped > 0) {
    stats->warnings.push_back(name + ": " + UnwindStopSummary(*stats));
  }
  replay.Summarize(reader.info());
  TakeRecordingFacts(reader.info(), stats);
  return ok;
}

}  // namespace

bool RenderPerfData(const std::string& name, ByteSource* src,
                    const SymbolOptions& options,
                    const std::function<bool(std::string_view)>& emit,
                    PerfDataStats* stats, std::string* err,
                    PerfDataText text) {
  ChunkSink take = [&](std::string* chunk) { return emit(*chunk); };
  return RenderPerfDataChunks(name, src, options, take, stats, err, text);
}

bool RenderPerfDataChunks(const std::string& name, ByteSource* src,
                          const SymbolOptions& options, const ChunkSink& take,
                          PerfDataStats* stats, std::string* err,
                          PerfDataText text) {
  return ReplayRecording(name, src, options, take, nullptr, stats, err, text);
}

bool ReplayIntoFold(const std::string& name, ByteSource* src,
                    const SymbolOptions& options, RecordedSampleSink* sink,
                    const PerfScriptOptions& fold_options,
                    PerfDataStats* stats, std::string* err, bool fold_thread) {
  ChunkSink none = [](std::string*) { return true; };  // nothing is emitted
  PerfDataText text;
  text.exact = false;
  text.fold_thread = fold_thread;
  text.addrs = fold_options.include_addrs;
  text.weight_field = fold_options.weight_field;
  text.off_cpu = fold_options.off_cpu.enabled;
  return ReplayRecording(name, src, options, none, sink, stats, err, text);
}

}  // namespace flamefold
