#include "perfdata/dwarf_unwind.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "io/file_source.h"

namespace flamefold {
namespace {

constexpr int kMaxRegs = 40;  // DWARF registers tracked (0..39)
constexpr int kMaxOps = 64;   // longest CFI expression evaluated
constexpr size_t kMaxDepth = 64;  // evaluation stack

}  // namespace

// ---------------------------------------------------------------------------
// Files and their rules.

struct UnwindFiles::Rule {
  enum Kind : uint8_t { kSame, kUndefined, kExpr };
  struct Reg {
    Kind kind = kSame;
    uint32_t first = 0, count = 0;  // into ops
  };
  int ra = 16;
  bool signal = false;
  uint32_t cfa_first = 0, cfa_count = 0;
  Reg regs[kMaxRegs];
  std::vector<Dwarf_Op> ops;
};

struct UnwindFiles::File {
  const char* data = nullptr;
  size_t size = 0;
  uint64_t elf_base = 0;  // the first PT_LOAD's page (perf's elf_base_address)
  int fd = -1;
  Elf* elf = nullptr;
  Dwarf_CFI* eh = nullptr;
  // By the address looked up in .eh_frame.
  std::unordered_map<uint64_t, std::unique_ptr<Rule>> rules;

  ~File() {
    if (eh) dwarf_cfi_end(eh);
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
    if (data) munmap(const_cast<char*>(data), size);
  }
};

struct UnwindFilesImpl {
  std::unordered_map<std::string, std::unique_ptr<UnwindFiles::File>> files;
  // The file Get gave last: an unwinding step asks for the same one twice
  // or more, and the next step mostly too.
  std::string last_path;
  UnwindFiles::File* last = nullptr;
};

UnwindFiles::UnwindFiles() : impl_(std::make_unique<UnwindFilesImpl>()) {}
UnwindFiles::~UnwindFiles() = default;

namespace {

// A PROGBITS section named `name`.
bool HasData(Elf* elf, const char* name) {
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(elf, &shstrndx) != 0) return false;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn;
       scn = elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS) continue;
    const char* n = elf_strptr(elf, shstrndx, sh.sh_name);
    if (n && std::strcmp(n, name) == 0) return true;
  }
  return false;
}

// The page of the first PT_LOAD's address: 0 for a shared object or a PIE,
// 0x400000 for a classic executable.
uint64_t FirstLoadPage(Elf* elf) {
  size_t n = 0;
  if (elf_getphdrnum(elf, &n) != 0) return 0;
  for (size_t i = 0; i < n; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD) {
      return ph.p_vaddr & ~uint64_t{0xfff};
    }
  }
  return 0;
}

}  // namespace

UnwindFiles::File* UnwindFiles::Get(std::string_view path) {
  if (impl_->last && path == impl_->last_path) return impl_->last;
  impl_->last_path.assign(path);
  impl_->last = Open(impl_->last_path);
  return impl_->last;
}

UnwindFiles::File* UnwindFiles::Open(const std::string& path) {
  auto [it, added] = impl_->files.try_emplace(path);
  if (!added) return it->second.get();
  auto f = std::make_unique<File>();
  std::string err;
  f->fd = path.empty() ? -1 : OpenFileFd(path, &err);
  struct stat st;
  if (f->fd >= 0 && fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_size > 0) {
    void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ,
                   MAP_PRIVATE, f->fd, 0);
    if (p != MAP_FAILED) {
      f->data = static_cast<const char*>(p);
      f->size = static_cast<size_t>(st.st_size);
    }
  }
  if (f->data) {
    static bool init = (elf_version(EV_CURRENT), true);
    (void)init;
    f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, nullptr);
    if (f->elf && elf_kind(f->elf) == ELF_K_ELF) {
      f->elf_base = FirstLoadPage(f->elf);
      // perf's libunwind reads .eh_frame through .eh_frame_hdr only. Not
      // .debug_frame: perf 6.1 reads it through libunwind's
      // dwarf_find_debug_frame, which Debian's libunwind 1.6.2 does not
      // export, so perf was built without (NO_LIBUNWIND_DEBUG_FRAME; its
      // binary holds none of that code's messages). A Go program, whose
      // CFI is in .debug_frame alone, unwinds no further than the sample's
      // own frame under perf script.
      if (HasData(f->elf, ".eh_frame_hdr")) f->eh = dwarf_getcfi_elf(f->elf);
    }
  }
  it->second = std::move(f);
  return it->second.get();
}

