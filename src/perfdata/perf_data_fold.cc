#include "perfdata/perf_data_fold.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <unordered_map>

#include "base/deferred_free.h"
#include "io/mapped_file.h"
#include "perfdata/dwarf_unwind.h"
#include "perfdata/frame_texts.h"
#include "perfdata/held_samples.h"
#include "perfdata/perf_abi.h"
#include "perfdata/perf_data.h"
#include "perfdata/record_feed.h"
#include "perfdata/sample_header.h"
#include "perfdata/sample_unwinder.h"
#include "perfdata/thread_maps.h"

namespace flamefold {
namespace abi = perf_abi;
namespace {

constexpr size_t kMaxStack = 127;  // perf script's default --max-stack
constexpr size_t kEmitBytes = 256u << 10;
// The most memory the samples held for the kernel symbols may take; past
// it the replay waits for them.
constexpr size_t kMaxHeldBytes = 16u << 20;
constexpr int kExcludeKernel = 5;  // perf_event_attr's flag bits
constexpr int kFreqBit = 10;
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
// sample's stack (SampleUnwinder). The lines go out as text in chunks or,
// when a parser is given, to it one by one, each frame line by its id.
class Replayer : public OrderedRecords {
 public:
  Replayer(PerfDataReader* reader, SymbolResolver* symbols,
           const ChunkSink& emit, PerfScriptParser* lines,
           PerfDataStats* stats, PerfDataText text)
      : reader_(reader), symbols_(symbols), emit_(emit), lines_(lines),
        stats_(stats), threads_(symbols),
        frames_(symbols, FrameStyle(text, lines)),
        srcline_(text.srcline) {
    header_style_.pid_tid = text.pid_tid;
  }

  bool OnHeader(const PerfDataInfo& info, std::string*) override {
    attr_samples_.assign(info.attrs.size(), 0);
    for (const PerfAttr& a : info.attrs) {
      header_style_.name_width =
          std::max(header_style_.name_width, a.name.size());
    }
    // perf record lists the build ids of the DSOs its samples hit: their
    // symbols load on another thread while the replay starts, and so do
    // the kernel's when an event counts in the kernel.
    std::vector<Dso*> dsos = threads_.AddBuildIds(info.build_ids);
    symbols_->Preload(dsos);
    bool kernel = false, dwarf = false;
    for (const PerfAttr& a : info.attrs) {
      kernel |= !a.flag(kExcludeKernel);
      dwarf |= IsDwarf(a);
    }
    if (kernel) symbols_->PreloadKernel();
    const RegisterMap* arch = info.swapped ? nullptr : RegisterMapFor(info.arch);
    if (arch) unwinder_ = std::make_unique<SampleUnwinder>(symbols_, arch);
    // Unwound frames and source lines read the DSOs' debug files.
    if ((dwarf && unwinder_) || srcline_) frames_.OpenAhead(std::move(dsos));
    return true;
  }

  bool OnOrdered(const PerfRecord& rec, PerfSample* parsed,
                 std::string* err) override {
    return Apply(rec, parsed, err);
  }

  /// Once every record was replayed: lets the held samples go and emits
  /// the text not yet emitted.
  bool Finish(std::string* err) {
    PrepareHeld();
    if (!LetGo(err)) return false;
    return EmitPending(err);
  }

  /// Puts the recording's facts in `stats`: its events with their sample
  /// counts and the frames without a symbol by DSO.
  void Summarize(const PerfDataInfo& info) const {
    for (size_t i = 0; i < info.attrs.size(); ++i) {
      const PerfAttr& a = info.attrs[i];
      uint64_t n = i < attr_samples_.size() ? attr_samples_[i] : 0;
      if (n == 0 && a.type == abi::kTypeSoftware && a.config == kSwDummy) {
        continue;
      }
      stats_->events.push_back({a.name, a.flag(kFreqBit), a.sample_period, n});
    }
    stats_->frames = frame_count_;
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
                                      const PerfScriptParser* lines) {
    FrameTexts::Style style;
    style.exact = text.exact;
    style.srcline = text.srcline;
    // The parser reads every "[unknown]" frame alike, unless --addrs.
    style.one_unmapped = lines && !lines->options().include_addrs;
    // Without --addrs the parser's key of a stack line is its symbol
    // without the offset and its module (PerfScriptParser::LookupFrame);
    // with --srcline or --inline the replay renders text instead.
    style.by_symbol = style.one_unmapped;
    return style;
  }

