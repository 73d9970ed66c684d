// DWARF call graphs: the register table, the unwinder over in-memory stacks
// (libunwind's frame-pointer guess, where a walk ends and why, the stack
// copy's bounds).
#include <doctest/doctest.h>

#include <cstring>
#include <set>

#include "perfdata/dwarf_unwind.h"
#include "test_inputs.h"

namespace flamefold {
namespace {

using testing::TestFile;

TEST_CASE("register table: perf's x86-64 registers to DWARF numbers") {
  const RegisterMap* m = RegisterMapFor("x86_64");
  REQUIRE(m != nullptr);
  CHECK(m->perf_ip == 8);
  CHECK(m->perf_sp == 7);
  CHECK(m->dwarf_sp == 7);
  CHECK(m->dwarf_fp == 6);
  std::set<int> dwarf, perf;
  int to_dwarf[24];
  std::memset(to_dwarf, -1, sizeof to_dwarf);
  for (const RegisterMap::Pair* p = m->pairs; p->perf >= 0; ++p) {
    CHECK(dwarf.insert(p->dwarf).second);  // each DWARF number once
    CHECK(perf.insert(p->perf).second);
    to_dwarf[p->perf] = p->dwarf;
  }
  CHECK(dwarf.size() == 17);  // rax..r15 and the return address column
  CHECK(to_dwarf[0] == 0);    // ax
  CHECK(to_dwarf[1] == 3);    // bx
  CHECK(to_dwarf[2] == 2);    // cx
  CHECK(to_dwarf[3] == 1);    // dx
  CHECK(to_dwarf[8] == 16);   // ip: the return address column
  CHECK(to_dwarf[16] == 8);   // r8
  CHECK(to_dwarf[23] == 15);  // r15
  CHECK(to_dwarf[9] == -1);   // flags: not unwound
  REQUIRE(RegisterMapFor("aarch64") != nullptr);
  CHECK(RegisterMapFor("aarch64")->perf_ip == 32);
  CHECK(RegisterMapFor("sparc") == nullptr);
}

TEST_CASE("sample registers come in the order of the mask's bits") {
  std::vector<uint64_t> regs = {10, 20, 30};
  uint64_t mask = (1u << 1) | (1u << 6) | (1u << 8);  // bx bp ip
  uint64_t v = 0;
  CHECK((PerfRegister(mask, regs, 1, &v) && v == 10));
  CHECK((PerfRegister(mask, regs, 6, &v) && v == 20));
  CHECK((PerfRegister(mask, regs, 8, &v) && v == 30));
  CHECK_FALSE(PerfRegister(mask, regs, 7, &v));   // not recorded
  CHECK_FALSE(PerfRegister(mask, regs, 64, &v));  // no such register
  std::vector<uint64_t> short_regs = {10};        // fewer than the mask says
  CHECK_FALSE(PerfRegister(mask, short_regs, 8, &v));
}

// Code at 0x400000-0x500000 is a shared object whose CFI covers none of
// it (placed as if a lower mapping of the same object existed: lowest
// start 0), so every step there is libunwind's frame-pointer guess; the
// stack at 0x7000 is mapped without a file; nothing else is mapped. The
// object is libtiny.so unless another file is named.
class GuessMaps : public UnwindMaps {
 public:
  explicit GuessMaps(
      const char* file = "perf-data/dwarf-shlib/root/tmp/ffdw/libtiny.so")
      : file_(TestFile(file)) {}
  bool Find(uint64_t addr, UnwindMapping* out) override {
    *out = UnwindMapping{};
    if (addr >= 0x400000 && addr < 0x500000) {
      out->start = 0x400000;
      out->end = 0x500000;
      out->file = file_;
      return true;
    }
    if (addr >= 0x7000 && addr < 0x9000) {
      out->start = 0x7000;
      out->end = 0x9000;
      return true;
    }
    return false;
  }

