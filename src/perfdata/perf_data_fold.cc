#include "perfdata/perf_data_fold.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>

#include "base/arena.h"
#include "perfdata/dwarf_unwind.h"
#include "perfdata/perf_data.h"
#include "perfdata/perf_srcline.h"
#include "symbols/source_lines.h"
#include "symbols/symbol_demangle.h"
#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;
namespace {

constexpr size_t kMaxStack = 127;  // perf script's default --max-stack
constexpr size_t kEmitBytes = 256u << 10;

struct Map {
  uint64_t start = 0, end = 0, pgoff = 0;
  Dso* dso = nullptr;
  bool identity = false;  // anonymous memory, JIT maps and the kernel

  uint64_t MapIp(uint64_t ip) const {
    return identity ? ip : ip - start + pgoff;
  }
};

// The mappings of one process (or of the kernel), by start address.
class Maps {
 public:
  Maps() = default;
  Maps(const Maps& other) : maps_(other.maps_) {}  // the cache stays empty
  Maps& operator=(const Maps&) = delete;
  /// Adds `m`; existing mappings it overlaps are cut around it, as the
  /// kernel did when it mapped it.
  void Insert(const Map& m) {
    auto it = maps_.lower_bound(m.start);
    if (it != maps_.begin()) --it;
    std::vector<Map> keep;
    while (it != maps_.end() && it->second.start < m.end) {
      const Map& old = it->second;
      if (old.end <= m.start) {
        ++it;
        continue;
      }
      if (old.start < m.start) {
        Map before = old;
        before.end = m.start;
        keep.push_back(before);
      }
      if (old.end > m.end) {
        Map after = old;
        after.start = m.end;
        after.pgoff += m.end - old.start;
        keep.push_back(after);
      }
      it = maps_.erase(it);
    }
    for (const Map& k : keep) maps_[k.start] = k;
    maps_[m.start] = m;
    Changed();
  }
  /// Moves the bounds of the mapping that starts at `old_start`.
  void Resize(uint64_t old_start, uint64_t start, uint64_t end) {
    auto it = maps_.find(old_start);
    if (it == maps_.end()) return;
    Map m = it->second;
    maps_.erase(it);
    m.start = start;
    m.end = end;
    maps_[start] = m;
    Changed();
  }
  const Map* Find(uint64_t addr) const {
    if (last_ && addr >= last_->start && addr < last_->end) return last_;
    auto it = maps_.upper_bound(addr);
    if (it == maps_.begin()) return nullptr;
    --it;
    if (addr >= it->second.end) return nullptr;
    last_ = &it->second;
    return last_;
  }
  /// The lowest start of the mappings of `dso` (0 if none). Cached until
  /// the mappings change.
  uint64_t LowestStart(const Dso* dso) const {
    auto [it, added] = lowest_.try_emplace(dso, 0);
    if (added) {
      for (const auto& [start, m] : maps_) {
        if (m.dso == dso) {
          it->second = start;
          break;
        }
      }
    }
    return it->second;
  }
  /// Counts the changes: what was derived from the mappings is stale once
  /// it moves.
  uint64_t version() const { return version_; }
  /// Whether `f` holds for one of the mappings.
  template <typename F>
  bool Any(const F& f) const {
    for (const auto& [start, m] : maps_) {
      if (f(m)) return true;
    }
    return false;
  }

 private:
  void Changed() {
    last_ = nullptr;
    lowest_.clear();
    ++version_;
  }

  std::map<uint64_t, Map> maps_;
  mutable const Map* last_ = nullptr;  // the last hit: frames cluster
  mutable std::unordered_map<const Dso*, uint64_t> lowest_;
  uint64_t version_ = 0;  // counts the changes
};

// The file-backed mappings of one address space, as the DWARF unwinder
// reads them (each DSO's binary found as the symbols were).
class UnwindView : public UnwindMaps {
 public:
  UnwindView(const Maps* maps, SymbolResolver* symbols)
      : maps_(maps), symbols_(symbols) {}
  /// perf's unwind__prepare_access: the address space is unwound only
  /// once one of its mappings is an object perf can open as ELF (else its
  /// dwarf samples get no user frame at all, not even the sampled one).
  bool Ready() {
    if (ready_ || checked_ == maps_->version()) return ready_;
    checked_ = maps_->version();
    ready_ = maps_->Any([this](const Map& m) {
      return !m.identity && m.dso && symbols_->HasElfObject(m.dso);
    });
    return ready_;
  }

  bool Find(uint64_t addr, UnwindMapping* out) override {
    const Map* m = maps_->Find(addr);
    if (!m) return false;
    *out = UnwindMapping{};
    out->start = m->start;
    out->end = m->end;
    out->pgoff = m->pgoff;
    if (m->identity || !m->dso || m->dso->kind != DsoKind::kUser) {
      return true;  // no file: anonymous memory, [stack], a JIT map
    }
    symbols_->Prepare(m->dso);
    out->lowest_start = maps_->LowestStart(m->dso);
    out->file = m->dso->binary;
    out->debug_file = m->dso->symsrc;
    return true;
  }

