// DWARF call graphs: the register table, the unwinder over in-memory stacks
// (no CFI: libunwind's frame-pointer guess, the stack copy's bounds), and
// addr2line's records computed in-process (on the golden tests' binaries,
// found through $TESTDATA).
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <set>

#include "flamefold/dwarf_unwind.h"
#include "flamefold/frame_inliner.h"
#include "flamefold/source_lines.h"

namespace flamefold {
namespace {

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

// No file is mapped anywhere: no CFI, so every step is libunwind's guess
// from the frame pointer.
class NoMaps : public UnwindMaps {
 public:
  bool Find(uint64_t, UnwindMapping*) override { return false; }
};

struct FakeStack {
  static constexpr uint64_t kSp = 0x7000;
  std::string bytes = std::string(512, '\0');
  void Put(uint64_t addr, uint64_t v) {
    std::memcpy(&bytes[addr - kSp], &v, 8);
  }
};

std::vector<uint64_t> Walk(const FakeStack& st, uint64_t ip, uint64_t rbp,
                           size_t max_frames = 127) {
  const RegisterMap* x86 = RegisterMapFor("x86_64");
  NoMaps maps;
  UnwindFiles files;
  DwarfUnwinder u(x86, &maps, &files);
  std::vector<uint64_t> regs = {rbp, FakeStack::kSp, ip};
  UnwindSample s{(1u << 6) | (1u << 7) | (1u << 8), &regs, st.bytes};
  std::vector<uint64_t> ips;
  u.Unwind(s, max_frames, &ips);
  return ips;
}

TEST_CASE("without CFI, the frame-pointer chain, callers at ip - 1") {
  FakeStack st;
  // Two frames: [rbp] = caller's rbp, [rbp + 8] = return address.
  st.Put(0x7010, 0x7040);
  st.Put(0x7018, 0x401234);
  st.Put(0x7040, 0);  // the outermost frame: rbp 0 ends the chain
  st.Put(0x7048, 0x405678);
  CHECK(Walk(st, 0x400100, 0x7010) ==
        std::vector<uint64_t>{0x400100, 0x401233, 0x405677});
  // At most max_frames frames.
  CHECK(Walk(st, 0x400100, 0x7010, 2) ==
        std::vector<uint64_t>{0x400100, 0x401233});
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
  // The return address would be the copy's last word: perf refuses it.
  st.Put(last - 8, 0x7010);
  st.Put(last, 0x401234);
  CHECK(Walk(st, 0x400100, last - 8) == std::vector<uint64_t>{0x400100});
  // One word lower, it is read.
  FakeStack ok;
  ok.Put(last - 16, 0);
  ok.Put(last - 8, 0x401234);
  CHECK(Walk(ok, 0x400100, last - 16) ==
        std::vector<uint64_t>{0x400100, 0x401233});
  // A frame pointer past the copy: nothing is read there.
  CHECK(Walk(st, 0x400100, 0x7000 + 0x1000) ==
        std::vector<uint64_t>{0x400100});
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
  NoMaps maps;
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

std::string TestFile(const char* rel) {
  const char* dir = std::getenv("TESTDATA");
  REQUIRE_MESSAGE(dir != nullptr, "TESTDATA names testdata/ (meson sets it)");
  return std::string(dir) + "/" + rel;
}

TEST_CASE("addr2line's records: inlined function first, then its caller") {
  std::string lib = TestFile("perf-data/dwarf-shlib/root/tmp/ffdw/libtiny.so");
  SourceLines lines;
  // In tiny_hash, where rotl() was inlined (libtiny.c:7, called at :13).
  const SourceLookup* look = lines.Lookup(lib, 0x102a, false);
  REQUIRE(look != nullptr);
  CHECK(look->found);
  REQUIRE(look->records.size() == 2);
  CHECK(look->records[0].function == "rotl");
  CHECK(look->records[0].file == "/tmp/ffdw/libtiny.c");
  CHECK(look->records[0].line == 7);
  CHECK(look->records[1].function == "tiny_hash");
  CHECK(look->records[1].line == 13);
  CHECK(InlineChain(*look, false) == "tiny_hash;rotl");
  CHECK(InlineChain(*look, true) == "tiny_hash:libtiny.c:13;rotl:libtiny.c:7");
  // Cached: the same answer object.
  CHECK(lines.Lookup(lib, 0x102a, false) == look);
  // Outside every section: addr2line's "??" / "??:0".
  const SourceLookup* none = lines.Lookup(lib, 0x5000, false);
  REQUIRE(none != nullptr);
  CHECK_FALSE(none->found);
  CHECK(InlineChain(*none, false) == "??");
  CHECK(InlineChain(*none, true) == "??:??:0");
  // No such file: addr2line fails, nothing at all.
  CHECK(lines.Lookup(lib + ".missing", 0x102a, false) == nullptr);
}

TEST_CASE("--inline: the Perl script's chain, its fallbacks and its cache") {
  std::string root = TestFile("perf-data/dwarf-shlib/root");
  FrameInliner in(root, false);
  CHECK(in.Expand("102a", "tiny_hash+0x2a", "/tmp/ffdw/libtiny.so") ==
        "tiny_hash;rotl");
  // A missing file: "" (the frame is kept as it is).
  CHECK(in.Expand("102a", "x+0x2a", "/tmp/ffdw/none.so").empty());
  // An address addr2line knows nothing of: nm finds the function and the
  // offset is added to its address.
  CHECK(in.Expand("5000", "tiny_apply+0x10", "/tmp/ffdw/libtiny.so") ==
        "tiny_apply");
  CHECK(in.Expand("5008", "nosuchfunction+0x10", "/tmp/ffdw/libtiny.so") ==
        "??");
  // Cached per (address, module), as the Perl script caches: the symbol
  // is not part of the key.
  CHECK(in.Expand("5000", "nosuchfunction+0x10", "/tmp/ffdw/libtiny.so") ==
        "tiny_apply");
  FrameInliner ctx(root, true);
  CHECK(ctx.Expand("1040", "step", "/tmp/ffdw/shlib") == "step:shlib.c:12");
  CHECK(FrameInliner::Applies("/usr/lib/libc.so.6"));
  CHECK_FALSE(FrameInliner::Applies("[kernel.kallsyms]"));
  CHECK_FALSE(FrameInliner::Applies("[vdso]"));
  CHECK_FALSE(FrameInliner::Applies("/tmp/perf-1234.map"));
  CHECK_FALSE(FrameInliner::Applies("/lib/modules/kernel.ko"));
  CHECK(FrameInliner::Applies("[]"));  // \[[^\]]+\] needs a character
}

TEST_CASE("addr2line -C demangles with the parameters") {
  CHECK(DemangleFull("_ZN12_GLOBAL__N_13FibEi") ==
        "(anonymous namespace)::Fib(int)");
  CHECK(DemangleFull("main") == "main");
  CHECK(DemangleFull("_Z3foov@@VERS_1") == "foo()@@VERS_1");
  CHECK(DemangleFull("_Znot_mangled") == "_Znot_mangled");
}

}  // namespace
}  // namespace flamefold