  // A record in perf's order (a sample's fields already in `parsed`, when
  // set).
  bool Apply(const PerfRecord& rec, PerfSample* parsed, std::string* err) {
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
        uint8_t cpumode = rec.misc & abi::kMiscCpumodeMask;
        // The held samples' kernel frames are named in the kernel maps of
        // their moment.
        if (cpumode == abi::kMiscKernel && !LetGo(err)) return false;
        threads_.OnMmap(m, cpumode);
        return true;
      }
      case abi::kRecordSample: return OnSample(rec, parsed, err);
      default: return true;  // EXIT, LOST, THROTTLE, ...: nothing to print
    }
  }

  FrameKey KeyOf(const Thread* t, uint8_t cpumode, uint64_t ip) {
    return FrameTexts::KeyOf(threads_.FindMap(t, cpumode, ip), ip);
  }

  // A sample, parsed here or, on the reading thread, into `parsed`, whose
  // buffers it takes (swapped with sample_'s, which go back for reuse).
  bool OnSample(const PerfRecord& rec, PerfSample* parsed, std::string* err) {
    if (parsed) {
      std::swap(sample_, *parsed);
    } else {
      if (!sample_.callchain.capacity()) sample_.callchain.reserve(64);
      if (!reader_->ParseSample(rec, &sample_, err)) return false;
    }
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
    return DeliverRead(rec, err);
  }

  // A sample that read counters (PERF_SAMPLE_READ), as perf's session
  // delivers it: one sample per counter read (each member of a group
  // with -e '{a,b}:S'), of that counter's event, whose period is what the
  // counter counted since its last sample; none where that is 0, nor for
  // an id the recording does not list.
  bool DeliverRead(const PerfRecord& rec, std::string* err) {
    // Deliver changes sample_'s attr and period, never its read values.
    for (const PerfSample::ReadValue& v : sample_.read_values) {
      const size_t attr = reader_->AttrOfId(v.id);
      if (attr == SIZE_MAX) continue;
      uint64_t& last = read_last_[v.id];
      const uint64_t period = v.value - last;
      last = v.value;
      if (period == 0) continue;
      sample_.attr = attr;
      sample_.period = period;
      if (!Deliver(rec, err)) return false;
    }
    return true;
  }

  // One sample, of sample_.attr's event with sample_.period, to the
  // parser: held until its frames can be named, or let go now.
  bool Deliver(const PerfRecord& rec, std::string* err) {
    if (sample_.attr < attr_samples_.size()) attr_samples_[sample_.attr]++;
    uint8_t cpumode = rec.misc & abi::kMiscCpumodeMask;
    const PerfAttr& a = reader_->info().attrs[sample_.attr];
    uint64_t st = a.sample_type;
    bool dwarf = IsDwarf(a);
    if (dwarf && !unwinder_) stats_->dwarf_chains++;
    const Thread* t = threads_.FindNew(static_cast<int32_t>(sample_.pid),
                                       static_cast<int32_t>(sample_.tid));
    bool chain = st & abi::kSampleCallchain;
    if (chain && PlainHeader(a, *t)) {
      HeaderValues v{sample_.period, static_cast<uint32_t>(sample_.attr),
                     static_cast<int32_t>(sample_.pid),
                     static_cast<int32_t>(sample_.tid)};
      held_.Begin(chain, &v);
      *held_.header() += t->comm;
    } else {
      held_.Begin(chain);
      AppendSampleHeader(a, sample_, t->comm, header_style_, held_.header());
    }
    if (chain) {
      HoldChain(t, sample_.callchain);
      if (dwarf && unwinder_) HoldUnwound(*t, a);
    } else {
      HoldFrame(t, cpumode, sample_.ip);
    }
    if (held_.bytes() < kMaxHeldBytes &&
        ((held_.kernel_frames() && symbols_->KernelPending()) ||
         (held_.unwound_later() && frames_.OpeningAhead()) ||
         (held_.named_later() && symbols_->Preloading()))) {
      // let go once what names them is read; those that may, now
      if (LoadedSinceLook()) return GoAheadAll(err);
      size_t last = held_.size() - 1;
      if (last > 0 && MayGoAhead(last)) return GoAhead(last, err);
      return true;
    }
    return LetGo(err);
  }