 private:
  const Maps* maps_;
  SymbolResolver* symbols_;
  bool ready_ = false;
  uint64_t checked_ = UINT64_MAX;
};

struct Thread {
  int32_t pid = -1, tid = -1;
  std::string comm;
  bool comm_set = false;
  std::shared_ptr<Maps> maps;
};

// perf's is_anon_memory and is_no_dso_memory.
bool IsAnon(const std::string& f) {
  return f == "//anon" || f.rfind("/dev/zero", 0) == 0 ||
         f.rfind("/anon_hugepage", 0) == 0;
}
bool IsNoDso(const std::string& f) {
  return f.rfind("[stack", 0) == 0 || f.rfind("/SYSV", 0) == 0 ||
         f == "[heap]";
}

// Sorts `keys` by merging the ascending runs they are made of: the queue
// holds what is left of the last round (sorted) and then, per CPU buffer,
// records in time order, so there are few runs and a general sort did
// several times the work.
using SortKey = std::pair<uint64_t, uint32_t>;  // (time, arrival)
void SortRuns(std::vector<SortKey>* keys, std::vector<SortKey>* scratch,
              std::vector<size_t>* runs) {
  std::vector<SortKey>& v = *keys;
  runs->assign(1, 0);
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i] < v[i - 1]) runs->push_back(i);
  }
  runs->push_back(v.size());
  while (runs->size() > 2) {
    scratch->resize(v.size());
    size_t out = 1;
    for (size_t r = 0; r + 1 < runs->size(); r += 2) {
      size_t lo = (*runs)[r], mid = (*runs)[r + 1];
      size_t hi = r + 2 < runs->size() ? (*runs)[r + 2] : mid;
      std::merge(v.begin() + lo, v.begin() + mid, v.begin() + mid,
                 v.begin() + hi, scratch->begin() + lo);
      (*runs)[out++] = hi;
    }
    runs->resize(out);
    v.swap(*scratch);
  }
}

// A build-id entry for a user-space file (not the kernel, a module or
// another "[...]" pseudo-file): the DSO its mappings will use.
bool IsUserDso(const std::string& f) {
  if (f == "[vdso]") return true;
  if (f.empty() || f[0] != '/') return false;
  if (f.rfind("/lib/modules/", 0) == 0) return false;
  return f.find(".ko") == std::string::npos;
}

constexpr int kExcludeKernel = 5;  // perf_event_attr's flag bits
constexpr int kFreqBit = 10;
constexpr uint64_t kSwDummy = 9;  // PERF_COUNT_SW_DUMMY
constexpr uint32_t kMapHugetlb = 0x40000;
constexpr uint32_t kProtExec = 4;

class Replayer : public PerfDataReader::Visitor {
 public:
  /// The samples' text goes through `emit` in chunks or, when `lines` is
  /// given, to that parser line by line (see PerfScriptParser::StartLines),
  /// each distinct frame line resolved once.
  Replayer(PerfDataReader* reader, SymbolResolver* symbols,
           const ChunkSink& emit, PerfScriptParser* lines,
           PerfDataStats* stats, PerfDataText text)
      : reader_(reader), symbols_(symbols), emit_(emit), lines_(lines),
        stats_(stats), exact_(text.exact || text.srcline),
        srcline_(text.srcline), pid_tid_(text.pid_tid) {
    Thread* idle = FindNew(0, 0);
    idle->comm = "swapper";
    idle->comm_set = true;
  }

  bool OnHeader(const PerfDataInfo& info, std::string*) override {
    attr_samples_.assign(info.attrs.size(), 0);
    for (const PerfAttr& a : info.attrs) {
      name_width_ = std::max(name_width_, a.name.size());
    }
    std::vector<Dso*> hit;
    for (const PerfDataInfo::BuildId& b : info.build_ids) {
      build_ids_[b.filename] = b.build_id;
      if (IsUserDso(b.filename)) {
        hit.push_back(symbols_->User(b.filename, b.build_id));
      }
    }
    // perf record lists the build ids of the DSOs its samples hit: their
    // symbols load on another thread while the replay starts, and so do
    // the kernel's when an event counts in the kernel.
    symbols_->Preload(std::move(hit));
    bool kernel = false;
    for (const PerfAttr& a : info.attrs) kernel |= !a.flag(kExcludeKernel);
    if (kernel) symbols_->PreloadKernel();
    if (!info.swapped) arch_ = RegisterMapFor(info.arch);
    return true;
  }

  bool OnRecord(const PerfRecord& rec, std::string* err) override {
    stats_->records++;
    if (rec.type == abi::kRecordLost || rec.type == abi::kRecordLostSamples) {
      uint64_t lost = 0;
      if (!reader_->ParseLost(rec, &lost, err)) return false;
      if (rec.type == abi::kRecordLost) {
        stats_->lost_records += lost;
        stats_->lost_chunks++;
      } else {
        stats_->lost_samples += lost;
        stats_->lost_samples_recorded = true;
      }
    }
    if (rec.type == abi::kRecordFinishedRound) {
      if (!Flush(next_flush_, err)) return false;
      next_flush_ = max_time_;
      return true;
    }
    uint64_t t = reader_->TimeOf(rec);
    if (t == 0 || t == UINT64_MAX) return Apply(rec, err);
    max_time_ = std::max(max_time_, t);
    Queued q{t, seq_++, rec.type, rec.misc, rec.offset, {}, rec.body};
    if (!rec.stable) {
      q.owned.assign(rec.body);
      q.view = {};
    }
    queue_.push_back(std::move(q));
    return true;
  }

