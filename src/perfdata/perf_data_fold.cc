#include "perfdata/perf_data_fold.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <thread>
#include <unordered_map>

#include "collapse/perf_script_lines.h"
#include "io/file_source.h"
#include "io/mapped_file.h"
#include "perfdata/dwarf_unwind.h"
#include "perfdata/frame_texts.h"
#include "perfdata/held_samples.h"
#include "perfdata/ordered_records.h"
#include "perfdata/perf_abi.h"
#include "perfdata/perf_data.h"
#include "perfdata/sample_lines.h"
#include "perfdata/sample_lines_thread.h"
#include "perfdata/sample_unwinder.h"
#include "perfdata/thread_maps.h"

namespace flamefold {
namespace abi = perf_abi;
namespace {

constexpr size_t kMaxStack = 127;  // perf script's default --max-stack
constexpr size_t kEmitBytes = 256u << 10;
// The samples in a batch for the lines thread: enough that handing one
// over costs little, few enough that the thread starts soon.
constexpr size_t kLinesBatch = 256;
constexpr int kFreqBit = 10;  // perf_event_attr's flag bit
constexpr uint64_t kSwDummy = 9;  // PERF_COUNT_SW_DUMMY

// Whether the event's samples carry user registers and stack: recorded
// with --call-graph dwarf.
bool IsDwarf(const PerfAttr& a) {
  return (a.sample_type & abi::kSampleRegsUser) &&
         (a.sample_type & abi::kSampleStackUser);
}

// The replay: each record in perf's order (FeedRecords) updates the
// threads and maps (ThreadMaps) or, for a sample, becomes the lines perf
// script prints for it: the header, then the call chain's frames (named by
// FrameTexts), then the user frames unwound from a --call-graph dwarf
// sample's stack (SampleUnwinder). The samples go to the fold by their fields
// and frames or, without one, out as text in chunks.
class Replayer : public OrderedRecords {
 public:
  Replayer(PerfDataReader* reader, SymbolResolver* symbols,
           const ChunkSink& emit, RecordedSampleSink* sink,
           PerfDataStats* stats, PerfDataText text)
      : reader_(reader), symbols_(symbols), emit_(emit), sink_(sink),
        stats_(stats), threads_(symbols),
        frames_(symbols, FrameStyle(text, sink)),
        srcline_(text.srcline),
        sample_lines_(sink),
        lines_thread_allowed_(sink && text.lines_thread &&
                              std::thread::hardware_concurrency() > 1) {
    header_style_.pid_tid = text.pid_tid;
  }

  bool OnHeader(const PerfDataInfo& info, std::string*) override {
    attr_samples_.assign(info.attrs.size(), 0);
    SyncEvents();
    for (const PerfAttr& a : info.attrs) {
      header_style_.name_width =
          std::max(header_style_.name_width, a.name.size());
    }
    threads_.AddBuildIds(info.build_ids);
    if (sink_ && info.first_sample_time != 0 && info.last_sample_time != 0) {
      sink_->SetSampleTimes(info.first_sample_time, info.last_sample_time);
    }
    const RegisterMap* arch = info.swapped ? nullptr : RegisterMapFor(info.arch);
    if (arch) unwinder_ = std::make_unique<SampleUnwinder>(symbols_, arch);
    return true;
  }

  bool OnOrdered(const PerfRecord& rec, std::string* err) override {
    return Apply(rec, err);
  }

  /// Once every record was replayed: lets the held samples go and emits
  /// the text not yet emitted.
  bool Finish(std::string* err) {
    if (!lines_thread_ && !LetGo(err)) return false;  // may start the thread
    if (lines_thread_) return StopLinesThread(err);
    return EmitPending(err);
  }

  /// Puts the recording's facts in `stats`: its events with their sample
  /// counts and the frames without a symbol by DSO.
  void Summarize(const PerfDataInfo& info) {
    std::string ignored;  // an error, if any, was given before
    StopLinesThread(&ignored);
    for (size_t i = 0; i < info.attrs.size(); ++i) {
      const PerfAttr& a = info.attrs[i];
      uint64_t n = i < attr_samples_.size() ? attr_samples_[i] : 0;
      if (n == 0 && a.type == abi::kTypeSoftware && a.config == kSwDummy) {
        continue;
      }
      stats_->events.push_back({a.name, a.flag(kFreqBit), a.sample_period, n});
    }
    stats_->frames = sample_lines_.frame_count();
    std::map<std::string, uint64_t> by_name = frames_.NoSymbolByDso();
    auto& dsos = stats_->no_symbol_dsos;
    dsos.assign(by_name.begin(), by_name.end());
    stats_->frames_no_symbol = 0;
    for (const auto& [name, n] : dsos) stats_->frames_no_symbol += n;
    std::sort(dsos.begin(), dsos.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
  }

 private:
  static FrameTexts::Style FrameStyle(PerfDataText text,
                                      const RecordedSampleSink* sink) {
    FrameTexts::Style style;
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
      default: return true;  // EXIT, LOST, THROTTLE, ...: nothing to print
    }
  }