std::string_view UnwindFiles::Bytes(std::string_view path) {
  File* f = Get(path);
  return {f->data, f->size};
}

const UnwindFiles::Rule* UnwindFiles::RuleAt(const UnwindMapping& m,
                                             uint64_t ip, bool* has_cfi) {
  File* f = Get(m.file);
  // .eh_frame: at the object's base as perf finds it.
  uint64_t eh_addr = ip - (m.lowest_start - f->elf_base);
  *has_cfi = f->eh != nullptr;
  if (!*has_cfi) return nullptr;
  auto [it, added] = f->rules.try_emplace(eh_addr);
  if (!added) return it->second.get();
  Dwarf_Frame* frame = nullptr;
  if (dwarf_cfi_addrframe(f->eh, eh_addr, &frame) != 0) return nullptr;
  auto rule = std::make_unique<Rule>();
  bool signal = false;
  rule->ra = dwarf_frame_info(frame, nullptr, nullptr, &signal);
  rule->signal = signal;
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  bool ok = rule->ra >= 0 && rule->ra < kMaxRegs &&
            dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops > 0 &&
            nops <= kMaxOps;
  if (ok) {
    rule->cfa_first = 0;
    rule->cfa_count = static_cast<uint32_t>(nops);
    rule->ops.assign(ops, ops + nops);
    for (int r = 0; r < kMaxRegs; ++r) {
      Dwarf_Op mem[3];
      if (dwarf_frame_register(frame, r, mem, &ops, &nops) != 0) continue;
      Rule::Reg& reg = rule->regs[r];
      if (nops == 0) {
        reg.kind = ops == nullptr ? Rule::kSame : Rule::kUndefined;
      } else if (nops <= kMaxOps) {
        reg.kind = Rule::kExpr;
        reg.first = static_cast<uint32_t>(rule->ops.size());
        reg.count = static_cast<uint32_t>(nops);
        rule->ops.insert(rule->ops.end(), ops, ops + nops);
      } else {
        reg.kind = Rule::kUndefined;
      }
    }
  }
  std::free(frame);
  if (!ok) return nullptr;
  it->second = std::move(rule);
  return it->second.get();
}

// ---------------------------------------------------------------------------
// The walk. Registers are tracked as libunwind tracks them: where each one
// can be read (its value, or a memory address), read only when needed.

namespace {

struct Loc {
  enum Kind : uint8_t { kNull, kValue, kMemory } kind = kNull;
  uint64_t v = 0;
};

}  // namespace

struct DwarfUnwinder::State {
  uint64_t ip = 0, cfa = 0;
  bool use_prev = false;  // look the CFI up at ip - 1 (a return address)
  Loc locs[kMaxRegs];
};

DwarfUnwinder::DwarfUnwinder(const RegisterMap* arch, UnwindMaps* maps,
                             UnwindFiles* files)
    : arch_(arch), maps_(maps), files_(files) {}

bool DwarfUnwinder::ReadWord(uint64_t addr, uint64_t* value) {
  std::string_view stack = sample_->stack;
  // perf's access_mem: inside the copy unless the word reaches its end.
  if (addr >= sp_ && addr - sp_ < stack.size() &&
      stack.size() - (addr - sp_) > 8) {
    std::memcpy(value, stack.data() + (addr - sp_), 8);
    return true;
  }
  // Above the copy, on the stack still: the copy was too short.
  if (addr >= sp_ && addr - sp_ < (uint64_t{1} << 24)) read_past_copy_ = true;
  UnwindMapping m;
  if (!maps_->Find(addr, &m)) return false;
  *value = 0;  // what perf reads where the mapping's file has no such word
  if (m.file.empty()) return true;
  std::string_view bytes = files_->Bytes(m.file);
  uint64_t off = addr - m.start + m.pgoff;
  if (off <= bytes.size() && bytes.size() - off >= 8) {
    std::memcpy(value, bytes.data() + off, 8);
  }
  return true;
}