  /// Delivers what is still queued and the text not yet emitted.
  bool Finish(std::string* err) {
    if (!Flush(UINT64_MAX, err)) return false;
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
    std::map<std::string, uint64_t> by_name;  // two DSOs may share a name
    if (no_map_frames_ > 0) by_name["[unknown]"] = no_map_frames_;
    for (const auto& [dso, n] : no_symbol_) {
      if (n > 0) by_name[dso->name] += n;
    }
    auto& dsos = stats_->no_symbol_dsos;
    dsos.assign(by_name.begin(), by_name.end());
    stats_->frames_no_symbol = 0;
    for (const auto& [name, n] : dsos) stats_->frames_no_symbol += n;
    std::sort(dsos.begin(), dsos.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
  }

 private:
  // A frame as perf script prints it, and as the parser reads its line.
  struct FrameText {
    std::string_view text;  // in frame_texts_
    uint64_t* no_symbol = nullptr;  // the DSO's counter, when no symbol
    // The parser's id of "\t<text>" (PutFrameLine), for process names not
    // starting and starting with "java", once resolved.
    uint32_t line_id[2] = {0, 0};
    bool resolved[2] = {false, false};
  };
  // A slot of the frame cache points at the frame's entry in frames_,
  // whose nodes stay put.
  struct FrameSlot {
    const Dso* dso = nullptr;
    uint64_t shown = 0;
    FrameText* frame = nullptr;  // in frames_; nullptr: an empty slot
  };
  // The lines of an unwound frame (one, or the inlined frames there).
  struct UnwoundText {
    std::string text;  // "\t<frame>\n" each
    size_t frames = 0;
    uint64_t* no_symbol = nullptr;
    std::vector<uint32_t> line_ids[2];  // as FrameText's, once resolved
  };

  struct Queued {
    uint64_t time, seq;
    uint32_t type;
    uint16_t misc;
    uint64_t offset;
    std::string owned;      // a copy, when the reader's bytes do not stay
    std::string_view view;  // else the reader's own bytes
    std::string_view body() const { return owned.empty() ? view : owned; }
  };

  // Applies the queued records up to `limit` in time order, those of equal
  // times in the order they came (perf's ordered events). The sort moves
  // small (time, index) keys, not the records: a stable sort of these took
  // a twentieth of the replay.
  bool Flush(uint64_t limit, std::string* err) {
    order_.clear();
    for (size_t i = 0; i < queue_.size(); ++i) {
      order_.push_back({queue_[i].time, static_cast<uint32_t>(i)});
    }
    SortRuns(&order_, &scratch_, &runs_);
    size_t n = 0;
    for (; n < order_.size() && order_[n].first <= limit; ++n) {
      const Queued& q = queue_[order_[n].second];
      PerfRecord rec{q.type, q.misc, q.body(), q.offset};
      if (!Apply(rec, err)) return false;
    }
    kept_.clear();
    for (size_t i = n; i < order_.size(); ++i) {
      kept_.push_back(std::move(queue_[order_[i].second]));
    }
    queue_.swap(kept_);
    return true;
  }

  bool Apply(const PerfRecord& rec, std::string* err) {
    switch (rec.type) {
      case abi::kRecordComm: return OnComm(rec, err);
      case abi::kRecordFork: return OnFork(rec, err);
      case abi::kRecordMmap:
      case abi::kRecordMmap2: return OnMmap(rec, err);
      case abi::kRecordSample: return OnSample(rec, err);
      default: return true;  // EXIT, LOST, THROTTLE, ...: nothing to print
    }
  }

  // perf's machine__findnew_thread: a new thread is named ":TID" until a
  // COMM names it, and shares the maps of its process leader.
  Thread* FindNew(int32_t pid, int32_t tid) {
    auto it = threads_.find(tid);
    if (it != threads_.end()) {
      if (pid != -1 && it->second.pid == -1) {
        it->second.pid = pid;
        if (pid != tid) {
          std::shared_ptr<Maps> maps = FindNew(pid, pid)->maps;
          threads_[tid].maps = maps;
        }
      }
      return &threads_[tid];
    }
    Thread t;
    t.pid = pid;
    t.tid = tid;
    t.comm = ":" + std::to_string(tid);
    if (pid == tid || pid == -1) {
      t.maps = std::make_shared<Maps>();
    } else {
      t.maps = FindNew(pid, pid)->maps;
    }
    return &(threads_[tid] = std::move(t));
  }

  bool OnComm(const PerfRecord& rec, std::string* err) {
    PerfComm c;
    if (!reader_->ParseComm(rec, &c, err)) return false;
    Thread* t = FindNew(static_cast<int32_t>(c.pid), static_cast<int32_t>(c.tid));
    t->comm = c.comm;
    t->comm_set = true;
    return true;
  }

  // The child takes the parent's comm and, when it is a new process, a
  // copy of its maps (unless perf synthesized the FORK for a running task).
  bool OnFork(const PerfRecord& rec, std::string* err) {
    PerfFork f;
    if (!reader_->ParseFork(rec, &f, err)) return false;
    int32_t pid = static_cast<int32_t>(f.pid), tid = static_cast<int32_t>(f.tid);
    Thread* parent = FindNew(static_cast<int32_t>(f.ppid),
                             static_cast<int32_t>(f.ptid));
    std::string comm = parent->comm;
    bool comm_set = parent->comm_set;
    int32_t parent_pid = parent->pid;
    std::shared_ptr<Maps> parent_maps = parent->maps;
    threads_.erase(tid);
    Thread* t = FindNew(pid, tid);
    if (comm_set) {
      t->comm = comm;
      t->comm_set = true;
    }
    bool clone = !(rec.misc & abi::kMiscForkExec);
    if (parent_pid != t->pid && t->maps != parent_maps && clone &&
        parent_maps) {
      t->maps = std::make_shared<Maps>(*parent_maps);
    }
    return true;
  }

  bool OnMmap(const PerfRecord& rec, std::string* err) {
    PerfMmap m;
    if (!reader_->ParseMmap(rec, &m, err)) return false;
    uint16_t mode = rec.misc & abi::kMiscCpumodeMask;
    if (mode == abi::kMiscGuestKernel || mode == abi::kMiscGuestUser) {
      return true;
    }
    if (mode == abi::kMiscKernel) return KernelMmap(m);
    Thread* t = FindNew(static_cast<int32_t>(m.pid), static_cast<int32_t>(m.tid));
    Map map;
    map.start = m.start;
    map.end = m.start + m.len;
    map.pgoff = m.pgoff;
    std::string file = m.filename;
    bool anon = IsAnon(file) || (m.flags & kMapHugetlb);
    bool no_dso = IsNoDso(file);
    if ((anon || no_dso) && (m.prot & kProtExec)) {
      map.dso = symbols_->PerfMap(m.pid);
    } else {
      std::string id = m.build_id;
      if (id.empty()) {
        auto it = build_ids_.find(file);
        if (it != build_ids_.end()) id = it->second;
      }
      if (file == "[vdso]") map.pgoff = 0;
      map.dso = symbols_->User(file, id);
    }
    map.identity = anon || no_dso;
    t->maps->Insert(map);
    return true;
  }

  // "[kernel.kallsyms]_text" maps the kernel; other names are modules.
  bool KernelMmap(const PerfMmap& m) {
    Map map;
    map.start = m.start;
    map.end = m.start + m.len;
    map.pgoff = m.pgoff;
    if (m.filename.rfind("[kernel.kallsyms", 0) == 0) {
      if (map.start == 0 && map.end == 0) map.end = UINT64_MAX;
      map.dso = symbols_->Kernel();
      map.identity = true;
    } else if (!m.filename.empty() &&
               (m.filename[0] == '/' || m.filename[0] == '[')) {
      map.dso = symbols_->Module(m.filename);
      map.identity = true;  // kallsyms addresses are absolute
    } else {
      return true;
    }
    kmaps_.Insert(map);
    return true;
  }

  // The map of `ip` in `cpumode`, as perf's thread__find_map: kernel
  // addresses in the kernel maps, user ones in the process's, none else.
  // Once the kernel map is first hit and its symbols loaded, perf stretches
  // it from the first kernel symbol to the end of the last (so that init
  // code after _etext resolves too); the hit itself used the old bounds.
  const Map* FindMap(const Thread* t, uint8_t cpumode, uint64_t ip) {
    if (cpumode == abi::kMiscKernel) {
      const Map* m = kmaps_.Find(ip);
      if (m && m->dso->kind == DsoKind::kKernel && !kernel_stretched_) {
        kernel_stretched_ = true;
        uint64_t start = 0, end = 0;
        if (symbols_->KernelRange(&start, &end)) {
          Map hit = *m;
          kmaps_.Resize(m->start, start, end);
          stretched_hit_ = hit;
          return &stretched_hit_;
        }
      }
      return m;
    }
    if (cpumode == abi::kMiscUser && t->maps) return t->maps->Find(ip);
    return nullptr;
  }

  // "<addr> <sym+off> (<dso>)" as perf script prints a frame, with
  // "\n  <srcline>" after it for --srcline. The text of a frame is cached
  // per (DSO, address) (no DSO: a frame in no mapping): its cost follows
  // the distinct addresses, not the samples.
  FrameText* FrameAt(const Thread* t, uint8_t cpumode, uint64_t ip) {
    return FrameOf(KeyOf(t, cpumode, ip));
  }

  // Where a frame is: its mapping (nullptr: none), and the address perf
  // script shows for it, by which it is cached.
  struct FrameKey {
    const Map* map;
    uint64_t ip, map_ip, shown;
    const Dso* dso() const { return map ? map->dso : nullptr; }
  };
  FrameKey KeyOf(const Thread* t, uint8_t cpumode, uint64_t ip) {
    const Map* map = FindMap(t, cpumode, ip);
    uint64_t map_ip = map ? map->MapIp(ip) : ip;
    uint64_t shown = map && map->dso->kind == DsoKind::kModule
                         ? ip - map->start
                         : map_ip;
    return {map, ip, map_ip, shown};
  }

  FrameSlot& SlotOf(const FrameKey& k) {
    return frame_cache_[(reinterpret_cast<uintptr_t>(k.dso()) ^
                         (k.shown * 0x9e3779b97f4a7c15ULL)) >>
                        (64 - frame_cache_bits_)];
  }

  FrameText* FrameOf(const FrameKey& k) {
    if (!k.map && lines_ && !lines_->options().include_addrs) {
      // A frame in no mapping reads as "[unknown]" whatever its address
      // (unless --addrs shows it): one entry serves them all.
      if (unmapped_.text.empty()) {
        size_t mark = out_.size();
        unmapped_.no_symbol = AppendUnmappedFrame(k.ip);
        unmapped_.text =
            frame_texts_.Store(std::string_view(out_).substr(mark));
        out_.resize(mark);
      }
      return &unmapped_;
    }
    // The direct-mapped cache grows with the distinct frames (up to 2^18
    // slots), so that small inputs do not pay for a big table.
    if (frames_.size() * 2 >= frame_cache_.size() &&
        frame_cache_bits_ < kFrameCacheBits) {
      frame_cache_bits_ = std::min(kFrameCacheBits, frame_cache_bits_ + 2);
      frame_cache_.assign(size_t{1} << frame_cache_bits_, FrameSlot{});
    }
    const Dso* dso = k.dso();
    FrameSlot& slot = SlotOf(k);
    if (slot.dso != dso || slot.shown != k.shown || !slot.frame) {
      auto [it, added] = frames_.try_emplace(DsoAddress{dso, k.shown});
      if (added) {
        size_t mark = out_.size();
        it->second.no_symbol =
            k.map ? AppendMappedFrame(*k.map, k.map_ip, k.shown)
                  : AppendUnmappedFrame(k.ip);
        it->second.text =
            frame_texts_.Store(std::string_view(out_).substr(mark));
        out_.resize(mark);
      }
      slot = FrameSlot{dso, k.shown, &it->second};
    }
    return slot.frame;
  }

  // A frame's text, for FrameAt. Returns the counter of frames without a
  // symbol of the frame's DSO when it has none (for CountFrame), else
  // nullptr.
  uint64_t* AppendMappedFrame(const Map& map, uint64_t map_ip,
                              uint64_t shown) {
    AppendHex16(shown);
    out_ += ' ';
    const std::string& name = symbols_->Name(map.dso, map_ip);
    size_t off = name.rfind("+0x");
    if (exact_ || off == std::string::npos || name.find("+0x") != off) {
      out_ += name;
    } else {
      out_.append(name, 0, off);
    }
    out_ += " (";
    out_ += map.dso->name;
    out_ += ')';
    if (srcline_) AppendSrcline(srclines_.ForFrame(map.dso, map_ip));
    return name == "[unknown]" ? &no_symbol_[map.dso] : nullptr;
  }
  uint64_t* AppendUnmappedFrame(uint64_t ip) {
    AppendHex16(ip);
    out_ += " [unknown] ([unknown])";
    return &no_map_frames_;
  }

  // The frame's text on the current line (a sample without a call chain).
  void AppendFrame(const Thread* t, uint8_t cpumode, uint64_t ip) {
    FrameText* f = FrameAt(t, cpumode, ip);
    out_ += f->text;
    CountFrame(f->no_symbol);
  }

  // A stack line of the frame: "\t<frame>\n" in the text, else given to
  // the parser by the line's id, looked up once per frame and kind of
  // process name.
  void PutFrameLine(FrameText* f) {
    CountFrame(f->no_symbol);
    if (!lines_) {
      out_ += '\t';
      out_ += f->text;
      out_ += '\n';
      return;
    }
    bool java = lines_->java_process();
    if (!f->resolved[java]) {
      line_.assign(1, '\t');
      line_ += f->text;
      f->line_id[java] = lines_->StackLineId(line_);
      f->resolved[java] = true;
    }
    PutStackLine(f->line_id[java], f->text);
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

  // Counts a frame printed, and `no_symbol` (FrameText's) when the frame
  // has no symbol.
  void CountFrame(uint64_t* no_symbol, uint64_t frames = 1) {
    frame_count_ += frames;
    if (no_symbol) ++*no_symbol;
  }

  // perf's "\n  " before a source line; nothing when there is none.
  void AppendSrcline(const std::string& line) {
    if (line.empty()) return;
    out_ += "\n  ";
    out_ += line;
  }

  // printf's "%16" PRIx64 (without the padding when not exact), in one
  // append: a character at a time cost a tenth of the replay.
  void AppendHex16(uint64_t v) {
    char buf[16];
    char* p = buf + sizeof buf;
    do {
      *--p = "0123456789abcdef"[v & 15];
      v >>= 4;
    } while (v);
    size_t n = static_cast<size_t>(buf + sizeof buf - p);
    if (exact_ && n < 16) out_.append(16 - n, ' ');
    out_.append(p, n);
  }

  // printf's "%*" PRIu64 / "%*d" with a minimum width.
  void AppendNumber(int64_t v, size_t width) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    size_t n = static_cast<size_t>(r.ptr - buf);
    if (n < width) out_.append(width - n, ' ');
    out_.append(buf, n);
  }
  void AppendUnsigned(uint64_t v, size_t width) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    size_t n = static_cast<size_t>(r.ptr - buf);
    if (n < width) out_.append(width - n, ' ');
    out_.append(buf, n);
  }