  FrameKey KeyOf(const Thread* t, uint8_t cpumode, uint64_t ip) {
    return FrameTexts::KeyOf(threads_.FindMap(t, cpumode, ip), ip);
  }

  bool OnSample(const PerfRecord& rec, std::string* err) {
    if (!sample_.callchain.capacity()) sample_.callchain.reserve(64);
    if (!reader_->ParseSample(rec, &sample_, err)) return false;
    cur_ = &sample_;
    stats_->samples++;
    if (cur_->time != UINT64_MAX) {
      stats_->first_time = std::min(stats_->first_time, cur_->time);
      stats_->last_time = std::max(stats_->last_time, cur_->time);
    }
    uint8_t cpumode = rec.misc & abi::kMiscCpumodeMask;
    if (cpumode == abi::kMiscGuestKernel || cpumode == abi::kMiscGuestUser) {
      if (cur_->attr < attr_samples_.size()) attr_samples_[cur_->attr]++;
      stats_->samples_skipped++;
      return true;
    }
    if (cur_->read_values.empty()) return Deliver(rec, err);
    return DeliverRead(rec, err);
  }

  // A sample that read counters (PERF_SAMPLE_READ), as perf script
  // delivers it: one sample per counter read (each member of a group
  // with -e '{a,b}:S'), of that counter's event, whose period is what the
  // counter counted since its last sample; none where that is 0, nor for
  // an id the recording does not list.
  bool DeliverRead(const PerfRecord& rec, std::string* err) {
    // Deliver changes sample_'s attr and period, never its read values.
    for (const PerfSample::ReadValue& v : cur_->read_values) {
      const size_t attr = reader_->AttrOfId(v.id);
      if (attr == SIZE_MAX) continue;
      uint64_t& last = read_last_[v.id];
      const uint64_t period = v.value - last;
      last = v.value;
      if (period == 0) continue;
      cur_->attr = attr;
      cur_->period = period;
      if (!Deliver(rec, err)) return false;
    }
    return true;
  }

  // One sample, of cur_->attr's event with cur_->period, its frames
  // named, to the fold (or to the lines thread's next batch).
  bool Deliver(const PerfRecord& rec, std::string* err) {
    if (lines_thread_ && events_given_ != reader_->info().attrs_changes) {
      // The samples before this one go with the events they had.
      SendHeld();
      if (!lines_thread_->Drain(err)) return false;
      SyncEvents();
    }
    if (cur_->attr < attr_samples_.size()) attr_samples_[cur_->attr]++;
    uint8_t cpumode = rec.misc & abi::kMiscCpumodeMask;
    const PerfAttr& a = reader_->info().attrs[cur_->attr];
    uint64_t st = a.sample_type;
    bool dwarf = IsDwarf(a);
    if (dwarf && !unwinder_) stats_->dwarf_chains++;
    const Thread* t = threads_.FindNew(static_cast<int32_t>(cur_->pid),
                                       static_cast<int32_t>(cur_->tid));
    bool chain = st & abi::kSampleCallchain;
    HeaderValues v{cur_->period, static_cast<uint32_t>(cur_->attr),
                   static_cast<int32_t>(cur_->pid),
                   static_cast<int32_t>(cur_->tid),
                   static_cast<int32_t>(cur_->cpu), cur_->time, ++ordinal_,
                   rec.offset};
    if (sink_) {
      held_.Begin(chain, &v);
      *held_.header() += t->comm;
      sample_nul_ = HoldsNul(t->comm) || HoldsNul(a.name);
    } else {
      held_.Begin(chain);
      AppendSampleHeader(SampleLines::EventOf(a),
                         SampleLines::HeaderOf(v, t->comm, chain),
                         header_style_, held_.header());
    }
    if (chain) {
      HoldChain(t, cur_->callchain);
      if (dwarf && unwinder_) HoldUnwound(*t, a);
    } else {
      HoldFrame(t, cpumode, cur_->ip);
    }
    if (lines_thread_) return PassOn(err);
    return LetGo(err);
  }