namespace {

// A CFI expression's evaluation over the registers of the frame below
// (`old`, where the stack pointer reads as that frame's CFA `old_cfa`),
// `cfa` standing for DW_OP_call_frame_cfa; `read` reads a word of memory.
template <typename Read>
class CfiExpression {
 public:
  CfiExpression(const Loc* old, uint64_t old_cfa, uint64_t cfa, int sp,
                const Read& read)
      : old_(old), old_cfa_(old_cfa), cfa_(cfa), sp_(sp), read_(read) {}

  // Evaluates ops [0, count). `*loc` is the result: a memory location, a
  // value (DW_OP_stack_value), or the location of a register (DW_OP_regN).
  bool Eval(const Dwarf_Op* ops, size_t count, Loc* loc) {
    bool value = false;
    for (size_t i = 0; i < count; ++i) {
      const Dwarf_Op& op = ops[i];
      const uint8_t a = op.atom;
      if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
        return RegisterLocation(a - DW_OP_reg0, count, loc);
      }
      if (a == DW_OP_regx) return RegisterLocation(op.number, count, loc);
      if (a == DW_OP_stack_value) {
        if (i + 1 != count) return false;
        value = true;
      } else if (!Apply(op)) {
        return false;
      }
    }
    if (n_ < 1) return false;
    *loc = Loc{value ? Loc::kValue : Loc::kMemory, stack_[n_ - 1]};
    return true;
  }

 private:
  // DW_OP_regN, DW_OP_regx: the whole expression is where register `r` is.
  bool RegisterLocation(uint64_t r, size_t count, Loc* loc) const {
    if (count != 1 || r >= kMaxRegs) return false;
    *loc = static_cast<int>(r) == sp_ ? Loc{Loc::kValue, old_cfa_} : old_[r];
    return true;
  }

  // The value of register `r` in the frame below.
  bool Register(uint64_t r, uint64_t* v) const {
    if (r >= kMaxRegs) return false;
    if (static_cast<int>(r) == sp_) {
      *v = old_cfa_;
      return true;
    }
    const Loc& l = old_[r];
    if (l.kind == Loc::kValue) {
      *v = l.v;
      return true;
    }
    return l.kind == Loc::kMemory && read_(l.v, v);
  }

  bool Push(uint64_t v) {
    if (n_ == kMaxDepth) return false;
    stack_[n_++] = v;
    return true;
  }