  // Whether the held sample `i`, whose frames can all be named now, gives
  // the parser's result and messages unchanged if it goes before the
  // samples held ahead of it (GoAhead). The parser reads each sample from
  // its header to the blank line after it (which undefines $pname), so
  // what one sample leaves for the next is the event filter, the
  // statistics, the line numbers and the stack counts. The filter: the
  // held samples are all of one event, which the filter keeps (or, empty,
  // would become either way). Statistics and stack counts are sums, but
  // for the "first ..." cases, which need a line read as text: the headers
  // go by their fields and every frame has a line id. Line numbers:
  // GoAhead sets them back.
  bool MayGoAhead(size_t i) {
    if (!lines_ || srcline_ || lines_->options().srcline ||
        lines_->options().inliner) {
      return false;
    }
    HeldSample s = held_.at(i);
    if (s.gone || !s.values || !held_.AllPlain(s.values->attr)) return false;
    const PerfAttr& a = reader_->info().attrs[s.values->attr];
    const std::string& filter = lines_->event_filter();
    if (EventShown(a) && !filter.empty() && filter != a.name) return false;
    bool java = s.header.substr(0, 4) == "java";
    for (size_t j = 0; j < s.frame_count; ++j) {
      if (!ReadByLineId(s.frames[j], java)) return false;
    }
    return true;
  }

  // Whether the held frame `f` can be named now and read by the parser as
  // stack lines with ids (for a process name starting with "java" or not).
  bool ReadByLineId(const HeldFrame& f, bool java) {
    FrameText* named = nullptr;
    UnwoundText* unwound = nullptr;
    switch (f.kind) {
      case HeldFrame::Kind::kNamed: named = f.named; break;
      case HeldFrame::Kind::kUnwound: unwound = f.unwound; break;
      case HeldFrame::Kind::kKernel: return false;
      case HeldFrame::Kind::kNamedLater: {
        const FrameKey& k = held_.later(f.later);
        if (k.dso && symbols_->LoadingAhead(k.dso)) return false;
        named = frames_.Frame(k);
        break;
      }
      case HeldFrame::Kind::kUnwoundLater:
        if (frames_.OpeningAhead()) return false;
        unwound = frames_.Unwound(held_.later(f.later));
        break;
    }
    if (named) return LineId(named, java) != PerfScriptParser::kNoStackLineId;
    for (uint32_t id : UnwoundLineIds(unwound, java)) {
      if (id == PerfScriptParser::kNoStackLineId) return false;
    }
    return true;
  }

  // Whether the symbols or debug files that some held samples' frames wait
  // for have all been read since the last look: those samples may then go
  // ahead of the ones waiting for the kernel symbols (GoAheadAll).
  bool LoadedSinceLook() {
    bool preloaded = held_.named_later() && !symbols_->Preloading();
    bool opened = held_.unwound_later() && !frames_.OpeningAhead();
    bool news = (preloaded && !preloaded_seen_) || (opened && !opened_seen_);
    preloaded_seen_ |= preloaded;
    opened_seen_ |= opened;
    return news;
  }

  // Lets the held sample `i` go before the others (MayGoAhead), its lines
  // numbered where it stands among them.
  bool GoAhead(size_t i, std::string* err) {
    uint64_t at = lines_->lines_given();
    bool ok = PutSample(held_.at(i), err);
    held_.MarkGone(i, lines_->lines_given() - at);
    lines_->set_lines_given(at);
    stats_->samples_ahead++;
    return ok;
  }

