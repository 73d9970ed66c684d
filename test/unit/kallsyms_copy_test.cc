// KallsymsCopy: the build-id cache's copy of kallsyms stands in for the
// kernel's file only when it says the same thing now.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "symbols/kallsyms.h"
#include "symbols/kallsyms_copy.h"
#include "symbols/symbol_resolver.h"
#include "symbols/symbol_table.h"
#include "symbol_checks.h"
#include "temp_file.h"

namespace flamefold {
namespace {

// One ELF note as the kernel lays them out in /sys/kernel/notes.
std::string Note(uint32_t type, std::string name, std::string desc) {
  std::string out;
  uint32_t head[3] = {static_cast<uint32_t>(name.size()),
                      static_cast<uint32_t>(desc.size()), type};
  out.append(reinterpret_cast<const char*>(head), sizeof head);
  name.resize((name.size() + 3) & ~size_t{3}, '\0');
  desc.resize((desc.size() + 3) & ~size_t{3}, '\0');
  return out + name + desc;
}

const std::string kBuildId("\x6e\xcd\x6e\xc2\x1e\xc6\x94\x16\xe5\x0a"
                           "\x8a\xa6\x73\x7e\x50\x09\x01\xdd\xb4\x7a", 20);

TEST_CASE("the build id is the GNU build-id note among the kernel's notes") {
  // /sys/kernel/notes of a 6.x kernel: Xen and Linux notes around it.
  std::string notes = Note(6, std::string("Linux\0", 6), "\x01\x01\0\0") +
                      Note(3, std::string("GNU\0", 4), kBuildId) +
                      Note(6, std::string("Linux\0", 6), "\x01");
  CHECK(BuildIdFromNotes(notes) == kBuildId);
  CHECK(BuildIdFromNotes(Note(3, std::string("GNU\0", 4), kBuildId)) == kBuildId);
  // Type 3 under another name is not a build id.
  CHECK(BuildIdFromNotes(Note(3, std::string("Xen\0", 4), kBuildId)).empty());
  CHECK(BuildIdFromNotes("").empty());
  // Truncated anywhere: no build id, no read past the end.
  std::string one = Note(3, std::string("GNU\0", 4), kBuildId);
  for (size_t n = 0; n < one.size(); ++n) {
    CHECK(BuildIdFromNotes(one.substr(0, n)).empty());
  }
  // A size field near 2^32 does not wrap the bounds check.
  std::string huge = one;
  uint32_t big = 0xfffffffdu;
  std::memcpy(huge.data() + 4, &big, 4);
  CHECK(BuildIdFromNotes(huge).empty());
}

// The kernel's first symbols, more than the one page (4 KiB) of its
// first read.
const std::string kHead = [] {
  std::string head = "ffffffff81000000 T _stext\n";
  for (int i = 1; i < 200; ++i) {
    char line[64];
    std::snprintf(line, sizeof line, "ffffffff81%06x T kernel_fn_%d\n", i, i);
    head += line;
  }
  return head;
}();

// The module tables LoadKallsyms makes of `text`.
std::vector<KallsymsModule> ModulesOf(const std::string& text) {
  testing::TempFile file(text);
  SymbolTable core;
  std::vector<KallsymsModule> modules;
  std::string err;
  REQUIRE(LoadKallsyms(file.path, &core, &modules, &err));
  return modules;
}

// The tools map a kallsyms file (in_place); the library reads it. Either
// way the same tables, whose names stay valid as long as the tables do,
// moved included.
TEST_CASE("a kallsyms file mapped gives the tables it gives read") {
  const std::string text = std::string(kHead) +
                           "ffffffff81ffff00 D some_data\n"
                           "ffffffffc0a1b010 t ext4_fill_super\t[ext4]\n"
                           "ffffffffc0a1c000 T ext4_iget\t[ext4]\n";
  auto load = [&](bool in_place, SymbolTable* core,
                  std::vector<KallsymsModule>* modules) {
    testing::TempFile file(text);
    std::string err;
    REQUIRE(LoadKallsyms(file.path, core, modules, &err, in_place));
  };  // the file is gone: the mapping stays while the tables do
  SymbolTable read_core, mapped_core;
  std::vector<KallsymsModule> read_modules, mapped_modules;
  load(false, &read_core, &read_modules);
  load(true, &mapped_core, &mapped_modules);
  SymbolTable moved = std::move(mapped_core);
  std::vector<KallsymsModule> moved_modules = std::move(mapped_modules);
  REQUIRE(moved.size() == 200);  // the data symbol is not kept
  testing::CheckSameSymbols(moved, read_core);
  REQUIRE(moved_modules.size() == 1);
  REQUIRE(read_modules.size() == 1);
  CHECK(moved_modules[0].name == "ext4");
  REQUIRE(moved_modules[0].table.size() == 2);
  CHECK(moved_modules[0].table.symbols()[1].name == "ext4_iget");
  const Symbol* found = moved.Find(0xffffffff81000010);  // kernel_fn_16
  REQUIRE(found != nullptr);
  CHECK(found->name == "kernel_fn_16");
}

TEST_CASE("a copy is current with the same first page and the same modules") {
  std::string copy = std::string(kHead) +
                     "ffffffffc0a1b010 t ext4_fill_super\t[ext4]\n"
                     "ffffffffc0a1c000 T ext4_iget\t[ext4]\n"
                     "ffffffffc0b02000 t nft_do_chain\t[nf_tables]\n"
                     "ffffffffc0c00000 t bpf_prog_6deef7357e7b4530\t[bpf]\n"
                     "ffffffffc0d00000 t ftrace_trampoline\t[__builtin__ftrace]\n";
  std::vector<KallsymsModule> mods = ModulesOf(copy);
  std::string loaded =
      "ext4 1019904 1 - Live 0xffffffffc0a1b000\n"
      "nf_tables 348160 1 nft_chain_nat, Live 0xffffffffc0b02000 (E)\n";
  CHECK(KallsymsCopyIsCurrent(copy, mods, kHead, loaded));
  // The kernel's first read is compared, whatever its length.
  CHECK(KallsymsCopyIsCurrent(copy, mods, kHead.substr(0, 20),
                              loaded));
  SUBCASE("another load address or hidden addresses: not current") {
    CHECK_FALSE(KallsymsCopyIsCurrent(
        copy, mods, "ffffffff9a000000 T _stext\n", loaded));
    CHECK_FALSE(KallsymsCopyIsCurrent(
        copy, mods, "0000000000000000 T _stext\n", loaded));
    CHECK_FALSE(KallsymsCopyIsCurrent(copy, mods, "", loaded));
  }
  SUBCASE("a module unloaded, loaded or moved since the copy: not current") {
    CHECK_FALSE(KallsymsCopyIsCurrent(
        copy, mods, kHead, "ext4 1019904 1 - Live 0xffffffffc0a1b000\n"));
    CHECK_FALSE(KallsymsCopyIsCurrent(
        copy, mods, kHead,
        loaded + "xfs 2000000 0 - Live 0xffffffffc1000000\n"));
    CHECK_FALSE(KallsymsCopyIsCurrent(
        copy, mods, kHead,
        "ext4 1019904 1 - Live 0xffffffffc0e00000\n"
        "nf_tables 348160 1 nft_chain_nat, Live 0xffffffffc0b02000 (E)\n"));
    // ext4_iget at +0x1000 lies past a module of 0x1000 bytes.
    CHECK_FALSE(KallsymsCopyIsCurrent(
        copy, mods, kHead,
        "ext4 4096 1 - Live 0xffffffffc0a1b000\n"
        "nf_tables 348160 1 nft_chain_nat, Live 0xffffffffc0b02000 (E)\n"));
  }
  SUBCASE("a module being loaded or unloaded, or an unreadable line") {
    CHECK_FALSE(KallsymsCopyIsCurrent(
        copy, mods, kHead,
        "ext4 1019904 1 - Unloading 0xffffffffc0a1b000\n"
        "nf_tables 348160 1 nft_chain_nat, Live 0xffffffffc0b02000 (E)\n"));
    CHECK_FALSE(KallsymsCopyIsCurrent(
        copy, mods, kHead,
        "ext4 1019904 1 - Live ffffffffc0a1b000\n"
        "nf_tables 348160 1 nft_chain_nat, Live 0xffffffffc0b02000 (E)\n"));
    CHECK_FALSE(KallsymsCopyIsCurrent(copy, mods, kHead, "ext4 1019904\n"));
  }
  SUBCASE("BPF programs and trampolines are not modules") {
    std::string core_only = std::string(kHead) +
        "ffffffffc0c00000 t bpf_prog_1111111111111111\t[bpf]\n";
    CHECK(KallsymsCopyIsCurrent(core_only, ModulesOf(core_only), kHead, ""));
    CHECK_FALSE(KallsymsCopyIsCurrent(copy, mods, kHead, ""));
  }
}

// A kernel described by files in a directory of its own, with a build-id
// cache beside them; removed at the end.
class FakeKernel {
 public:
  FakeKernel() {
    char tmpl[] = "/tmp/ffkernelXXXXXX";
    dir_ = mkdtemp(tmpl);
    files_.kallsyms = dir_ + "/kallsyms";
    files_.modules = dir_ + "/modules";
    files_.notes = dir_ + "/notes";
    Write(files_.notes, Note(3, std::string("GNU\0", 4), kBuildId));
    copy_dir_ = dir_ + "/debug/[kernel.kallsyms]/" + BuildIdHex(kBuildId);
    mkdir((dir_ + "/debug").c_str(), 0755);
    mkdir((dir_ + "/debug/[kernel.kallsyms]").c_str(), 0755);
    mkdir(copy_dir_.c_str(), 0755);
  }
  ~FakeKernel() {
    for (const char* f : {"/kallsyms", "/modules", "/notes"}) {
      unlink((dir_ + f).c_str());
    }
    unlink((copy_dir_ + "/kallsyms").c_str());
    rmdir(copy_dir_.c_str());
    rmdir((dir_ + "/debug/[kernel.kallsyms]").c_str());
    rmdir((dir_ + "/debug").c_str());
    rmdir(dir_.c_str());
  }
  static void Write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  void Copy(const std::string& text) { Write(copy_dir_ + "/kallsyms", text); }
  const KernelFiles& files() const { return files_; }
  std::string debug_dir() const { return dir_ + "/debug"; }