  // One op that pushes a value, works on the stack, or combines two.
  bool Apply(const Dwarf_Op& op) {
    const uint8_t a = op.atom;
    uint64_t v = 0;
    if (a >= DW_OP_lit0 && a <= DW_OP_lit31) return Push(a - DW_OP_lit0);
    if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
      return Register(a - DW_OP_breg0, &v) && Push(v + op.number);
    }
    switch (a) {
      case DW_OP_call_frame_cfa:
        return Push(cfa_);
      case DW_OP_bregx:
        return Register(op.number, &v) && Push(v + op.number2);
      case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u:
      case DW_OP_const2s: case DW_OP_const4u: case DW_OP_const4s:
      case DW_OP_const8u: case DW_OP_const8s: case DW_OP_constu:
      case DW_OP_consts: case DW_OP_addr:
        return Push(op.number);
      case DW_OP_nop:
        return true;
      case DW_OP_plus_uconst: case DW_OP_dup: case DW_OP_over:
      case DW_OP_drop: case DW_OP_swap: case DW_OP_deref: case DW_OP_neg:
      case DW_OP_not:
        return StackOp(op);
      default:
        return BinaryOp(a);
    }
  }

  // The ops on the top of the stack alone.
  bool StackOp(const Dwarf_Op& op) {
    uint64_t* top = n_ >= 1 ? &stack_[n_ - 1] : nullptr;
    switch (op.atom) {
      case DW_OP_plus_uconst:
        if (!top) return false;
        *top += op.number;
        return true;
      case DW_OP_dup:
        return top && Push(*top);
      case DW_OP_over:
        return n_ >= 2 && Push(stack_[n_ - 2]);
      case DW_OP_drop:
        if (!top) return false;
        --n_;
        return true;
      case DW_OP_swap:
        if (n_ < 2) return false;
        std::swap(stack_[n_ - 1], stack_[n_ - 2]);
        return true;
      case DW_OP_deref:
        return top && read_(*top, top);
      case DW_OP_neg:
        if (!top) return false;
        *top = 0 - *top;
        return true;
      case DW_OP_not:
        if (!top) return false;
        *top = ~*top;
        return true;
    }
    return false;
  }

  // The arithmetic and comparisons of the two values on top, into one.
  bool BinaryOp(uint8_t a) {
    if (n_ < 2) return false;
    uint64_t b = stack_[--n_], x = stack_[n_ - 1];
    int64_t sx = static_cast<int64_t>(x), sb = static_cast<int64_t>(b);
    switch (a) {
      case DW_OP_plus: x += b; break;
      case DW_OP_minus: x -= b; break;
      case DW_OP_mul: x *= b; break;
      case DW_OP_and: x &= b; break;
      case DW_OP_or: x |= b; break;
      case DW_OP_xor: x ^= b; break;
      case DW_OP_shl: x = b < 64 ? x << b : 0; break;
      case DW_OP_shr: x = b < 64 ? x >> b : 0; break;
      case DW_OP_shra:
        x = static_cast<uint64_t>(b < 64 ? sx >> b : (sx < 0 ? -1 : 0));
        break;
      case DW_OP_ge: x = sx >= sb; break;
      case DW_OP_gt: x = sx > sb; break;
      case DW_OP_le: x = sx <= sb; break;
      case DW_OP_lt: x = sx < sb; break;
      case DW_OP_eq: x = x == b; break;
      case DW_OP_ne: x = x != b; break;
      default: return false;  // not used by CFI we know of
    }
    stack_[n_ - 1] = x;
    return true;
  }

  const Loc* old_;
  uint64_t old_cfa_, cfa_;
  int sp_;
  const Read& read_;
  uint64_t stack_[kMaxDepth];
  size_t n_ = 0;
};

template <typename Read>
bool Eval(const Dwarf_Op* ops, size_t count, const Loc* old, uint64_t old_cfa,
          uint64_t cfa, int sp, const Read& read, Loc* loc) {
  return CfiExpression<Read>(old, old_cfa, cfa, sp, read).Eval(ops, count, loc);
}

// The value at `l`: held, or read from memory.
template <typename Read>
bool ValueAt(const Loc& l, const Read& read, uint64_t* v) {
  if (l.kind == Loc::kValue) {
    *v = l.v;
    return true;
  }
  return l.kind == Loc::kMemory && read(l.v, v);
}

// The caller's register locations by `rule`, whose CFA is `cfa`, from
// those of `s`: a register without a rule keeps its location, the return
// address column marked undefined ends the stack, and a rule that cannot
// be evaluated loses the register.
template <typename Read>
void CallerLocations(const UnwindFiles::Rule& rule, const Loc* old,
                     uint64_t old_cfa, uint64_t cfa, int sp, const Read& read,
                     Loc* locs) {
  const Dwarf_Op* ops = rule.ops.data();
  for (int r = 0; r < kMaxRegs; ++r) {
    const UnwindFiles::Rule::Reg& reg = rule.regs[r];
    locs[r] = old[r];
    if (reg.kind == UnwindFiles::Rule::kUndefined) {
      if (r == rule.ra) locs[r] = Loc{};  // the end of the stack
    } else if (reg.kind == UnwindFiles::Rule::kExpr && r != sp) {
      if (!Eval(ops + reg.first, reg.count, old, old_cfa, cfa, sp, read,
                &locs[r])) {
        locs[r] = Loc{};
      }
    }
  }
}

}  // namespace

