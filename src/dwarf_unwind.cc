#include "flamefold/dwarf_unwind.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cstring>
#include <map>
#include <unordered_map>

namespace flamefold {
namespace {

// perf's PERF_REG_X86_* (arch/x86/include/uapi/asm/perf_regs.h) against the
// x86-64 psABI DWARF numbers; the return address column 16 is the PC.
constexpr RegisterMap::Pair kX86_64[] = {
    {0, 0},    // ax
    {3, 1},    // dx
    {2, 2},    // cx
    {1, 3},    // bx
    {4, 4},    // si
    {5, 5},    // di
    {6, 6},    // bp
    {7, 7},    // sp
    {16, 8},  {17, 9},  {18, 10}, {19, 11},  // r8-r11
    {20, 12}, {21, 13}, {22, 14}, {23, 15},  // r12-r15
    {8, 16},   // ip
    {-1, -1},
};

// perf's PERF_REG_ARM64_* against the AArch64 DWARF numbers: x0-x30 and sp
// keep their numbers; the PC is passed apart (no DWARF number).
constexpr RegisterMap::Pair kAarch64[] = {
    {0, 0},   {1, 1},   {2, 2},   {3, 3},   {4, 4},   {5, 5},   {6, 6},
    {7, 7},   {8, 8},   {9, 9},   {10, 10}, {11, 11}, {12, 12}, {13, 13},
    {14, 14}, {15, 15}, {16, 16}, {17, 17}, {18, 18}, {19, 19}, {20, 20},
    {21, 21}, {22, 22}, {23, 23}, {24, 24}, {25, 25}, {26, 26}, {27, 27},
    {28, 28}, {29, 29}, {30, 30}, {31, 31},
    {-1, -1},
};

constexpr RegisterMap kRegisterMaps[] = {
    {"x86_64", "x86-64", 8, 7, 17, kX86_64},
    {"aarch64", "AArch64", 32, 31, 33, kAarch64},
};

char* no_debuginfo_path = nullptr;

// Separate debug files are not looked for: CFI comes from the file mapped
// (its .eh_frame, else its .debug_frame), as perf's unwinder reads it.
int NoDebugInfo(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*,
                const char*, GElf_Word, char**) {
  return -1;
}

const Dwfl_Callbacks kDwflCallbacks = {
    dwfl_build_id_find_elf, NoDebugInfo, dwfl_offline_section_address,
    &no_debuginfo_path};

pid_t NextThread(Dwfl*, void*, void**) { return 0; }

bool GetThread(Dwfl*, pid_t, void* arg, void** thread_arg) {
  *thread_arg = arg;
  return true;
}

bool MemoryRead(Dwfl*, Dwarf_Addr addr, Dwarf_Word* result, void* arg) {
  uint64_t v = 0;
  if (!static_cast<DwarfUnwinder*>(arg)->ReadWord(addr, &v)) return false;
  *result = v;
  return true;
}

bool InitialRegisters(Dwfl_Thread* thread, void* arg) {
  return static_cast<DwarfUnwinder*>(arg)->SetRegisters(thread);
}

const Dwfl_Thread_Callbacks kThreadCallbacks = {
    NextThread, GetThread, MemoryRead, InitialRegisters, nullptr, nullptr};

struct FrameWalk {
  DwarfUnwinder* unwinder;
  std::vector<uint64_t>* ips;
  size_t max_frames;
  bool first = true;
};

int OnFrame(Dwfl_Frame* state, void* arg) {
  FrameWalk* walk = static_cast<FrameWalk*>(arg);
  Dwarf_Addr pc = 0;
  bool activation = false;
  if (!dwfl_frame_pc(state, &pc, &activation)) return DWARF_CB_ABORT;
  // The caller's CFI must be known before libdwfl steps past this frame.
  walk->unwinder->Report(pc);
  if (walk->first) {  // the sampled PC, already the first entry
    walk->first = false;
    return DWARF_CB_OK;
  }
  if (!activation) --pc;
  walk->ips->push_back(pc);
  return walk->ips->size() >= walk->max_frames ? DWARF_CB_ABORT
                                               : DWARF_CB_OK;
}

}  // namespace

const RegisterMap* RegisterMapFor(std::string_view arch) {
  for (const RegisterMap& m : kRegisterMaps) {
    if (arch == m.arch) return &m;
  }
  return nullptr;
}

bool PerfRegister(uint64_t mask, const std::vector<uint64_t>& regs,
                  int perf_reg, uint64_t* value) {
  if (perf_reg < 0 || perf_reg >= 64 || !((mask >> perf_reg) & 1)) {
    return false;
  }
  size_t index = static_cast<size_t>(
      std::popcount(mask & ((uint64_t{1} << perf_reg) - 1)));
  if (index >= regs.size()) return false;
  *value = regs[index];
  return true;
}

// ---------------------------------------------------------------------------

struct FileBytes::Impl {
  struct Mapped {
    const char* data = nullptr;
    size_t size = 0;
  };
  std::unordered_map<std::string, Mapped> files;
  ~Impl() {
    for (auto& [path, m] : files) {
      if (m.data) munmap(const_cast<char*>(m.data), m.size);
    }
  }
};

FileBytes::FileBytes() : impl_(std::make_unique<Impl>()) {}
FileBytes::~FileBytes() = default;

std::string_view FileBytes::Get(const std::string& path) {
  auto [it, added] = impl_->files.try_emplace(path);
  if (added && !path.empty()) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_size > 0) {
      void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ,
                     MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        it->second.data = static_cast<const char*>(p);
        it->second.size = static_cast<size_t>(st.st_size);
      }
    }
    if (fd >= 0) close(fd);
  }
  return {it->second.data, it->second.size};
}