  // Lets every held sample that may go ahead go (MayGoAhead).
  bool GoAheadAll(std::string* err) {
    for (size_t i = 0; i < held_.size(); ++i) {
      if (MayGoAhead(i) && !GoAhead(i, err)) return false;
    }
    return true;
  }

  // Whether the parser reads the event of `a`'s samples from their header
  // (PutHeader).
  static bool EventShown(const PerfAttr& a) {
    return (a.sample_type & abi::kSampleTime) && !a.name.empty() &&
           a.type != abi::kTypeTracepoint;
  }

  // Whether the parser may take the sample's header by its fields: the
  // line perf script prints for it, "<comm> <tid> [...]" (or
  // "<comm> <pid>/<tid>") up to "<period> <event>: ", reads back as them.
  bool PlainHeader(const PerfAttr& a, const Thread& t) {
    if (!lines_ || !(a.sample_type & abi::kSampleTid)) return false;
    if (static_cast<int32_t>(sample_.tid) < 0) return false;  // not digits
    if (header_style_.pid_tid && static_cast<int32_t>(sample_.pid) < 0) {
      return false;
    }
    // The answer for the last comm and event, which the next sample
    // mostly shares.
    if (&a != plain_attr_ || t.comm != plain_comm_) {
      plain_attr_ = &a;
      plain_comm_ = t.comm;
      plain_ = lines_->PlainHeader(t.comm, a.name);
    }
    return plain_;
  }

  // The header of a held sample to the parser: its line, or its fields.
  void PutHeader(const HeldSample& s) {
    if (!s.values) {
      out_ += s.header;
      EndLine();
      return;
    }
    const HeaderValues& v = *s.values;
    const PerfAttr& a = reader_->info().attrs[v.attr];
    char pid[16], tid[16];
    PerfScriptParser::HeaderFields h;
    h.comm = s.header;
    // The pid and tid are read only with --pid: else not written.
    bool read_pid = lines_->options().include_pid;
    if (read_pid && header_style_.pid_tid) {  // "%5d/%-5d "
      h.pid = Decimal(static_cast<uint32_t>(v.pid), pid);
      h.tid = Decimal(static_cast<uint32_t>(v.tid), tid);
      h.has_tid = true;
    } else if (read_pid) {  // "%5d "
      h.pid = Decimal(static_cast<uint32_t>(v.tid), tid);
    }
    // ": %10" PRIu64 " %s: " after the time; nothing the parser reads as
    // an event without the time, or after a tracepoint's fields.
    PerfScriptParser::EventFields ev{{}, a.name, true, v.period};
    lines_->HeaderLine(h, EventShown(a) ? &ev : nullptr);
  }

  template <size_t N>
  static std::string_view Decimal(uint64_t v, char (&buf)[N]) {
    auto r = std::to_chars(buf, buf + N, v);
    return {buf, static_cast<size_t>(r.ptr - buf)};
  }

  // The frame at `ip` in `cpumode`: a kernel one is named when let go.
  void HoldFrame(const Thread* t, uint8_t cpumode, uint64_t ip) {
    if (cpumode == abi::kMiscKernel) {
      HoldKernelFrame(ip);
    } else {
      HoldUserFrame(KeyOf(t, cpumode, ip));
    }
  }

  // A kernel frame, named when let go. Its DSO counts as used now, where
  // perf script meets it (see SymbolResolver::Touch).
  void HoldKernelFrame(uint64_t ip) {
    symbols_->Touch(symbols_->Kernel());
    held_.AddKernel(ip);
  }

  // A frame outside the kernel: named now, unless its DSO is still being
  // loaded on the preloading thread.
  void HoldUserFrame(const FrameKey& k) {
    if (k.dso && symbols_->LoadingAhead(k.dso)) {
      symbols_->Touch(k.dso);
      held_.AddNamedLater(k);
    } else {
      held_.AddNamed(frames_.Frame(k));
    }
  }