// One step up, as libunwind's unw_step: 1 with the caller in `*s`, 0 at
// the end of the stack, -1 when it cannot go on.
int DwarfUnwinder::Step(State* s) {
  uint64_t look = s->use_prev ? s->ip - 1 : s->ip;
  const UnwindFiles::Rule* rule = RuleFor(look);
  if (no_cfi_) return -1;
  if (rule) return StepByRule(*rule, s);
  return StepWithoutRule(s);
}

// perf's find_proc_info fails (-EINVAL) where no mapping holds the
// address, or its object has no file or no CFI: libunwind then stops.
// Only where the object has CFI that does not cover the address (
// -UNW_ENOINFO) does it go on by the frame-pointer guess.
const UnwindFiles::Rule* DwarfUnwinder::RuleFor(uint64_t look) {
  const UnwindFiles::Rule* rule = nullptr;
  UnwindMapping m;
  bool has_cfi = false;
  if (maps_->Find(look, &m) && !m.file.empty()) {
    rule = files_->RuleAt(m, look, &has_cfi);
  }
  no_cfi_ = !has_cfi;
  guessed_ = has_cfi && rule == nullptr;
  return rule;
}

// The CFA, then the caller's registers and return address by the CFI.
int DwarfUnwinder::StepByRule(const UnwindFiles::Rule& rule, State* s) {
  auto read = [this](uint64_t addr, uint64_t* v) { return ReadWord(addr, v); };
  const int sp = arch_->dwarf_sp;
  Loc cfa_loc;
  if (!Eval(rule.ops.data() + rule.cfa_first, rule.cfa_count, s->locs, s->cfa,
            0, sp, read, &cfa_loc)) {
    return -1;
  }
  uint64_t cfa = cfa_loc.v;
  if (cfa_loc.kind != Loc::kMemory && cfa_loc.kind != Loc::kValue) {
    return -1;
  }
  Loc locs[kMaxRegs];
  CallerLocations(rule, s->locs, s->cfa, cfa, sp, read, locs);
  if (locs[rule.ra].kind == Loc::kNull) return 0;
  uint64_t ip = 0;
  if (!ValueAt(locs[rule.ra], read, &ip)) return -1;
  std::memcpy(s->locs, locs, sizeof locs);
  s->cfa = cfa;
  s->ip = ip;
  s->use_prev = true;
  return 1;
}

// No CFI: libunwind's x86-64 fallbacks (dwarf_fp is set for x86-64 only).
// First a PLT entry: nothing is pushed yet, so the return address is at
// the CFA and the caller's CFA 8 above it. The registers are kept, and
// libunwind leaves its use_prev_instr as it was (the CFI look-up failed),
// so `use_prev` too.
int DwarfUnwinder::StepWithoutRule(State* s) {
  int fp = arch_->dwarf_fp;
  if (fp < 0) return 0;
  if (AtPltEntry(s->ip)) {
    guessed_ = false;  // no guess: a PLT entry's frame is known
    uint64_t ip = 0;
    if (!ReadWord(s->cfa, &ip)) return -1;
    s->ip = ip;
    s->cfa += 8;
    return 1;
  }
  return StepByFramePointer(fp, s);
}

// A PLT entry, known by its bytes (jmp *GOT(%rip); push $n; jmp PLT0;
// libunwind's is_plt_entry, reading at the ip itself).
bool DwarfUnwinder::AtPltEntry(uint64_t ip) {
  uint64_t w0 = 0, w1 = 0;
  bool past_copy = read_past_copy_;  // code is read here, not the stack
  bool plt = ReadWord(ip, &w0) && ReadWord(ip + 8, &w1) &&
             (w0 & 0xffff) == 0x25ff && ((w0 >> 48) & 0xff) == 0x68 &&
             ((w1 >> 24) & 0xff) == 0xe9;
  read_past_copy_ = past_copy;
  return plt;
}

