// SymbolResolver: DSOs preloaded on threads name addresses exactly as DSOs
// loaded on first use, with the same warnings at the same time.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "symbols/elf_symbols.h"
#include "symbols/own_vdso.h"
#include "symbols/symbol_resolver.h"
#include "symbols/symbol_table.h"

namespace flamefold {
namespace {

SymbolOptions NoKernel() {
  SymbolOptions o;
  o.kallsyms = "/nonexistent";
  return o;
}

// That `self` (this program) and `gone` (no file) of `r`, loaded however
// `r` loads them, name addresses and warn as DSOs loaded on first use.
void CheckNamedAsLoadedOnFirstUse(SymbolResolver* r, Dso* self, Dso* gone) {
  SymbolResolver plain(NoKernel());
  Dso* plain_self = plain.User("/proc/self/exe", "");
  Dso* plain_gone = plain.User("/nonexistent/libgone.so", "");
  plain.Prepare(plain_self);
  uint64_t main_at = 0;
  for (const Symbol& s : plain_self->table.symbols()) {
    if (s.name == "main") main_at = s.start;
  }
  REQUIRE(main_at != 0);
  CHECK(r->Name(self, main_at + 1) == plain.Name(plain_self, main_at + 1));
  CHECK(r->warnings().empty());
  CHECK(r->Name(gone, 0x10) == plain.Name(plain_gone, 0x10));
  CHECK(r->warnings() == plain.warnings());
  CHECK(r->warnings().size() == 1);
}

TEST_CASE("preloaded DSOs name addresses as DSOs loaded on first use") {
  SymbolResolver pre(NoKernel());
  Dso* pre_self = pre.User("/proc/self/exe", "");
  Dso* pre_gone = pre.User("/nonexistent/libgone.so", "");
  pre.Preload({pre_gone, pre_self});
  // Warnings wait for the first use, whatever the preloading has done.
  CHECK(pre.warnings().empty());
  CheckNamedAsLoadedOnFirstUse(&pre, pre_self, pre_gone);
}

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

TEST_CASE("a replay may ask, without waiting, what preloading has left") {
  SymbolOptions o;
  o.kallsyms = "/nonexistent";
  SymbolResolver r(o);
  Dso* self = r.User("/proc/self/exe", "");
  Dso* gone = r.User("/nonexistent/libgone.so", "");
  Dso* other = r.User("/nonexistent/libother.so", "");
  CHECK_FALSE(r.Preloading());
  CHECK_FALSE(r.LoadingAhead(self));  // nothing preloads
  CHECK_FALSE(r.KernelPending());     // nor reads the kernel's symbols
  r.Preload({self, gone});
  r.HelpPreload();  // what the thread has not begun is loaded here
  r.AwaitLoaded(self);
  r.AwaitLoaded(gone);
  CHECK_FALSE(r.LoadingAhead(self));  // loaded
  CHECK_FALSE(r.LoadingAhead(other));  // not in the list
  CHECK(self->load_state.load() == Dso::kLoaded);
  CHECK(gone->load_state.load() == Dso::kLoaded);
  CHECK(other->load_state.load() == Dso::kIdle);
  CHECK(r.warnings().empty());  // none used yet
}

TEST_CASE("a DSO handed to LoadSoon names addresses as one loaded on first use") {
  SymbolResolver soon(NoKernel());
  Dso* soon_self = soon.User("/proc/self/exe", "");
  Dso* soon_gone = soon.User("/nonexistent/libgone.so", "");
  soon.LoadSoon(soon_gone);
  soon.LoadSoon(soon_self);
  soon.LoadSoon(soon_self);  // once is enough
  soon.LoadSoon(soon.Kernel());  // user DSOs only
  CHECK(soon.loaded_soon() == 2);
  // No warning before the first use, whoever loads.
  soon.AwaitLoaded(soon_self);
  soon.AwaitLoaded(soon_gone);
  CHECK(soon.warnings().empty());
  CheckNamedAsLoadedOnFirstUse(&soon, soon_self, soon_gone);
  // Loaded (or begun) elsewhere first: not handed over.
  SymbolResolver late(NoKernel());
  Dso* a = late.User("/nonexistent/liba.so", "");
  Dso* b = late.User("/proc/self/exe", "");
  late.Prepare(a);
  late.LoadSoon(a);
  late.LoadSoon(b);
  late.AwaitLoaded(b);  // here, unless its thread has begun
  CHECK(late.loaded_soon() == 1);
  CHECK(b->load_state.load() == Dso::kLoaded);
}

// A replay that names some frames later than it meets them gives the DSOs'
// warnings in the order it first met them, not the order the loading threads
// finish.
TEST_CASE("warnings come in the order DSOs were first met, not loaded") {
  SymbolOptions o;
  o.kallsyms = "/nonexistent";
  SymbolResolver r(o);
  Dso* a = r.User("/nonexistent/liba.so", "");
  Dso* b = r.User("/nonexistent/libb.so", "");
  r.Touch(b);  // met first, named later
  r.Prepare(a);
  r.Prepare(b);
  r.Touch(a);  // again: nothing changes
  std::vector<std::string> w = r.warnings();
  REQUIRE(w.size() == 2);
  CHECK(w[0].find("libb.so") != std::string::npos);
  CHECK(w[1].find("liba.so") != std::string::npos);
  // The kernel's warning comes where the kernel was first met.
  r.Touch(r.Kernel());
  CHECK(r.warnings().size() == 2);  // not read yet: nothing to say
  uint64_t start = 0, end = 0;
  CHECK_FALSE(r.KernelRange(&start, &end));
  w = r.warnings();
  REQUIRE(w.size() == 3);
  CHECK(w[2].find("kallsyms") != std::string::npos);
}

}  // namespace
}  // namespace flamefold