  // The frame at `ip` in `cpumode` (a kernel one in the kernel maps).
  void HoldFrame(const Thread* t, uint8_t cpumode, uint64_t ip) {
    HoldNamed(frames_.Frame(KeyOf(t, cpumode, ip)));
  }

  // A frame named now.
  void HoldNamed(FrameText* f) {
    held_.AddNamed(f);
    if (frames_.any_nul()) sample_nul_ |= f->nul;
  }

  // perf script's callee-first walk of the call chain. A guest or corrupt
  // context within the frames perf shows makes perf drop them all: the
  // frames are held only once the walk has found none.
  // The user frames are located first and their cache slots fetched
  // together: the look-ups then wait for memory once, not once a frame.
  void HoldChain(const Thread* t, const std::vector<uint64_t>& chain) {
    uint8_t cpumode = abi::kMiscUser;
    chain_keys_.clear();
    chain_kernel_.clear();
    for (size_t i = 0, n = 0; i < chain.size() && n < kMaxStack; ++i) {
      uint64_t ip = chain[i];
      if (ip >= abi::kContextMax) {
        if (ip == abi::kContextHv) {
          cpumode = abi::kMiscHypervisor;
        } else if (ip == abi::kContextKernel) {
          cpumode = abi::kMiscKernel;
        } else if (ip == abi::kContextUser) {
          cpumode = abi::kMiscUser;
        } else {
          return;  // dropped
        }
        continue;
      }
      ++n;
      // A kernel frame is kept as its address (map nullptr, shown ip).
      bool kernel = cpumode == abi::kMiscKernel;
      chain_keys_.push_back(kernel ? FrameKey{nullptr, ip, ip, ip}
                                   : KeyOf(t, cpumode, ip));
      chain_kernel_.push_back(kernel);
      if (!kernel) frames_.Prefetch(chain_keys_.back());
    }
    for (size_t i = 0; i < chain_keys_.size(); ++i) {
      HoldNamed(frames_.Frame(chain_kernel_[i]
                                  ? KeyOf(nullptr, abi::kMiscKernel,
                                          chain_keys_[i].ip)
                                  : chain_keys_[i]));
    }
  }

  // Lets go of the held sample: it goes to the fold (or becomes its text),
  // or, where the lines thread may be used, the thread takes it and the
  // samples after it (PassOn).
  bool LetGo(std::string* err) {
    if (lines_thread_) return true;  // sent in batches
    if (lines_thread_allowed_) {
      SyncEvents();
      lines_thread_ = std::make_unique<SampleLinesThread>(&sample_lines_);
      return SendHeldInBatches(err);
    }
    for (size_t i = 0; i < held_.size(); ++i) {
      if (!PutSample(i, err)) {
        held_.Clear();
        return false;
      }
    }
    held_.Clear();
    return true;
  }

  // The held samples to the lines thread as it starts, a batch at a time.
  // One the fold may refuse is waited for (see PassOn).
  bool SendHeldInBatches(std::string* err) {
    std::unique_ptr<HeldSamples> batch = lines_thread_->Empty();
    bool ok = true;
    for (size_t i = 0; ok && i < held_.size(); ++i) {
      HeldSample s = held_.at(i);
      batch->Append(s);
      bool refuse = MayRefuse(s);
      if (refuse || batch->size() >= kLinesBatch) {
        lines_thread_->Send(std::move(batch));
        batch = lines_thread_->Empty();
      }
      if (refuse) ok = lines_thread_->Drain(err);
    }
    if (!batch->empty()) lines_thread_->Send(std::move(batch));
    held_.Clear();
    return ok;
  }

  // With the lines thread: the sample just held, its frames all named,
  // joins the batch, which goes when full. A sample the fold may refuse
  // goes at once and the replay waits for it: it stops where it would
  // without the thread, no frame after that sample named.
  bool PassOn(std::string* err) {
    if (sample_nul_) {
      SendHeld();
      return lines_thread_->Drain(err);
    }
    if (held_.size() >= kLinesBatch) SendHeld();
    return true;
  }