// Without a frame pointer's location, the walk ends; with one, the
// frame-pointer chain, when the frame pointer lies a little above the CFA.
int DwarfUnwinder::StepByFramePointer(int fp, State* s) {
  auto read = [this](uint64_t addr, uint64_t* v) { return ReadWord(addr, v); };
  if (s->locs[fp].kind == Loc::kNull) return 0;
  uint64_t rbp = 0, rbp1 = 0;
  if (!ValueAt(s->locs[fp], read, &rbp)) return -1;
  if (rbp == 0) return 0;
  if (!ReadWord(rbp, &rbp1) || rbp < s->cfa || rbp - s->cfa > 0x4000) {
    return 0;
  }
  uint64_t prev_ip = s->ip, prev_cfa = s->cfa;
  for (Loc& l : s->locs) l = Loc{};
  s->locs[fp] = Loc{Loc::kMemory, rbp};
  s->cfa += 16;
  s->use_prev = true;
  if (!ReadWord(rbp + 8, &s->ip)) return -1;
  if (s->ip == prev_ip && s->cfa == prev_cfa) return -1;
  return 1;
}

const char* UnwindStopName(UnwindStop stop) {
  switch (stop) {
    case UnwindStop::kNone: return "none";
    case UnwindStop::kNoCfi: return "no CFI in the object or no object";
    case UnwindStop::kGuessed: return "address without CFI (frame-pointer guess)";
    case UnwindStop::kStackCopy: return "stack copy too short";
    case UnwindStop::kUnreadable: return "register or memory not recoverable";
    case UnwindStop::kNoObject:
      return "no object of the process readable (no user frame)";
  }
  return "?";
}

UnwindResult DwarfUnwinder::Unwind(const UnwindSample& sample,
                                   size_t max_frames,
                                   std::vector<uint64_t>* ips) {
  ips->clear();
  UnwindResult result;
  uint64_t pc = 0, sp = 0;
  if (!sample.regs || max_frames == 0 ||
      !PerfRegister(sample.regs_mask, *sample.regs, arch_->perf_ip, &pc) ||
      !PerfRegister(sample.regs_mask, *sample.regs, arch_->perf_sp, &sp)) {
    return result;
  }
  ips->push_back(pc);
  if (sample.stack.empty()) {
    return {UnwindStop::kStackCopy, pc};
  }
  sample_ = &sample;
  sp_ = sp;
  State s;
  s.ip = pc;
  s.cfa = sp;
  for (const RegisterMap::Pair* p = arch_->pairs; p->perf >= 0; ++p) {
    uint64_t v = 0;
    if (p->dwarf < kMaxRegs &&
        PerfRegister(sample.regs_mask, *sample.regs, p->perf, &v)) {
      s.locs[p->dwarf] = Loc{Loc::kValue, v};
    }
  }
  // What is told: a read past the stack copy, else what ended the walk,
  // else the first frame-pointer guess.
  UnwindResult copy, guess;
  while (ips->size() < max_frames) {
    uint64_t at = ips->back();
    read_past_copy_ = false;
    int step = Step(&s);
    if (read_past_copy_ && copy.stop == UnwindStop::kNone) {
      copy = {UnwindStop::kStackCopy, at};
    }
    if (guessed_ && guess.stop == UnwindStop::kNone) {
      guess = {UnwindStop::kGuessed, at};
    }
    if (step < 0) {
      result = {no_cfi_ ? UnwindStop::kNoCfi : UnwindStop::kUnreadable, at};
    }
    if (step <= 0) break;
    // The caller resumes after its call: its frame is at ip - 1.
    ips->push_back(s.ip - 1);
  }
  if (copy.stop != UnwindStop::kNone) result = copy;
  if (result.stop == UnwindStop::kNone) result = guess;
  sample_ = nullptr;
  return result;
}

}  // namespace flamefold
