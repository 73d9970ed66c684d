#include "perfdata/thread_maps.h"

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;
namespace {

constexpr uint32_t kMapHugetlb = 0x40000;
constexpr uint32_t kProtExec = 4;

// perf's is_anon_memory and is_no_dso_memory.
bool IsAnon(const std::string& f) {
  return f == "//anon" || f.rfind("/dev/zero", 0) == 0 ||
         f.rfind("/anon_hugepage", 0) == 0;
}
bool IsNoDso(const std::string& f) {
  return f.rfind("[stack", 0) == 0 || f.rfind("/SYSV", 0) == 0 ||
         f == "[heap]";
}

}  // namespace

ThreadMaps::ThreadMaps(SymbolResolver* symbols) : symbols_(symbols) {
  Thread* idle = FindNew(0, 0);
  idle->comm = "swapper";
  idle->comm_set = true;
}

void ThreadMaps::AddBuildIds(
    const std::vector<PerfDataInfo::BuildId>& build_ids) {
  for (const PerfDataInfo::BuildId& b : build_ids) {
    build_ids_[b.filename] = b.build_id;
    // The kernel's symbols come from kallsyms, not by build id; the id is
    // kept for what shows where frames came from (pprof's mappings).
    if (b.filename == "[kernel.kallsyms]") {
      symbols_->Kernel()->build_id = b.build_id;
    }
  }
}

Thread* ThreadMaps::FindNew(int32_t pid, int32_t tid) {
  auto it = threads_.find(tid);
  if (it != threads_.end()) {
    if (pid == -1 || it->second.pid != -1) return &it->second;  // usually
    it->second.pid = pid;
    if (pid != tid) {
      std::shared_ptr<Maps> maps = FindNew(pid, pid)->maps;
      threads_[tid].maps = maps;  // (FindNew may have moved it)
    }
    return &threads_[tid];
  }
  Thread t;
  t.pid = pid;
  t.tid = tid;
  t.comm = ':';  // appended apart: see fold_warnings.cc's EventList
  t.comm += std::to_string(tid);
  if (pid == tid || pid == -1) {
    t.maps = std::make_shared<Maps>();
  } else {
    t.maps = FindNew(pid, pid)->maps;
  }
  return &(threads_[tid] = std::move(t));
}

void ThreadMaps::OnComm(const PerfComm& c) {
  Thread* t = FindNew(static_cast<int32_t>(c.pid), static_cast<int32_t>(c.tid));
  t->comm = c.comm;
  t->comm_set = true;
}

void ThreadMaps::OnFork(const PerfFork& f, bool clone) {
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
  if (parent_pid != t->pid && t->maps != parent_maps && clone &&
      parent_maps) {
    t->maps = std::make_shared<Maps>(*parent_maps);
  }
}

void ThreadMaps::OnMmap(const PerfMmap& m, uint16_t cpumode) {
  if (cpumode == abi::kMiscGuestKernel || cpumode == abi::kMiscGuestUser) {
    return;
  }
  if (cpumode == abi::kMiscKernel) {
    KernelMmap(m);
    return;
  }
  Thread* t = FindNew(static_cast<int32_t>(m.pid), static_cast<int32_t>(m.tid));
  Map map;
  map.start = m.start;
  map.end = m.start + m.len;
  map.pgoff = m.pgoff;
  const std::string& file = m.filename;
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
    if (file == "[vdso]") {
      map.pgoff = 0;
      // perf makes [vdso] from its own vDSO unless the build-id table
      // named it first (util/vdso.c, machine__findnew_vdso).
      map.dso = build_ids_.count(file) ? symbols_->User(file, id)
                                       : symbols_->OwnVdso(id);
    } else {
      map.dso = symbols_->User(file, id);
    }
  }
  map.identity = anon || no_dso;
  t->maps->Insert(map);
}

// "[kernel.kallsyms]_text" maps the kernel; other names are modules.
void ThreadMaps::KernelMmap(const PerfMmap& m) {
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
    return;
  }
  kmaps_.Insert(map);
}

const Map* ThreadMaps::FindMap(const Thread* t, uint8_t cpumode,
                               uint64_t ip) {
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

}  // namespace flamefold