  // The held samples to the lines thread.
  void SendHeld() {
    if (held_.empty()) return;
    std::unique_ptr<HeldSamples> batch = lines_thread_->Empty();
    std::swap(*batch, held_);
    lines_thread_->Send(std::move(batch));
  }

  // Sends the lines thread the samples held, waits for it to put every
  // sample and stops it; false with the error it met, if any. (Without
  // the thread every sample delivered was put at once: so are these, at
  // the end or after a read error.)
  bool StopLinesThread(std::string* err) {
    if (!lines_thread_) return true;
    SendHeld();
    bool ok = lines_thread_->Drain(err);
    lines_thread_.reset();
    return ok;
  }

  // Whether the fold may refuse `s`, whose frames are named: it refuses a
  // NUL byte in what it reads as text, which a comm, an event's or a
  // symbol's name may hold (RecordedSampleSink::Add).
  bool MayRefuse(const HeldSample& s) const {
    if (HoldsNul(s.header)) return true;
    const PerfDataInfo& info = reader_->info();
    if (s.values && HoldsNul(info.attrs[s.values->attr].name)) {
      return true;
    }
    for (size_t j = 0; frames_.any_nul() && j < s.frame_count; ++j) {
      const HeldFrame& f = s.frames[j];
      if (f.kind == HeldFrame::Kind::kNamed ? f.named->nul : f.unwound->nul) {
        return true;
      }
    }
    return false;
  }

  // The events SampleLines and the fold have, brought up to date (the lines
  // thread must not be running).
  void SyncEvents() {
    const PerfDataInfo& info = reader_->info();
    if (events_given_ != info.attrs_changes) {
      sample_lines_.SetEvents(info.attrs);
      events_given_ = info.attrs_changes;
    }
  }

  // The held sample `i` to the fold, or as its text.
  bool PutSample(size_t i, std::string* err) {
    HeldSample s = held_.at(i);
    SyncEvents();
    if (!sample_lines_.Put(s, err)) return false;
    if (sample_lines_.text()->size() >= kEmitBytes) return EmitPending(err);
    return true;
  }

  // perf's DWARF post-unwind: the user frames from the sample's registers
  // and stack copy, after the kernel part of the chain, each with the
  // frames inlined there.
  void HoldUnwound(const Thread& t, const PerfAttr& a) {
    if (!SampleUnwinder::CanUnwind(t, *cur_)) return;
    stats_->unwound++;
    UnwindResult r = unwinder_->Unwind(t, a, *cur_, kMaxStack, &ips_);
    if (r.stop != UnwindStop::kNone) NoteUnwindStop(t, r);
    for (uint64_t ip : ips_) {
      if (ip == 0) continue;
      FrameKey k = KeyOf(&t, abi::kMiscUser, ip);
      if (k.dso) {
        UnwoundText* u = frames_.Unwound(k);
        held_.AddUnwound(u);
        if (frames_.any_nul()) sample_nul_ |= u->nul;
      } else {
        HoldNamed(frames_.Frame(k));
      }
    }
  }

  // Counts a walk that ended early, or went on by guess, by reason and by
  // the DSO of the frame where it happened.
  void NoteUnwindStop(const Thread& t, const UnwindResult& r) {
    const Map* map = threads_.FindMap(&t, abi::kMiscUser, r.where);
    std::string dso = map && map->dso ? map->dso->name : "[unknown]";
    stats_->unwind_stops[{r.stop, dso}]++;
    stats_->unwind_stopped++;
  }

  bool EmitPending(std::string* err) {
    std::string* text = sample_lines_.text();
    if (text->empty()) return true;
    if (!emit_(text)) {
      if (err->empty()) *err = "output stopped";
      return false;
    }
    text->clear();
    return true;
  }

