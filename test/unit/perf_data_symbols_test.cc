// Symbol tables, demangling and ELF reading behind perf.data folding.
#include <doctest/doctest.h>

#include "symbols/elf_symbols.h"
#include "symbols/symbol_resolver.h"
#include "symbols/symbol_demangle.h"
#include "symbols/symbol_table.h"

namespace flamefold {
namespace {

std::string NameAt(const SymbolTable& t, uint64_t addr) {
  const Symbol* s = t.Find(addr);
  return s ? std::string(s->name) : "-";
}

TEST_CASE("symbols without a size end at the next one") {
  SymbolTable t;
  t.Add(0x100, 0, "a", SymbolBinding::kGlobal);
  t.Add(0x200, 0x10, "b", SymbolBinding::kGlobal);
  t.Add(0x300, 0, "last", SymbolBinding::kGlobal);
  t.Finish(false);
  CHECK(NameAt(t, 0xff) == "-");
  CHECK(NameAt(t, 0x1ff) == "a");
  CHECK(NameAt(t, 0x20f) == "b");
  CHECK(NameAt(t, 0x210) == "-");
  CHECK(NameAt(t, 0x1fff) == "last");  // to the page after
  CHECK(NameAt(t, 0x2000) == "-");
}

TEST_CASE("of aliases, perf's choice is kept") {
  // glibc's write(): locals beat weak ones, then the longest name wins.
  SymbolTable t;
  t.Add(0x40, 157, "__GI___write", SymbolBinding::kLocal);
  t.Add(0x40, 157, "__GI___libc_write", SymbolBinding::kLocal);
  t.Add(0x40, 157, "__libc_write", SymbolBinding::kLocal);
  t.Add(0x40, 157, "write", SymbolBinding::kWeak);
  t.Finish(false);
  CHECK(NameAt(t, 0x50) == "__GI___libc_write");
  SymbolTable g;
  g.Add(0x40, 0, "zero_size_global", SymbolBinding::kGlobal);
  g.Add(0x40, 8, "_local", SymbolBinding::kLocal);
  g.Add(0x40, 8, "__global", SymbolBinding::kGlobal);
  g.Add(0x48, 8, "next", SymbolBinding::kGlobal);
  g.Finish(false);
  CHECK(NameAt(g, 0x40) == "__global");
}

TEST_CASE("overlapping symbols resolve as perf's tree walk finds them") {
  // Inserted in this order, perf's red-black tree has `func` at its root,
  // so an address in both `func` and the label inside it finds `func`.
  SymbolTable t;
  t.Add(0x0, 0x10, "first", SymbolBinding::kGlobal);
  t.Add(0x100, 0x100, "func", SymbolBinding::kGlobal);
  t.Add(0x140, 0, "label_in_func", SymbolBinding::kLocal);
  t.FinishAsPerfTree({});
  CHECK(NameAt(t, 0x150) == "func");
  CHECK(NameAt(t, 0x250) == "label_in_func");  // stretched to the end
  CHECK(NameAt(t, 0x8) == "first");
  CHECK(NameAt(t, 0x20) == "-");
  // PLT entries come after the clean-ups: a size-less one stays size-less.
  SymbolTable p;
  p.Add(0x1000, 0, "_init", SymbolBinding::kLocal);
  p.Add(0x3000, 0x10, "text", SymbolBinding::kGlobal);
  std::vector<Symbol> plt = {{0x1020, 0x1030, "a@plt"}, {0x1030, 0x1040, "b@plt"},
                             {0x2000, 0x2000, "zero@plt"}};
  p.FinishAsPerfTree(plt);
  CHECK(NameAt(p, 0x1010) == "_init");
  CHECK(NameAt(p, 0x1034) == "b@plt");
  CHECK(NameAt(p, 0x2000) == "-");  // in _init's stretched range, unreached
}

TEST_CASE("C++ names are demangled as perf script prints them") {
  CHECK(DemangleSymbol("main") == "main");
  CHECK(DemangleSymbol("_ZN2ns4leafEi") == "ns::leaf");
  CHECK(DemangleSymbol("_Z5tworkIlET_S0_") == "twork<long>");
  CHECK(DemangleSymbol("_Z3midi.cold") == "mid");
  CHECK(DemangleSymbol("_ZN3BoxIlE4spinEl") == "Box<long>::spin");
  CHECK(DemangleSymbol("_ZNKSt8functionIFllEEclEl") ==
        "std::function<long (long)>::operator()");
  CHECK(DemangleSymbol("_ZN12_GLOBAL__N_19anon_workEl") ==
        "(anonymous namespace)::anon_work");
  CHECK(DemangleSymbol("_ZNSt17_Function_handlerIFllEZ4mainEUllE_E9_M_invokeERKSt9_Any_dataOl") ==
        "std::_Function_handler<long (long), main::{lambda(long)#1}>::_M_invoke");
  CHECK(DemangleSymbol("_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc") ==
        "std::operator<< <std::char_traits<char> >");
  CHECK(DemangleSymbol("_ZN4core3fmt5write17h0123456789abcdefE") ==
        "core::fmt::write");
  CHECK(DemangleSymbol("_ZN4core3ptr23drop_in_place$LT$u8$GT$17h0123456789abcdefE") ==
        "core::ptr::drop_in_place<u8>");
  CHECK(DemangleSymbol("_Znotmangled") == "_Znotmangled");
  // Rust v0, as libiberty prints it without its verbose flag.
  CHECK(DemangleSymbol("_RNvMs0_NtNtNtNtCsll8UG4dV9RX_3std3sys4sync4once5futexNtB5_4Once4call") ==
        "<std::sys::sync::once::futex::Once>::call");
  CHECK(DemangleSymbol("_RNvNCNKNvNtNtCsll8UG4dV9RX_3std6thread9spawnhook11SPAWN_HOOKS0023___RUST_STD_INTERNAL_VAL") ==
        "std::thread::spawnhook::SPAWN_HOOKS::{K#0}::{closure#0}::__RUST_STD_INTERNAL_VAL");
  CHECK(DemangleSymbol("_RINvNtCscoScM8QT1vH_4core9panicking13assert_failedAhj4_RShECsll8UG4dV9RX_3std") ==
        "core::panicking::assert_failed::<[u8; 4], &[u8]>");
  // A name whose parameter types the full demangler rejects: perf, which
  // does not read them, still names it (as node's perf script shows).
  CHECK(DemangleSymbol(
      "_ZN2v88internal11StringShape33DispatchToSpecificTypeWithoutC"
      "astIZNS1_22DispatchToSpecificTypeIZNKS0_6String7GetImplEiNS0"
      "_16PtrComprCageBaseERKNS0_31SharedStringAccessGuardIfNeededE"
      "E19StringGetDispatchertJRiRS5_S8_EEET0_S4_DpOT1_E17CastingDi"
      "spatchertJRS4_SA_SB_S8_EEESC_SF_"
      ".isra.0") ==
      "v8::internal::StringShape::DispatchToSpecificTypeWithoutCast"
      "<v8::internal::StringShape::DispatchToSpecificType<v8::inter"
      "nal::String::GetImpl(int, v8::internal::PtrComprCageBase, v8"
      "::internal::SharedStringAccessGuardIfNeeded const&) const::S"
      "tringGetDispatcher, unsigned short, int&, v8::internal::PtrC"
      "omprCageBase&, v8::internal::SharedStringAccessGuardIfNeeded"
      " const&>(v8::internal::String, int&, v8::internal::PtrComprC"
      "ageBase&, v8::internal::SharedStringAccessGuardIfNeeded cons"
      "t&)::CastingDispatcher, unsigned short, v8::internal::String"
      "&, int&, v8::internal::PtrComprCageBase&, v8::internal::Shar"
      "edStringAccessGuardIfNeeded const&>");
  // Special names keep the parameters of what they stand for.
  CHECK(DemangleSymbol("_ZThn16_N4node15LibuvStreamWrap10DoTryWriteEPP8uv_buf_tPm") ==
        "non-virtual thunk to node::LibuvStreamWrap::DoTryWrite(uv_buf_t**, unsigned long*)");
}

TEST_CASE("ELF symbols of the test binary itself") {
  ElfInfo info;
  std::string err;
  REQUIRE(ReadElfInfo("/proc/self/exe", &info, &err));
  CHECK((info.has_symtab || info.has_dynsym));
  SymbolTable t;
  REQUIRE(LoadElfSymbols("/proc/self/exe", "/proc/self/exe", &t, &err));
  bool found_main = false;
  for (const Symbol& s : t.symbols()) found_main |= s.name == "main";
  CHECK(found_main);
  CHECK(!ReadElfInfo("/nonexistent", &info, &err));
  CHECK(err.find("/nonexistent") == 0);
}

TEST_CASE("preloaded DSOs name addresses as DSOs loaded on first use") {
  SymbolOptions o;
  o.kallsyms = "/nonexistent";
  SymbolResolver plain(o), pre(o);
  Dso* self = plain.User("/proc/self/exe", "");
  Dso* gone = plain.User("/nonexistent/libgone.so", "");
  Dso* pre_self = pre.User("/proc/self/exe", "");
  Dso* pre_gone = pre.User("/nonexistent/libgone.so", "");
  pre.Preload({pre_gone, pre_self});
  // Warnings wait for the first use, whatever the preloading has done.
  CHECK(pre.warnings().empty());
  plain.Prepare(self);
  uint64_t main_at = 0;
  for (const Symbol& s : self->table.symbols()) {
    if (s.name == "main") main_at = s.start;
  }
  REQUIRE(main_at != 0);
  CHECK(pre.Name(pre_self, main_at + 1) == plain.Name(self, main_at + 1));
  CHECK(pre.warnings().empty());
  CHECK(pre.Name(pre_gone, 0x10) == plain.Name(gone, 0x10));
  CHECK(pre.warnings() == plain.warnings());
  CHECK(pre.warnings().size() == 1);
}

TEST_CASE("perf's tree and the sorted symbols find the same symbols") {
  // Random tables, most without overlaps once finished (aliases at one
  // address, size-less symbols, PLT entries after), some with: each is
  // finished both ways and every address is looked up in both.
  uint64_t seed = 12345;
  auto rnd = [&](uint64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % n;
  };
  const char* names[] = {"a", "_b", "__c", "dd", "e", "_ff", "ggg", "h"};
  int sorted_tables = 0;
  for (int round = 0; round < 400; ++round) {
    SymbolTable tree, sorted;
    uint64_t at = 0x1000;
    int n = 1 + static_cast<int>(rnd(40));
    bool overlaps = rnd(4) == 0;
    for (int i = 0; i < n; ++i) {
      uint64_t gap = rnd(3) == 0 ? 0 : 1 + rnd(32);  // 0: an alias
      at += gap;
      uint64_t size = rnd(3) == 0 ? 0 : 1 + rnd(overlaps ? 64 : gap + 1);
      auto binding = static_cast<SymbolBinding>(rnd(3));
      const char* name = names[rnd(8)];
      tree.Add(at, size, name, binding);
      sorted.Add(at, size, name, binding);
    }
    std::vector<Symbol> late;
    for (int i = static_cast<int>(rnd(3)); i > 0; --i) {
      uint64_t start = 0x1000 + rnd(at - 0x1000 + 64);
      late.push_back(Symbol{start, start + rnd(16), "p@plt"});
    }
    tree.FinishAsPerfTree(late, false);
    sorted.FinishAsPerfTree(late, true);
    // The sorted way drops aliases from the table; the tree only unlinks
    // them: tables where the two differ in size took the sorted way.
    sorted_tables += sorted.size() != tree.size();
    for (uint64_t addr = 0xff0; addr < at + 0x1100; ++addr) {
      REQUIRE(NameAt(sorted, addr) == NameAt(tree, addr));
    }
  }
  CHECK(sorted_tables > 20);
}

}  // namespace
}  // namespace flamefold