 private:
  std::string file_;
};

struct FakeStack {
  static constexpr uint64_t kSp = 0x7000;
  std::string bytes = std::string(512, '\0');
  void Put(uint64_t addr, uint64_t v) {
    std::memcpy(&bytes[addr - kSp], &v, 8);
  }
};

std::vector<uint64_t> WalkIn(UnwindMaps* maps, const FakeStack& st,
                             uint64_t ip, uint64_t rbp,
                             size_t max_frames = 127,
                             UnwindResult* result = nullptr) {
  const RegisterMap* x86 = RegisterMapFor("x86_64");
  UnwindFiles files;
  DwarfUnwinder u(x86, maps, &files);
  std::vector<uint64_t> regs = {rbp, FakeStack::kSp, ip};
  UnwindSample s{(1u << 6) | (1u << 7) | (1u << 8), &regs, st.bytes};
  std::vector<uint64_t> ips;
  UnwindResult r = u.Unwind(s, max_frames, &ips);
  if (result) *result = r;
  return ips;
}

std::vector<uint64_t> Walk(const FakeStack& st, uint64_t ip, uint64_t rbp,
                           size_t max_frames = 127,
                           UnwindResult* result = nullptr) {
  GuessMaps maps;
  return WalkIn(&maps, st, ip, rbp, max_frames, result);
}

TEST_CASE("without CFI, the frame-pointer chain, callers at ip - 1") {
  FakeStack st;
  // Two frames: [rbp] = caller's rbp, [rbp + 8] = return address.
  st.Put(0x7010, 0x7040);
  st.Put(0x7018, 0x401234);
  st.Put(0x7040, 0);  // the outermost frame: rbp 0 ends the chain
  st.Put(0x7048, 0x405678);
  UnwindResult r;
  CHECK(Walk(st, 0x400100, 0x7010, 127, &r) ==
        std::vector<uint64_t>{0x400100, 0x401233, 0x405677});
  CHECK(r.stop == UnwindStop::kGuessed);  // said, never silent
  CHECK(r.where == 0x400100);
  // At most max_frames frames.
  CHECK(Walk(st, 0x400100, 0x7010, 2) ==
        std::vector<uint64_t>{0x400100, 0x401233});
}

// The executable `shlib` mapped at 0x400000 by GuessMaps: its CFI (which
// covers its .plt) placed at 0, so none of it is found, as for an object
// whose stale mapping from before an exec lies lower. Its .plt entry
// tiny_apply@plt is at 0x1010 (jmp *GOT(%rip) at 0x1010, push $0 at
// 0x1016, jmp PLT0 at 0x101b).
constexpr const char* kPltExe = "perf-data/dwarf-shlib/root/tmp/ffdw/shlib";

TEST_CASE("without CFI, at a PLT entry the caller is at [rsp], as libunwind") {
  // Sampled on the first byte of a PLT entry: the call pushed the return
  // address, the stub nothing; libunwind knows the entry by its bytes.
  // The frame pointer is no help (0 would end the guess at once).
  FakeStack st;
  st.Put(0x7000, 0x601234);  // unmapped: the walk ends there
  GuessMaps maps(kPltExe);
  UnwindResult r;
  CHECK(WalkIn(&maps, st, 0x401010, 0, 127, &r) ==
        std::vector<uint64_t>{0x401010, 0x601233});
  CHECK(r.stop == UnwindStop::kNoCfi);  // not the guess: the frame is known
  CHECK(r.where == 0x601233);
  // The same one frame up: a PLT entry reached as a return address (its
  // bytes read at the address itself, not at the address - 1 the CFI is
  // looked up at), the CFA the one the frame-pointer guess left (16 above
  // the stack pointer).
  FakeStack up;
  up.Put(0x7000, 0x7040);    // [rbp]: the caller's rbp
  up.Put(0x7008, 0x401010);  // [rbp + 8]: "returns" to the PLT entry
  up.Put(0x7010, 0x601234);  // the PLT entry's caller
  CHECK(WalkIn(&maps, up, 0x400100, 0x7000) ==
        std::vector<uint64_t>{0x400100, 0x40100f, 0x601233});
  // Anywhere else in the entry, its bytes do not match: the guess.
  CHECK(WalkIn(&maps, st, 0x401016, 0) == std::vector<uint64_t>{0x401016});
  CHECK(WalkIn(&maps, st, 0x40101b, 0) == std::vector<uint64_t>{0x40101b});
}

TEST_CASE("the guess is refused when the frame pointer is off the stack") {
  FakeStack st;
  // Below the CFA (the stack pointer): not a frame of a caller.
  CHECK(Walk(st, 0x400100, 0x6ff0) == std::vector<uint64_t>{0x400100});
  // Far above it (more than 16 KB): refused too.
  CHECK(Walk(st, 0x400100, 0x7000 + 0x5000) ==
        std::vector<uint64_t>{0x400100});
  // rbp 0: the end.
  CHECK(Walk(st, 0x400100, 0) == std::vector<uint64_t>{0x400100});
}

TEST_CASE("reads stay inside the stack copy, its last word excluded") {
  FakeStack st;
  uint64_t last = FakeStack::kSp + st.bytes.size() - 8;
  // The return address would be the copy's last word: perf refuses it,
  // and reads the mapped stack there as 0 (see below).
  st.Put(last - 8, 0x7010);
  st.Put(last, 0x401234);
  CHECK(Walk(st, 0x400100, last - 8) ==
        std::vector<uint64_t>{0x400100, ~uint64_t{0}});
  // One word lower, it is read.
  FakeStack ok;
  ok.Put(last - 16, 0);
  ok.Put(last - 8, 0x401234);
  CHECK(Walk(ok, 0x400100, last - 16) ==
        std::vector<uint64_t>{0x400100, 0x401233});
  // A frame pointer past the copy, on the stack: 0 is read there.
  CHECK(Walk(st, 0x400100, 0x7000 + 0x1000) ==
        std::vector<uint64_t>{0x400100, ~uint64_t{0}});
  // Past the stack's mapping: nothing is read, the walk ends.
  CHECK(Walk(st, 0x400100, 0x7000 + 0x2000) ==
        std::vector<uint64_t>{0x400100});
}

TEST_CASE("past the copy, a mapped stack reads as 0, as in perf") {
  // The return address lies past the copy, on the mapped stack: perf's
  // access_mem gives 0 and libunwind takes it, so the last frame is
  // 0 - 1; the walk ends there (no mapping at 0).
  FakeStack st;
  uint64_t end = FakeStack::kSp + st.bytes.size();
  st.Put(end - 24, end);  // rbp: the next frame starts at the copy's end
  st.Put(end - 16, 0x401234);
  UnwindResult r;
  CHECK(Walk(st, 0x400100, end - 24, 127, &r) ==
        std::vector<uint64_t>{0x400100, 0x401233, ~uint64_t{0}});
  CHECK(r.stop == UnwindStop::kStackCopy);
  CHECK(r.where == 0x401233);
}

TEST_CASE("where no mapping holds the address, the walk ends at once") {
  FakeStack st;
  st.Put(0x7010, 0);
  st.Put(0x7018, 0x401234);
  UnwindResult r;
  // perf's find_proc_info fails there, and libunwind makes no guess.
  CHECK(Walk(st, 0x600000, 0x7010, 127, &r) ==
        std::vector<uint64_t>{0x600000});
  CHECK(r.stop == UnwindStop::kNoCfi);
  CHECK(r.where == 0x600000);
  // The same on a mapping without a file (anonymous memory, a JIT).
  CHECK(Walk(st, 0x7100, 0x7010, 127, &r) == std::vector<uint64_t>{0x7100});
  CHECK(r.stop == UnwindStop::kNoCfi);
}

TEST_CASE("a frame-pointer loop ends: the CFA moves up at each guess") {
  FakeStack st;
  st.Put(0x7010, 0x7010);  // points to itself
  st.Put(0x7018, 0x401234);
  std::vector<uint64_t> ips = Walk(st, 0x400100, 0x7010);
  CHECK(ips.size() >= 2);
  CHECK(ips.size() < 10);
}

TEST_CASE("a sample without PC or SP gives no frame") {
  const RegisterMap* x86 = RegisterMapFor("x86_64");
  GuessMaps maps;
  UnwindFiles files;
  DwarfUnwinder u(x86, &maps, &files);
  std::vector<uint64_t> regs = {0x400100};
  UnwindSample s{1u << 8, &regs, "stack"};
  std::vector<uint64_t> ips = {1, 2};
  u.Unwind(s, 127, &ips);
  CHECK(ips.empty());
  // With the registers but no stack copy: the PC alone.
  std::vector<uint64_t> both = {0x7000, 0x400100};
  UnwindSample no_stack{(1u << 7) | (1u << 8), &both, ""};
  u.Unwind(no_stack, 127, &ips);
  CHECK(ips == std::vector<uint64_t>{0x400100});
}

}  // namespace
}  // namespace flamefold