  // perf script's callee-first walk of the call chain. A guest or corrupt
  // context within the frames perf shows makes perf drop them all.
  // The frames are located first and their cache slots fetched together:
  // the look-ups then wait for memory once, not once a frame.
  void AppendChain(const Thread* t, const std::vector<uint64_t>& chain) {
    if (DroppedChain(chain)) return;
    uint8_t cpumode = abi::kMiscUser;
    chain_keys_.clear();
    for (size_t i = 0; i < chain.size() && chain_keys_.size() < kMaxStack;
         ++i) {
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
      chain_keys_.push_back(KeyOf(t, cpumode, ip));
      if (!frame_cache_.empty()) {
        __builtin_prefetch(&SlotOf(chain_keys_.back()));
      }
    }
    for (const FrameKey& k : chain_keys_) PutFrameLine(FrameOf(k));
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

  bool OnSample(const PerfRecord& rec, std::string* err) {
    if (!sample_.callchain.capacity()) sample_.callchain.reserve(64);
    if (!reader_->ParseSample(rec, &sample_, err)) return false;
    stats_->samples++;
    if (sample_.attr < attr_samples_.size()) attr_samples_[sample_.attr]++;
    if (sample_.time != UINT64_MAX) {
      stats_->first_time = std::min(stats_->first_time, sample_.time);
      stats_->last_time = std::max(stats_->last_time, sample_.time);
    }
    uint8_t cpumode = rec.misc & abi::kMiscCpumodeMask;
    if (cpumode == abi::kMiscGuestKernel || cpumode == abi::kMiscGuestUser) {
      stats_->samples_skipped++;
      return true;
    }
    const PerfAttr& a = reader_->info().attrs[sample_.attr];
    uint64_t st = a.sample_type;
    bool dwarf = (st & abi::kSampleRegsUser) && (st & abi::kSampleStackUser);
    if (dwarf && !arch_) stats_->dwarf_chains++;
    int32_t pid = static_cast<int32_t>(sample_.pid);
    int32_t tid = static_cast<int32_t>(sample_.tid);
    const Thread* t = FindNew(pid, tid);
    AppendHeader(a, *t);
    if (st & abi::kSampleCallchain) {
      EndLine();
      AppendChain(t, sample_.callchain);
      if (dwarf && arch_) AppendUnwound(t, a);
    } else {
      out_ += ' ';
      AppendFrame(t, cpumode, sample_.ip);
    }
    EndLine();  // after a call chain, the blank line that ends the sample
    if (!line_error_.empty()) {
      *err = line_error_;
      return false;
    }
    if (out_.size() >= kEmitBytes) return EmitPending(err);
    return true;
  }

  // perf script's default fields: comm, tid, [cpu], time, period, event.
  void AppendHeader(const PerfAttr& a, const Thread& t) {
    uint64_t st = a.sample_type;
    if (st & abi::kSampleCallchain) {
      out_ += t.comm;
      out_ += ' ';
    } else {
      if (t.comm.size() < 16) out_.append(16 - t.comm.size(), ' ');
      out_ += t.comm;
      out_ += ' ';
    }
    if ((st & abi::kSampleTid) && pid_tid_) {  // "%5d/%-5d "
      AppendNumber(static_cast<int32_t>(sample_.pid), 5);
      out_ += '/';
      AppendNumber(static_cast<int32_t>(sample_.tid), 1);
      out_ += ' ';
    } else if (st & abi::kSampleTid) {  // "%5d "
      AppendNumber(static_cast<int32_t>(sample_.tid), 5);
      out_ += ' ';
    }
    if (st & abi::kSampleCpu) AppendCpu(static_cast<int32_t>(sample_.cpu));
    if (st & abi::kSampleTime) {  // "%12s: " of "%lu.%06lu"
      char when[48];
      auto r = std::to_chars(when, when + 24, sample_.time / 1000000000);
      uint64_t usec = sample_.time % 1000000000 / 1000;
      *r.ptr++ = '.';
      for (int d = 5; d >= 0; --d) {
        r.ptr[d] = static_cast<char>('0' + usec % 10);
        usec /= 10;
      }
      size_t n = static_cast<size_t>(r.ptr + 6 - when);
      if (n < 12) out_.append(12 - n, ' ');
      out_.append(when, n);
      out_ += ": ";
    }
    AppendUnsigned(sample_.period, 10);  // "%10" PRIu64 " "
    out_ += ' ';
    out_.append(name_width_ - std::min(name_width_, a.name.size()), ' ');
    out_ += a.name;
    out_ += ": ";
    if (a.type == abi::kTypeTracepoint) {
      // perf prints the tracepoint's fields here; they are not decoded.
      // Any text keeps the line from ending in "event:", as it does.
      out_ += "[fields]";
    }
  }

  // "[%03d] " without snprintf, which took as long as the rest of the
  // sample's header.
  void AppendCpu(int32_t cpu) {
    char buf[24];
    char* p = buf;
    *p++ = '[';
    if (cpu < 0) *p++ = '-';
    uint32_t v = cpu < 0 ? 0u - static_cast<uint32_t>(cpu)
                         : static_cast<uint32_t>(cpu);
    auto r = std::to_chars(p, buf + sizeof buf - 2, v);
    size_t digits = static_cast<size_t>(r.ptr - p);
    size_t width = cpu < 0 ? 2 : 3;  // the sign counts in the width
    if (digits < width) {
      std::memmove(p + (width - digits), p, digits);
      std::memset(p, '0', width - digits);
      r.ptr += width - digits;
    }
    *r.ptr++ = ']';
    *r.ptr++ = ' ';
    out_.append(buf, static_cast<size_t>(r.ptr - buf));
  }

  // perf's DWARF post-unwind: the user frames from the sample's registers
  // and stack copy, after the kernel part of the chain, each with the
  // frames inlined there.
  void AppendUnwound(const Thread* t, const PerfAttr& a) {
    if (sample_.user_regs.empty() || sample_.user_stack.empty() || !t->maps) {
      return;
    }
    auto& slot = unwinders_[t->maps.get()];
    if (!slot.unwinder) {
      slot.keep = t->maps;  // its address stays taken while the slot lives
      slot.view = std::make_unique<UnwindView>(t->maps.get(), symbols_);
      slot.unwinder = std::make_unique<DwarfUnwinder>(arch_, slot.view.get(),
                                                      &files_);
    }
    UnwindSample us{a.sample_regs_user, &sample_.user_regs,
                    sample_.user_stack};
    stats_->unwound++;
    if (!slot.view->Ready()) {
      uint64_t pc = 0;  // the user-space address the registers hold
      PerfRegister(us.regs_mask, *us.regs, arch_->perf_ip, &pc);
      NoteUnwindStop(t, {UnwindStop::kNoObject, pc});
      return;
    }
    UnwindResult r = slot.unwinder->Unwind(us, kMaxStack, &ips_);
    if (r.stop != UnwindStop::kNone) NoteUnwindStop(t, r);
    for (uint64_t ip : ips_) {
      if (ip == 0) continue;
      AppendUnwoundFrame(t, ip);
    }
  }

  // Counts a walk that ended early, or went on by guess, by reason and by
  // the DSO of the frame where it happened.
  void NoteUnwindStop(const Thread* t, const UnwindResult& r) {
    const Map* map = FindMap(t, abi::kMiscUser, r.where);
    std::string dso = map && map->dso ? map->dso->name : "[unknown]";
    stats_->unwind_stops[{r.stop, dso}]++;
    stats_->unwind_stopped++;
  }

  // A user frame as perf prints it after unwinding: the inlined frames at
  // the address (innermost first, "(inlined)" instead of the DSO when the
  // name is not the symbol's own), else the plain frame. Cached per (DSO,
  // address), with what it adds to the frame counts.
  void AppendUnwoundFrame(const Thread* t, uint64_t ip) {
    const Map* map = FindMap(t, abi::kMiscUser, ip);
    if (!map) {
      PutFrameLine(FrameAt(t, abi::kMiscUser, ip));
      return;
    }
    uint64_t map_ip = map->MapIp(ip);
    auto [it, added] = unwound_.try_emplace(DsoAddress{map->dso, map_ip});
    UnwoundText& u = it->second;
    if (added) {
      size_t mark = out_.size();
      u.frames = AppendInlined(map, map_ip);
      if (u.frames == 0) {
        FrameText* f = FrameAt(t, abi::kMiscUser, ip);
        out_ += '\t';
        out_ += f->text;
        out_ += '\n';
        u.no_symbol = f->no_symbol;
        u.frames = 1;
      }
      u.text.assign(out_, mark, std::string::npos);
      out_.resize(mark);
    }
    CountFrame(u.no_symbol, u.frames);
    if (lines_) {
      PutUnwoundLines(&u);
    } else {
      out_ += u.text;
    }
  }

  // The lines of an unwound frame to the parser, by their ids (looked up
  // once per frame and kind of process name).
  void PutUnwoundLines(UnwoundText* u) {
    bool java = lines_->java_process();
    std::vector<uint32_t>& ids = u->line_ids[java];
    bool resolve = ids.empty();
    std::string_view text = u->text;
    for (size_t i = 0, start = 0; start < text.size(); ++i) {
      size_t nl = text.find('\n', start);
      std::string_view line = text.substr(start, nl - start);
      start = nl + 1;
      if (resolve) ids.push_back(lines_->StackLineId(line));
      PutStackLine(ids[i], line.substr(1));  // without its '\t'
    }
  }

  // perf's append_inlines: addr2line's records for the address, each named
  // after the symbol when the names agree, else an "(inlined)" frame; with
  // --srcline each record's own line goes before " (inlined)":
  //   |              abac operator()+0x2c
  //   |   dwarf.cc:38 (inlined)
  // Returns the frames appended (0: none, the plain frame is printed).
  size_t AppendInlined(const Map* map, uint64_t map_ip) {
    Dso* dso = map->dso;
    if (dso->kind != DsoKind::kUser) return 0;
    const std::string& name = symbols_->Name(dso, map_ip);
    size_t off = name.rfind("+0x");
    if (name == "[unknown]" || off == std::string::npos) return 0;
    std::string path = PerfSrcline::Addr2lineFile(*dso);
    if (path.empty()) return 0;
    uint64_t addr = srclines_.ObjdumpAddress(*dso, map_ip);
    const SourceLookup* look = source_lines_.Lookup(path, addr, true);
    if (!look || !look->found || look->records.empty()) return 0;
    std::string_view base(name.data(), off);
    for (const SourceRecord& r : look->records) {
      std::string fn = r.function.empty() ? "??" : DemangleSymbol(r.function);
      out_ += '\t';
      AppendHex16(map_ip);
      out_ += ' ';
      bool inlined = fn != base;
      if (inlined) {
        out_ += fn;
        out_.append(name, off, std::string::npos);
      } else {
        out_ += name;
        out_ += " (";
        out_ += dso->name;
        out_ += ')';
      }
      if (srcline_) AppendSrcline(PerfSrcline::FromRecord(r));
      out_ += inlined ? " (inlined)\n" : "\n";
    }
    return look->records.size();
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
  std::string line_;         // a stack line for lines_
  std::string line_error_;   // the first error lines_ gave
  PerfDataStats* stats_;
  bool exact_;
  bool srcline_;  // perf script -F+srcline
  bool pid_tid_;  // perf script -F+pid
  size_t name_width_ = 0;
  std::unordered_map<std::string, std::string> build_ids_;
  std::unordered_map<int32_t, Thread> threads_;
  Maps kmaps_;
  bool kernel_stretched_ = false;
  Map stretched_hit_;
  std::vector<Queued> queue_, kept_;
  std::vector<SortKey> order_, scratch_;  // Flush's sort keys
  std::vector<size_t> runs_;
  uint64_t seq_ = 0, next_flush_ = 0, max_time_ = 0;
  PerfSample sample_;
  std::string out_;
  std::vector<uint64_t> attr_samples_;  // samples of each attr

  // The frames printed, and those without a symbol by DSO (the frame
  // caches keep a pointer to their DSO's counter: no lookup per frame).
  uint64_t frame_count_ = 0;
  uint64_t no_map_frames_ = 0;  // in no mapping: DSO "[unknown]"
  std::unordered_map<const Dso*, uint64_t> no_symbol_;

  // DWARF unwinding: one unwinder per address space.
  const RegisterMap* arch_ = nullptr;
  UnwindFiles files_;
  struct UnwindSlot {
    std::shared_ptr<Maps> keep;
    std::unique_ptr<UnwindView> view;
    std::unique_ptr<DwarfUnwinder> unwinder;
  };
  std::unordered_map<const Maps*, UnwindSlot> unwinders_;
  std::vector<uint64_t> ips_;
  SourceLines source_lines_;
  PerfSrcline srclines_{&source_lines_};

  static constexpr int kFrameCacheBits = 18;
  std::vector<FrameKey> chain_keys_;  // AppendChain's frames
  FrameText unmapped_;  // lines_ without --addrs: every frame in no mapping
  Arena frame_texts_;
  std::unordered_map<DsoAddress, FrameText, DsoAddressHash> frames_;
  std::unordered_map<DsoAddress, UnwoundText, DsoAddressHash> unwound_;
  std::vector<FrameSlot> frame_cache_;
  int frame_cache_bits_ = 6;
};

// A read-only mapping of a whole regular file; ok() is false (and the
// caller reads the stream instead) for anything else.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    if (path.empty() || path == "-") return;
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ,
                     MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const char*>(p);
        size_ = static_cast<size_t>(st.st_size);
      }
    }
    close(fd);
  }
  ~MappedFile() {
    if (data_) munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  bool ok() const { return data_ != nullptr; }
  std::string_view bytes() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
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
                    PerfDataText text, const std::string& map_path) {
  ChunkSink take = [&](std::string* chunk) { return emit(*chunk); };
  return RenderPerfDataChunks(name, src, options, take, stats, err, text,
                              map_path);
}