  PerfDataReader* reader_;
  SymbolResolver* symbols_;
  const ChunkSink& emit_;
  RecordedSampleSink* sink_;  // when set, the samples go here, not to emit_
  PerfDataStats* stats_;
  ThreadMaps threads_;
  FrameTexts frames_;
  bool srcline_;  // each frame followed by its source line
  std::unique_ptr<SampleUnwinder> unwinder_;  // when the arch is known
  SampleHeaderStyle header_style_;  // the text's headers
  uint64_t ordinal_ = 0;  // of the last sample delivered
  // Whether the sample being held has a NUL byte in its header or frames
  // (the lines thread's samples: see MayRefuse).
  bool sample_nul_ = false;
  // DeliverRead: each counter's value at its last sample, by id.
  std::unordered_map<uint64_t, uint64_t> read_last_;
  PerfSample sample_;  // a sample parsed on this thread
  PerfSample* cur_ = &sample_;  // the sample OnSample replays, while it does
  std::vector<uint64_t> attr_samples_;  // samples of each attr
  std::vector<FrameKey> chain_keys_;    // HoldChain's frames
  // ... and which are the kernel's (bytes, not vector<bool>: one is written
  // and read per frame, and a bit's arithmetic costs more than a byte's store
  // and load)
  std::vector<uint8_t> chain_kernel_;
  HeldSamples held_;                    // the samples not yet let go
  std::vector<uint64_t> ips_;           // HoldUnwound's frames
  SampleLines sample_lines_;  // the held samples to the fold, or as text
  uint64_t events_given_ = UINT64_MAX;  // the attrs_changes of its events
  // Whether the lines thread may be used, and it once started (LetGo).
  const bool lines_thread_allowed_;
  std::unique_ptr<SampleLinesThread> lines_thread_;
};


}  // namespace

std::string UnwindStopSummary(const PerfDataStats& stats) {
  std::string out = "DWARF unwinding ended early or left the CFI in " +
                    std::to_string(stats.unwind_stopped) + " of " +
                    std::to_string(stats.unwound) +
                    " unwound sample(s), so their stacks may be short or "
                    "wrong:";
  UnwindStop reason = UnwindStop::kNone;
  for (const auto& [key, count] : stats.unwind_stops) {
    if (key.first == reason) {
      out += ", ";
    } else {
      out += reason == UnwindStop::kNone ? " " : "; ";
      reason = key.first;
      out += UnwindStopName(reason);
      out += ": ";
    }
    out += key.second + " (" + std::to_string(count) + ")";
  }
  return out;
}

bool RenderPerfData(const std::string& name, ByteSource* src,
                    const SymbolOptions& options,
                    const std::function<bool(std::string_view)>& emit,
                    PerfDataStats* stats, std::string* err,
                    PerfDataText text) {
  ChunkSink take = [&](std::string* chunk) { return emit(*chunk); };
  return RenderPerfDataChunks(name, src, options, take, stats, err, text);
}

// Replays the perf.data in `src`, its samples' text going through `take`
// or, when `sink` is set, to that fold by their fields.
static bool Replay(const std::string& name, ByteSource* src,
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
  Replayer replay(&reader, &symbols, take, sink, stats, text);
  RecordCounts counts;
  bool ok = FeedRecords(&reader, &replay, &counts, err) &&
            replay.Finish(err);
  stats->records = counts.records;
  stats->lost_samples = counts.lost_samples;
  stats->lost_samples_recorded = counts.lost_samples_recorded;
  stats->lost_records = counts.lost_records;
  stats->lost_chunks = counts.lost_chunks;
  stats->truncated = reader.truncated();
  stats->warnings = symbols.warnings();
  if (stats->unwind_stopped > 0) {
    stats->warnings.push_back(name + ": " + UnwindStopSummary(*stats));
  }
  const PerfDataInfo& info = reader.info();
  replay.Summarize(info);
  stats->hostname = info.hostname;
  stats->perf_version = info.perf_version;
  stats->os_release = info.os_release;
  stats->arch = info.arch;
  stats->cmdline.clear();
  for (const std::string& arg : info.cmdline) {
    if (!stats->cmdline.empty()) stats->cmdline += ' ';
    stats->cmdline += arg;
  }
  return ok;
}

bool RenderPerfDataChunks(const std::string& name, ByteSource* src,
                          const SymbolOptions& options, const ChunkSink& take,
                          PerfDataStats* stats, std::string* err,
                          PerfDataText text) {
  return Replay(name, src, options, take, nullptr, stats, err, text);
}

bool ReplayIntoFold(const std::string& name, ByteSource* src,
                    const SymbolOptions& options, RecordedSampleSink* sink,
                    const PerfScriptOptions& fold_options,
                    PerfDataStats* stats, std::string* err, bool lines_thread) {
  ChunkSink none = [](std::string*) { return true; };  // nothing is emitted
  PerfDataText text;
  text.exact = false;
  text.lines_thread = lines_thread;
  text.addrs = fold_options.include_addrs;
  return Replay(name, src, options, none, sink, stats, err, text);
}

void WarnAboutPerfData(const std::string& file, const PerfDataStats& stats,
                       const Diag& diag) {
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

}  // namespace flamefold