  // The name of the kernel symbol at `addr`, loaded as the resolver does,
  // and whether it came from the copy.
  std::string Load(uint64_t addr, bool* from_copy) {
    SymbolTable core;
    std::vector<KallsymsModule> modules;
    std::string err;
    REQUIRE(LoadCurrentKallsyms(files_, debug_dir(), &core, &modules,
                                from_copy, &err));
    const Symbol* s = core.Find(addr);
    return s ? std::string(s->name) : "";
  }

 private:
  std::string dir_, copy_dir_;
  KernelFiles files_;
};

// The copy differs from the kernel's file past the first page only in
// these tests, so that which one was read shows in the names.
const char kKernelTail[] = "ffffffff81001000 T from_the_kernel\n";
const char kCopyTail[] = "ffffffff81001000 T from_the_copy\n";

TEST_CASE("the copy is read when it is current, else the kernel's file") {
  FakeKernel k;
  FakeKernel::Write(k.files().kallsyms, kHead + kKernelTail);
  bool from_copy = false;
  SUBCASE("no copy") {
    CHECK(k.Load(0xffffffff81001000, &from_copy) == "from_the_kernel");
    CHECK_FALSE(from_copy);
  }
  SUBCASE("a current copy and no modules") {
    k.Copy(kHead + kCopyTail);
    CHECK(k.Load(0xffffffff81001000, &from_copy) == "from_the_copy");
    CHECK(from_copy);
  }
  SUBCASE("a current copy with the loaded modules") {
    k.Copy(kHead + kCopyTail +
           "ffffffffc0a1b010 t ext4_fill_super\t[ext4]\n");
    FakeKernel::Write(k.files().modules,
                      "ext4 1019904 1 - Live 0xffffffffc0a1b000\n");
    CHECK(k.Load(0xffffffff81001000, &from_copy) == "from_the_copy");
    CHECK(from_copy);
  }
  SUBCASE("a copy from another boot (another load address)") {
    k.Copy("ffffffff9a000000 T _stext\n" + std::string(kCopyTail));
    CHECK(k.Load(0xffffffff81001000, &from_copy) == "from_the_kernel");
    CHECK_FALSE(from_copy);
  }
  SUBCASE("a copy without a module loaded since") {
    k.Copy(kHead + kCopyTail);
    FakeKernel::Write(k.files().modules,
                      "ext4 1019904 1 - Live 0xffffffffc0a1b000\n");
    CHECK(k.Load(0xffffffff81001000, &from_copy) == "from_the_kernel");
    CHECK_FALSE(from_copy);
  }
  SUBCASE("no notes: the kernel's build id is unknown") {
    k.Copy(kHead + kCopyTail);
    unlink(k.files().notes.c_str());
    CHECK(k.Load(0xffffffff81001000, &from_copy) == "from_the_kernel");
    CHECK_FALSE(from_copy);
  }
  SUBCASE("the resolver reads the copy for the kernel's symbols") {
    k.Copy(kHead + kCopyTail);
    SymbolOptions o;
    o.kernel = k.files();
    o.debug_dir = k.debug_dir();
    SymbolResolver r(o);
    CHECK(r.Name(r.Kernel(), 0xffffffff81001001) == "from_the_copy+0x1");
    CHECK(r.KallsymsFromCopy());
    // --kallsyms FILE is read as given.
    o.kallsyms = k.files().kallsyms;
    SymbolResolver given(o);
    CHECK(given.Name(given.Kernel(), 0xffffffff81001001) ==
          "from_the_kernel+0x1");
    CHECK_FALSE(given.KallsymsFromCopy());
  }
}

TEST_CASE("the kernel's file unreadable and no copy: an error") {
  KernelFiles files;
  files.kallsyms = "/nonexistent/kallsyms";
  files.notes = "/nonexistent/notes";
  SymbolTable core;
  std::vector<KallsymsModule> modules;
  bool from_copy = true;
  std::string err;
  CHECK_FALSE(LoadCurrentKallsyms(files, "/nonexistent", &core, &modules,
                                  &from_copy, &err));
  CHECK_FALSE(from_copy);
  CHECK(err.find("/nonexistent/kallsyms") != std::string::npos);
}

}  // namespace
}  // namespace flamefold