  // perf script's callee-first walk of the call chain. A guest or corrupt
  // context within the frames perf shows makes perf drop them all.
  // The user frames are located first and their cache slots fetched
  // together: the look-ups then wait for memory once, not once a frame.
  void HoldChain(const Thread* t, const std::vector<uint64_t>& chain) {
    if (DroppedChain(chain)) return;
    uint8_t cpumode = abi::kMiscUser;
    chain_keys_.clear();
    for (size_t i = 0, n = 0; i < chain.size() && n < kMaxStack; ++i) {
      uint64_t ip = chain[i];
      if (ip >= abi::kContextMax) {
        if (ip == abi::kContextHv) {
          cpumode = abi::kMiscHypervisor;
        } else if (ip == abi::kContextKernel) {
          cpumode = abi::kMiscKernel;
        } else if (ip == abi::kContextUser) {
          cpumode = abi::kMiscUser;
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
      if (chain_kernel_[i]) {
        HoldKernelFrame(chain_keys_[i].ip);
      } else {
        HoldUserFrame(chain_keys_[i]);
      }
    }
    chain_kernel_.clear();
  }

  // Names the held frames of DSOs that were still loading when their
  // samples were held and looks up, for the parser, the stack lines of the
  // held frames named. Letting the samples go would do both anyway, but
  // only once the kernel symbols are read; at the end of the recording
  // many samples may still be held and this thread would wait for those
  // meanwhile (on a build host, demangling cc1plus's symbols is a tenth of
  // the replay). A sample's process name is known here when its header
  // goes by its fields: its comm starts it.
  void PrepareHeld() {
    if (held_.named_later()) symbols_->HelpPreload();
    for (size_t i = 0; i < held_.size(); ++i) {
      HeldSample s = held_.at(i);
      if (s.gone) continue;
      bool known_name = lines_ && s.values && s.chain;
      bool java = s.header.substr(0, 4) == "java";
      for (size_t j = 0; j < s.frame_count; ++j) {
        const HeldFrame& f = s.frames[j];
        FrameText* named = f.kind == HeldFrame::Kind::kNamedLater
                               ? frames_.Frame(held_.later(f.later))
                           : f.kind == HeldFrame::Kind::kNamed ? f.named
                                                               : nullptr;
        if (named && known_name) LineId(named, java);
      }
    }
  }

  // Lets go of the held samples, in order: each becomes its lines, its
  // kernel frames named now (waiting for the kernel symbols if need be).
  bool LetGo(std::string* err) {
    size_t held = held_.size() - held_.gone();
    if (held > 1) stats_->samples_held += held;
    // Rather than wait for the preloading thread, load what it has not
    // begun.
    if (held_.named_later()) symbols_->HelpPreload();
    for (size_t i = 0; i < held_.size(); ++i) {
      HeldSample s = held_.at(i);
      if (s.gone) {  // it went ahead (GoAhead): its lines stood here
        lines_->set_lines_given(lines_->lines_given() + s.gone_lines);
        continue;
      }
      if (!PutSample(s, err)) {
        held_.Clear();
        return false;
      }
    }
    held_.Clear();
    return true;
  }

  // The lines of a held sample.
  bool PutSample(const HeldSample& s, std::string* err) {
    if (s.chain) {
      PutHeader(s);
      for (size_t i = 0; i < s.frame_count; ++i) PutFrame(s.frames[i]);
    } else {  // the header line ends with the sample's one frame
      out_ += s.header;
      out_ += ' ';
      FrameText* f = Named(s.frames[0]);
      out_ += frames_.Text(f);
      CountFrame(f->no_symbol);
    }
    EndLine();  // after a call chain, the blank line that ends the sample
    if (!line_error_.empty()) {
      *err = line_error_;
      return false;
    }
    if (out_.size() >= kEmitBytes) return EmitPending(err);
    return true;
  }

  void PutFrame(const HeldFrame& f) {
    if (f.kind == HeldFrame::Kind::kNamed ||
        f.kind == HeldFrame::Kind::kKernel ||
        f.kind == HeldFrame::Kind::kNamedLater) {
      PutFrameLine(Named(f));
      return;
    }
    UnwoundText* u = f.kind == HeldFrame::Kind::kUnwound
                         ? f.unwound
                         : frames_.Unwound(held_.later(f.later));
    CountFrame(u->no_symbol, u->frames);
    if (lines_) {
      PutUnwoundLines(u);
    } else {
      out_ += u->text;
    }
  }

  // A named, kernel or later-named frame's text.
  FrameText* Named(const HeldFrame& f) {
    if (f.kind == HeldFrame::Kind::kNamed) return f.named;
    if (f.kind == HeldFrame::Kind::kNamedLater) {
      return frames_.Frame(held_.later(f.later));
    }
    return frames_.Frame(KeyOf(nullptr, abi::kMiscKernel, f.kernel_ip));
  }

  // Whether a context other than kernel, user and hypervisor comes before
  // the walk above has taken its kMaxStack frames.
  static bool DroppedChain(const std::vector<uint64_t>& chain) {
    size_t entries = 0;
    for (size_t i = 0; i < chain.size() && entries < kMaxStack; ++i) {
      uint64_t ip = chain[i];
      if (ip < abi::kContextMax) {
        ++entries;
      } else if (ip != abi::kContextHv && ip != abi::kContextKernel &&
                 ip != abi::kContextUser) {
        return true;
      }
    }
    return false;
  }

  // perf's DWARF post-unwind: the user frames from the sample's registers
  // and stack copy, after the kernel part of the chain, each with the
  // frames inlined there.
  void HoldUnwound(const Thread& t, const PerfAttr& a) {
    if (!SampleUnwinder::CanUnwind(t, sample_)) return;
    stats_->unwound++;
    UnwindResult r = unwinder_->Unwind(t, a, sample_, kMaxStack, &ips_);
    if (r.stop != UnwindStop::kNone) NoteUnwindStop(t, r);
    for (uint64_t ip : ips_) {
      if (ip == 0) continue;
      FrameKey k = KeyOf(&t, abi::kMiscUser, ip);
      if (k.dso && frames_.OpeningAhead()) {
        held_.AddUnwoundLater(k);
      } else if (k.dso) {
        held_.AddUnwound(frames_.Unwound(k));
      } else {
        held_.AddNamed(frames_.Frame(k));
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

  // A stack line of the frame: "\t<frame>\n" in the text, else given to
  // the parser by the line's id, looked up once per frame (once per
  // symbol: FrameTexts::Style::by_symbol) and kind of process name.
  void PutFrameLine(FrameText* f) {
    CountFrame(f->no_symbol);
    if (!lines_) {
      out_ += '\t';
      out_ += frames_.Text(f);
      out_ += '\n';
      return;
    }
    uint32_t id = LineId(f, lines_->java_process());
    PutStackLine(id, id == PerfScriptParser::kNoStackLineId
                         ? frames_.Text(f)
                         : std::string_view());
  }

  // The id of the stack line of `f` for a process name starting (`java`)
  // or not with "java", looked up if it was not yet.
  uint32_t LineId(FrameText* f, bool java) {
    if (!f->resolved[java]) {
      line_.assign(1, '\t');
      line_ += frames_.Text(f);
      f->line_id[java] = lines_->StackLineId(line_, java);
      f->resolved[java] = true;
    }
    return f->line_id[java];
  }

  // The lines of an unwound frame to the parser, by their ids (looked up
  // once per frame and kind of process name).
  void PutUnwoundLines(UnwoundText* u) {
    const std::vector<uint32_t>& ids =
        UnwoundLineIds(u, lines_->java_process());
    std::string_view text = u->text;
    for (size_t i = 0, start = 0; start < text.size(); ++i) {
      size_t nl = text.find('\n', start);
      std::string_view line = text.substr(start, nl - start);
      start = nl + 1;
      PutStackLine(ids[i], line.substr(1));  // without its '\t'
    }
  }

  // The line ids of an unwound frame's lines for a process name starting
  // (`java`) or not with "java", looked up if they were not yet.
  const std::vector<uint32_t>& UnwoundLineIds(UnwoundText* u, bool java) {
    std::vector<uint32_t>& ids = u->line_ids[java];
    if (!ids.empty()) return ids;
    std::string_view text = u->text;
    for (size_t start = 0; start < text.size();) {
      size_t nl = text.find('\n', start);
      ids.push_back(lines_->StackLineId(text.substr(start, nl - start), java));
      start = nl + 1;
    }
    return ids;
  }

  // Gives the parser the stack line "\t<text>" by `id`, or by its text
  // when it has none.
  void PutStackLine(uint32_t id, std::string_view text) {
    if (id != PerfScriptParser::kNoStackLineId) {
      lines_->StackLine(id);
      return;
    }
    line_.assign(1, '\t');
    line_ += text;
    GiveLine(line_);
  }

  // Ends the line being written: a '\n' in the text, else the line goes to
  // the parser.
  void EndLine() {
    if (!lines_) {
      out_ += '\n';
      return;
    }
    GiveLine(out_);
    out_.clear();
  }

  // One line to the parser; its first error is kept for OnSample.
  void GiveLine(std::string_view line) {
    std::string why;
    if (!lines_->Line(line, &why) && line_error_.empty()) line_error_ = why;
  }

  // Counts `frames` frames shown, and them in `*no_symbol` (FrameText's)
  // when they have no symbol.
  void CountFrame(uint64_t* no_symbol, uint64_t frames = 1) {
    frame_count_ += frames;
    if (no_symbol) ++*no_symbol;
  }

  bool EmitPending(std::string* err) {
    if (out_.empty()) return true;
    if (!emit_(&out_)) {
      if (err->empty()) *err = "output stopped";
      return false;
    }
    out_.clear();
    return true;
  }

  PerfDataReader* reader_;
  SymbolResolver* symbols_;
  const ChunkSink& emit_;
  PerfScriptParser* lines_;  // when set, the lines go here, not to emit_
  PerfDataStats* stats_;
  ThreadMaps threads_;
  FrameTexts frames_;
  bool srcline_;  // each frame followed by its source line
  std::unique_ptr<SampleUnwinder> unwinder_;  // when the arch is known
  SampleHeaderStyle header_style_;
  const PerfAttr* plain_attr_ = nullptr;  // PlainHeader's last question
  std::string plain_comm_;                // ...
  bool plain_ = false;                    // ... and answer
  // DeliverRead: each counter's value at its last sample, by id.
  std::unordered_map<uint64_t, uint64_t> read_last_;
  PerfSample sample_;
  std::string out_;         // the text not yet emitted (lines_: the line)
  std::string line_;        // a stack line for lines_
  std::string line_error_;  // the first error lines_ gave
  std::vector<uint64_t> attr_samples_;  // samples of each attr
  uint64_t frame_count_ = 0;            // the frames shown
  std::vector<FrameKey> chain_keys_;    // HoldChain's frames
  // ... and which are the kernel's (bytes: vector<bool>'s bit arithmetic
  // cost 2% of the replay's instructions)
  std::vector<uint8_t> chain_kernel_;
  HeldSamples held_;                    // the samples not yet let go
  bool preloaded_seen_ = false;  // LoadedSinceLook saw the preloading end
  bool opened_seen_ = false;     // ... and the opening of debug files
  std::vector<uint64_t> ips_;           // HoldUnwound's frames
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

// Whether the recording in `bytes` was made with --call-graph dwarf (an
// event samples user registers and stack), from its header alone.
static bool DwarfRecording(const std::string& name, std::string_view bytes) {
  struct Header : PerfDataReader::Visitor {
    bool OnHeader(const PerfDataInfo& info, std::string*) override {
      dwarf = std::any_of(info.attrs.begin(), info.attrs.end(), IsDwarf);
      return false;  // no records wanted
    }
    bool OnRecord(const PerfRecord&, std::string*) override { return false; }
    bool dwarf = false;
  } header;
  PerfDataReader probe(name, bytes);
  std::string stopped;
  probe.Read(&header, &stopped);
  return header.dwarf;
}

// Replays the perf.data in `src`, its samples' text going through `take`
// or, when `lines` is set, to that parser line by line.
// With `later`, the symbols and the replay's tables are freed there.
static bool Replay(const std::string& name, ByteSource* src,
                   const SymbolOptions& options, const ChunkSink& take,
                   PerfScriptParser* lines, PerfDataStats* stats,
                   std::string* err, PerfDataText text,
                   DeferredFree* later = nullptr) {
  // A regular file is mapped; one that shrinks under the mapping ends with
  // a message, not a SIGBUS. Its pages come as they are read (asking for
  // all at once, MAP_POPULATE, held the replay's start back: the DWARF
  // bench's 124 MB recording took 91.1 ms that way, 86.5 ms this way).
  std::unique_ptr<MappedFile> mapped;
  FilePosition at;
  if (src->InFile(&at)) {
    mapped = MappedFile::Map(at.fd, at.offset, 1, name);
  }
  PerfDataReader reader = mapped ? PerfDataReader(name, mapped->bytes())
                                 : PerfDataReader(name, src);
  if (mapped) {
    reader.SetReadPast([&mapped](size_t offset) { mapped->Release(offset); });
  }
  SymbolOptions symbol_options = options;
  // Where the recording is mapped (the tools: guarded against SIGBUS),
  // kallsyms may be too; the library maps neither.
  symbol_options.kallsyms_in_place = mapped != nullptr;
  auto symbols = std::make_shared<SymbolResolver>(symbol_options);
  auto replay = std::make_shared<Replayer>(&reader, symbols.get(), take, lines,
                                           stats, text);
  // A mapped file's records are read and ordered on a thread of their own,
  // unless they are --call-graph dwarf samples: unwinding one takes far
  // longer than reading it, so the hand-over only cost (the DWARF bench
  // went from 155 to 166 ms, the unwinder reading the stack copies from
  // another core's cache).
  RecordCounts counts;
  bool threaded = mapped && !DwarfRecording(name, mapped->bytes());
  bool ok = FeedRecords(&reader, replay.get(), threaded, &counts, err) &&
            replay->Finish(err);
  stats->records = counts.records;
  stats->lost_samples = counts.lost_samples;
  stats->lost_samples_recorded = counts.lost_samples_recorded;
  stats->lost_records = counts.lost_records;
  stats->lost_chunks = counts.lost_chunks;
  stats->truncated = reader.truncated();
  stats->warnings = symbols->warnings();
  if (stats->unwind_stopped > 0) {
    stats->warnings.push_back(name + ": " + UnwindStopSummary(*stats));
  }
  const PerfDataInfo& info = reader.info();
  replay->Summarize(info);
  stats->hostname = info.hostname;
  stats->perf_version = info.perf_version;
  stats->os_release = info.os_release;
  stats->arch = info.arch;
  stats->cmdline.clear();
  for (const std::string& arg : info.cmdline) {
    if (!stats->cmdline.empty()) stats->cmdline += ' ';
    stats->cmdline += arg;
  }
  // The replay goes first: its threads read the symbols' DSOs.
  if (later) later->Add(std::move(replay), std::move(symbols));
  return ok;
}

bool RenderPerfDataChunks(const std::string& name, ByteSource* src,
                          const SymbolOptions& options, const ChunkSink& take,
                          PerfDataStats* stats, std::string* err,
                          PerfDataText text) {
  return Replay(name, src, options, take, nullptr, stats, err, text);
}

bool PidTidWanted(const PerfScriptOptions& options) {
  return options.modern && (options.include_pid || options.include_tid);
}

bool ReplayIntoParser(const std::string& name, ByteSource* src,
                      const SymbolOptions& options, PerfScriptParser* parser,
                      uint64_t input_index, PerfDataStats* stats,
                      std::string* err, DeferredFree* later) {
  ChunkSink none = [](std::string*) { return true; };  // nothing is emitted
  PerfDataText text;
  text.exact = false;
  text.pid_tid = PidTidWanted(parser->options());
  parser->StartLines(name, input_index);
  return Replay(name, src, options, none, parser, stats, err, text, later);
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