// Replays the perf.data in `src`, its samples' text going through `take`
// or, when `lines` is set, to that parser line by line.
static bool Replay(const std::string& name, ByteSource* src,
                   const SymbolOptions& options, const ChunkSink& take,
                   PerfScriptParser* lines, PerfDataStats* stats,
                   std::string* err, PerfDataText text,
                   const std::string& map_path) {
  MappedFile mapped(map_path);
  PerfDataReader reader = mapped.ok() ? PerfDataReader(name, mapped.bytes())
                                      : PerfDataReader(name, src);
  SymbolResolver symbols(options);
  Replayer replay(&reader, &symbols, take, lines, stats, text);
  bool ok = reader.Read(&replay, err) && replay.Finish(err);
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
                          PerfDataText text, const std::string& map_path) {
  return Replay(name, src, options, take, nullptr, stats, err, text,
                map_path);
}

bool ReplayIntoParser(const std::string& name, ByteSource* src,
                      const SymbolOptions& options, PerfScriptParser* parser,
                      uint64_t input_index, PerfDataStats* stats,
                      std::string* err, const std::string& map_path) {
  ChunkSink none = [](std::string*) { return true; };  // nothing is emitted
  PerfDataText text;
  text.exact = false;
  text.pid_tid = PidTidWanted(parser->options());
  parser->StartLines(name, input_index);
  return Replay(name, src, options, none, parser, stats, err, text, map_path);
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
