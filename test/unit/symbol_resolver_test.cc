// SymbolResolver: DSOs load at their first use (Load), and their warnings
// come in that order.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "symbols/elf_symbols.h"
#include "symbols/own_vdso.h"
#include "symbols/symbol_resolver.h"
#include "symbols/symbol_table.h"

namespace flamefold {
namespace {

TEST_CASE("[vdso] without a build-id table entry is named from our own vDSO") {
  ElfInfo info;
  std::string err;
  REQUIRE(ReadElfInfo(OwnVdsoFile(), &info, &err));
  SymbolTable own;
  REQUIRE(LoadElfSymbols(OwnVdsoFile(), OwnVdsoFile(), &own, &err));
  uint64_t at = 0;
  for (const Symbol& s : own.symbols()) {
    if (s.name.find("clock_gettime") != std::string_view::npos) at = s.start;
  }
  REQUIRE(at != 0);
  SymbolOptions o;
  o.kallsyms = "/nonexistent";
  o.debug_dir = "/nonexistent";  // no build-id cache copy
  SymbolResolver r(o);
  // No build id recorded (perf record -z, -B), or the vDSO's own (from an
  // MMAP2 record of --buildid-mmap): named as perf script names it.
  CHECK(r.Name(r.OwnVdso(""), at).find("clock_gettime") != std::string::npos);
  CHECK(r.Name(r.OwnVdso(info.build_id), at).find("clock_gettime") !=
        std::string::npos);
  // Another build id: another kernel's vDSO, whose symbols are not these.
  CHECK(r.Name(r.OwnVdso(std::string(20, 'x')), at) == "[unknown]");
  // Named in the build-id table: only the build-id cache holds its copy.
  CHECK(r.Name(r.User("[vdso]", info.build_id), at) == "[unknown]");
  // Under --symfs perf looks for its copy there, and finds none.
  o.symfs = "/nonexistent-root";
  SymbolResolver under(o);
  CHECK(under.Name(under.OwnVdso(""), at) == "[unknown]");
}

// Warnings come in the order DSOs were first used, each once, whatever
// loads them (naming a frame, unwinding, the kernel map's first hit).
TEST_CASE("warnings come in the order DSOs were first loaded") {
  SymbolOptions o;
  o.kallsyms = "/nonexistent";
  SymbolResolver r(o);
  Dso* a = r.User("/nonexistent/liba.so", "");
  Dso* b = r.User("/nonexistent/libb.so", "");
  Dso* self = r.User("/proc/self/exe", "");
  CHECK(r.Name(b, 0x10) == "[unknown]");  // used first
  r.Load(self);  // no warning of its own
  CHECK(self->loaded);
  CHECK_FALSE(self->table.symbols().empty());
  r.Load(a);
  r.Load(b);  // again: nothing changes
  std::vector<std::string> w = r.warnings();
  REQUIRE(w.size() == 2);
  CHECK(w[0].find("/libb.so: no symbols found") != std::string::npos);
  CHECK(w[1].find("/liba.so: no symbols found") != std::string::npos);
  // A module's symbols come with the kernel's, whose warning stands for
  // both, once.
  Dso* module = r.Module("[ext4]");
  CHECK(r.Name(module, 0xffffffffa0000010) == "[unknown]");
  uint64_t start = 0, end = 0;
  CHECK_FALSE(r.KernelRange(&start, &end));
  w = r.warnings();
  REQUIRE(w.size() == 3);
  CHECK(w[2].find("/nonexistent") != std::string::npos);
  CHECK(w[2].find("kernel frames stay [unknown]") != std::string::npos);
}

}  // namespace
}  // namespace flamefold