// ---------------------------------------------------------------------------

struct DwarfUnwinder::Session {
  Dwfl* dwfl = nullptr;
  bool attached = false;
  // Module start -> (file, bias) reported there.
  std::map<uint64_t, std::pair<std::string, uint64_t>> modules;
  ~Session() {
    if (dwfl) dwfl_end(dwfl);
  }
};

DwarfUnwinder::DwarfUnwinder(const RegisterMap* arch, UnwindMaps* maps,
                             FileBytes* files)
    : arch_(arch), maps_(maps), files_(files) {}

DwarfUnwinder::~DwarfUnwinder() = default;

void DwarfUnwinder::Reset() { session_.reset(); }

bool DwarfUnwinder::ReadWord(uint64_t addr, uint64_t* value) {
  std::string_view stack = sample_->stack;
  // perf's access_mem: inside the copy unless the word reaches its end.
  if (addr >= sp_ && addr - sp_ < stack.size() &&
      stack.size() - (addr - sp_) > 8) {
    std::memcpy(value, stack.data() + (addr - sp_), 8);
    return true;
  }
  UnwindMapping m;
  if (!maps_->Find(addr, &m) || m.file.empty()) return false;
  std::string_view bytes = files_->Get(m.file);
  uint64_t off = addr - m.start + m.pgoff;
  if (off > bytes.size() || bytes.size() - off < 8) return false;
  std::memcpy(value, bytes.data() + off, 8);
  return true;
}

bool DwarfUnwinder::SetRegisters(void* thread_ptr) {
  Dwfl_Thread* thread = static_cast<Dwfl_Thread*>(thread_ptr);
  const UnwindSample& s = *sample_;
  for (const RegisterMap::Pair* p = arch_->pairs; p->perf >= 0; ++p) {
    uint64_t v = 0;
    if (!PerfRegister(s.regs_mask, *s.regs, p->perf, &v)) continue;
    Dwarf_Word w = v;
    if (!dwfl_thread_state_registers(thread, p->dwarf, 1, &w)) return false;
  }
  uint64_t pc = 0;
  if (PerfRegister(s.regs_mask, *s.regs, arch_->perf_ip, &pc)) {
    dwfl_thread_state_register_pc(thread, pc);
  }
  return true;
}

// As perf reports modules: the file mapped at `pc`, placed at the mapping's
// start minus its file offset.
void DwarfUnwinder::Report(uint64_t pc) {
  UnwindMapping m;
  if (!maps_->Find(pc, &m) || m.file.empty()) return;
  uint64_t bias = m.start - m.pgoff;
  auto it = session_->modules.find(m.start);
  if (it != session_->modules.end()) {
    if (it->second.first == m.file && it->second.second == bias) return;
    // Another file now lives there: the session no longer fits.
    return;
  }
  session_->modules[m.start] = {m.file, bias};
  if (dwfl_addrmodule(session_->dwfl, pc)) return;  // overlapping report
  dwfl_report_begin_add(session_->dwfl);
  dwfl_report_elf(session_->dwfl, m.file.c_str(), m.file.c_str(), -1, bias,
                  false);
  dwfl_report_end(session_->dwfl, nullptr, nullptr);
}

void DwarfUnwinder::Unwind(const UnwindSample& sample, size_t max_frames,
                           std::vector<uint64_t>* ips) {
  ips->clear();
  uint64_t pc = 0, sp = 0;
  if (!sample.regs || max_frames == 0 ||
      !PerfRegister(sample.regs_mask, *sample.regs, arch_->perf_ip, &pc) ||
      !PerfRegister(sample.regs_mask, *sample.regs, arch_->perf_sp, &sp)) {
    return;
  }
  ips->push_back(pc);
  if (max_frames == 1 || sample.stack.empty()) return;
  sample_ = &sample;
  sp_ = sp;
  if (!session_) {
    session_ = std::make_unique<Session>();
    session_->dwfl = dwfl_begin(&kDwflCallbacks);
  }
  if (!session_->dwfl) return;
  Report(pc);
  if (!session_->attached) {
    // The architecture comes from the first module: none yet, no unwind.
    if (session_->modules.empty()) return;
    if (!dwfl_attach_state(session_->dwfl, nullptr, 1, &kThreadCallbacks,
                           this)) {
      session_->dwfl = (dwfl_end(session_->dwfl), nullptr);
      return;
    }
    session_->attached = true;
  }
  FrameWalk walk{this, ips, max_frames};
  dwfl_getthread_frames(session_->dwfl, static_cast<pid_t>(sample.tid ? sample.tid : 1),
                        OnFrame, &walk);
  sample_ = nullptr;
}

}  // namespace flamefold
