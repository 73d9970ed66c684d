// ThreadMaps: the threads of a recording and the mappings of their
// address spaces (and of the kernel), as perf script's replay keeps them:
// COMM, FORK, MMAP and MMAP2 update them, so that a sample takes the comm
// and maps of its moment.
#ifndef FLAMEFOLD_PERFDATA_THREAD_MAPS_H_
#define FLAMEFOLD_PERFDATA_THREAD_MAPS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "perfdata/perf_data.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

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
  // The cache stays empty.
  Maps(const Maps& other) : maps_(other.maps_) {}
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
    if (Holds(last_[0], addr)) return last_[0];
    if (Holds(last_[1], addr)) {
      std::swap(last_[0], last_[1]);
      return last_[0];
    }
    auto it = maps_.upper_bound(addr);
    if (it == maps_.begin()) return nullptr;
    --it;
    if (addr >= it->second.end) return nullptr;
    last_[1] = last_[0];
    last_[0] = &it->second;
    return last_[0];
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
  static bool Holds(const Map* m, uint64_t addr) {
    return m != nullptr && addr >= m->start && addr < m->end;
  }
  void Changed() {
    last_[0] = last_[1] = nullptr;
    lowest_.clear();
    ++version_;
  }

  std::map<uint64_t, Map> maps_;
  // The last two hits, the latest first: a call chain's frames cluster in
  // a program and the library it calls, turn about.
  mutable const Map* last_[2] = {nullptr, nullptr};
  mutable std::unordered_map<const Dso*, uint64_t> lowest_;
  uint64_t version_ = 0;  // counts the changes
};

struct Thread {
  int32_t pid = -1, tid = -1;
  std::string comm;
  bool comm_set = false;
  std::shared_ptr<Maps> maps;
};

class ThreadMaps {
 public:
  /// DSOs come from `symbols`, which must outlive this.
  explicit ThreadMaps(SymbolResolver* symbols);

  /// Notes the build ids the recording lists (for MMAP records without
  /// one).
  void AddBuildIds(const std::vector<PerfDataInfo::BuildId>& build_ids);

  /// perf's machine__findnew_thread: a new thread is named ":TID" until a
  /// COMM names it, and shares the maps of its process leader.
  Thread* FindNew(int32_t pid, int32_t tid);
  void OnComm(const PerfComm& c);
  /// The child takes the parent's comm and, when it is a new process
  /// (`clone`: not an exec), a copy of its maps, unless perf synthesized
  /// the FORK for a running task.
  void OnFork(const PerfFork& f, bool clone);
  /// A mapping made in `cpumode` (PERF_RECORD_MISC_*).
  void OnMmap(const PerfMmap& m, uint16_t cpumode);

  /// The map of `ip` in `cpumode`, as perf's thread__find_map: kernel
  /// addresses in the kernel maps, user ones in the process's, none else.
  /// Once the kernel map is first hit and its symbols loaded, perf
  /// stretches it from the first kernel symbol to the end of the last (so
  /// that init code after _etext resolves too); the hit itself used the
  /// old bounds.
  const Map* FindMap(const Thread* t, uint8_t cpumode, uint64_t ip);

 private:
  void KernelMmap(const PerfMmap& m);

  SymbolResolver* symbols_;
  std::unordered_map<std::string, std::string> build_ids_;  // by file name
  std::unordered_map<int32_t, Thread> threads_;
  Maps kmaps_;
  bool kernel_stretched_ = false;
  Map stretched_hit_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_THREAD_MAPS_H_
