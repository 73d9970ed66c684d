// DemangleSymbol: names as perf script prints them (C++ without parameter
// lists or return types, Rust without hashes).
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "symbols/symbol_demangle.h"

namespace flamefold {
namespace {

// Legacy Rust names as perf 6.1 on Debian prints them (libiberty's Rust
// demangler, tried before the C++ one): each expected name is what perf
// script printed for a program whose functions were renamed to these
// symbols, or for a program built by rustc. Identifiers holding '.'
// ("vtable.shim", "std..rt"), a leading '_' before an escape, general
// "$uXX$" escapes, a ".llvm." suffix, and a hash of fewer than 5 distinct
// digits, which makes the name C++'s (hash kept).
TEST_CASE("legacy Rust names are demangled as perf script prints them") {
  CHECK(DemangleSymbol("_ZN44_$LT$$RF$T$u20$as$u20$core..fmt..Display$GT$3fmt17h70f58904dba41eccE") ==
        "<&T as core::fmt::Display>::fmt");
  CHECK(DemangleSymbol("_ZN48_$LT$$u5b$T$u5d$$u20$as$u20$core..fmt..Debug$GT$3fmt17hff9243a8f506b409E") ==
        "<[T] as core::fmt::Debug>::fmt");
  CHECK(DemangleSymbol("_ZN70_$LT$alloc..vec..Vec$LT$T$C$A$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17ha4c123b1612dd272E") ==
        "<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop");
  CHECK(DemangleSymbol("_ZN1a4b..c7d$u2b$e6f$BP$g6h$SP$i17h4d6608697a8d41beE") ==
        "a::b::c::d+e::f*g::h@i");
  CHECK(DemangleSymbol("_ZN4core3ops8function6FnOnce40call_once$u7b$$u7b$vtable.shim$u7d$$u7d$17hc255404e4fb44003E") ==
        "core::ops::function::FnOnce::call_once{{vtable.shim}}");
  CHECK(DemangleSymbol("_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$..$u7b$$u7b$closure$u7d$$u7d$$GT$17hd1371c17149d4395E") ==
        "core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}>");
  CHECK(DemangleSymbol("_ZN3foo3Bar3baz28_$u7b$$u7b$closure$u7d$$u7d$28_$u7b$$u7b$closure$u7d$$u7d$17h729fae923d5a4fd1E") ==
        "foo::Bar::baz::{{closure}}::{{closure}}");
  CHECK(DemangleSymbol("_ZN4core3fmt5Write9write_fmt17h2aabfe228f219e9cE.llvm.12345") ==
        "core::fmt::Write::write_fmt");
  CHECK(DemangleSymbol("_ZN3foo3bar17h1111111111aaaaaaE") ==
        "foo::bar::h1111111111aaaaaa");
  CHECK(DemangleSymbol("_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$..$u7b$$u7b$closure$u7d$$u7d$$GT$17h1111111111111111E") ==
        "core::ptr::drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$..$u7b$$u7b$closure$u7d$$u7d$$GT$::h1111111111111111");
  // An escape it does not know is printed from there on as it stands.
  CHECK(DemangleSymbol("_ZN3foo10a$XY$b$C$c17h0123456789abcdefE") ==
        "foo::a$XY$b$C$c");
}

// Cut and altered names (lengths past the end, escapes cut short, digits
// where letters were, a signature's punctuation moved): any answer, read
// within the name (the sanitizer runs of the suite check that), never a
// crash.
TEST_CASE("cut and altered Rust, OCaml and Java names are read within their bytes") {
  const std::string bases[] = {
      "_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$.."
      "$u7b$$u7b$closure$u7d$$u7d$$GT$17hd1371c17149d4395E.llvm.1",
      "camlStdlib__anon_fn$5bstdlib$2eml$3a334$2c0$2d$2d54$5d_1453",
      "Lpkg/C;m([Ljava/lang/String;[[JZZZZZZZZZZZZZZ)V"};
  std::mt19937 rng(5);
  const char alphabet[] = "0123456789$._EhuLTC7;/()[ZJ";
  for (int i = 0; i < 6000; ++i) {
    const std::string& base = bases[i % 3];
    std::string name = base.substr(0, rng() % (base.size() + 1));
    for (int k = rng() % 4; k > 0 && !name.empty(); --k) {
      name[rng() % name.size()] = alphabet[rng() % (sizeof alphabet - 1)];
    }
    CHECK_NOTHROW(DemangleSymbol(name));
  }
}

// perf's OCaml and Java demanglers, tried on a name that is neither C++
// nor Rust. Each expected name is what perf script printed for a program
// whose functions were renamed to these symbols: Java signatures as JVMTI's
// jitdump writes them (perf's own quirks included: an array's '[' before a
// class type carried to the next base type, the output cut at three bytes
// a byte of the name, a walk that fails leaving the name as it is).
TEST_CASE("OCaml and Java names are demangled as perf script prints them") {
  CHECK(DemangleSymbol("Lpkg/C;m([Ljava/lang/String;[[J)V") ==
        "pkg.C.m(java.lang.String, long[][][])");
  CHECK(DemangleSymbol("Lpkg/C;n(ZBCDFS)Z") ==
        "pkg.C.n(boolean, byte, char, double, float, short)");
  CHECK(DemangleSymbol("Lpkg/C;v(V)V") ==
        "pkg.C.v(void)");
  CHECK(DemangleSymbol("foo(I)V") ==
        "foo(I)V");
  CHECK(DemangleSymbol("Lpkg/C;noclose(I") ==
        "Lpkg/C;noclose(I");
  CHECK(DemangleSymbol("Lpkg/C;getLength()I") ==
        "pkg.C.getLength()");
  CHECK(DemangleSymbol("Lpkg/MyList;f()V") ==
        "pkg.MyList.f()");
  CHECK(DemangleSymbol("Lpkg/C;o(ZZZZZZZZZZZZ)V") ==
        "pkg.C.o(boolean, boolean, boolean, boolean, boolean, boolean, boolean");
  CHECK(DemangleSymbol("Lp;x()V") ==
        "p.x()");
  CHECK(DemangleSymbol("La/b;c;d()V") ==
        "La/b;c;d()V");
  CHECK(DemangleSymbol("Lpkg/C;m(Lq;)V;extra)V") ==
        "Lpkg/C;m(Lq;)V;extra)V");
  CHECK(DemangleSymbol("camlA$00B") ==
        "A");
  CHECK(DemangleSymbol("camlA$4") ==
        "A$4");
  CHECK(DemangleSymbol("Lpkg/C;[bad()V") ==
        "Lpkg/C;[bad()V");
  CHECK(DemangleSymbol("Lpkg/C;m(I)(J)V") ==
        "Lpkg/C;m(I)(J)V");
  CHECK(DemangleSymbol("L;()V") ==
        "()");
  CHECK(DemangleSymbol("camlStdlib__List__map_270") == "Stdlib.List.map_270");
  CHECK(DemangleSymbol("camlStdlib__anon_fn$5bstdlib$2eml$3a334$2c0$2d$2d54$5d_1453") == "Stdlib.anon_fn[stdlib.ml:334,0--54]_1453");
  CHECK(DemangleSymbol("camlA__$zz__b") == "A.$zz.b");
  CHECK(DemangleSymbol("camlA___b") == "A._b");
  CHECK(DemangleSymbol("camlA__") == "A.");
  CHECK(DemangleSymbol("camlA$41B") == "AAB");
  CHECK(DemangleSymbol("camlfoo__bar_1") == "camlfoo__bar_1");
  CHECK(DemangleSymbol("caml__Foo") == "caml__Foo");
  CHECK(DemangleSymbol("caml") == "caml");
  CHECK(DemangleSymbol("plain_c_name") == "plain_c_name");
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
  // Function and trait-object types, from a Rust 1.95 binary's std
  // (-C symbol-mangling-version=v0), checked against c++filt's output
  // without its crate hashes: perf script named these, and flamefold kept
  // them mangled until it read "F" and "D" types.
  CHECK(DemangleSymbol("_RINvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace28___rust_"
                       "begin_short_backtraceFEuuECs6GmmlP4bgsG_1r") ==
        "std::sys::backtrace::__rust_begin_short_backtrace::<fn(), ()>");
  CHECK(DemangleSymbol("_RNvXs1g_NtCsgEmfK2I1SDS_4core3fmtRDNtB6_5DebugEL_Bx_"
                       "3fmtB8_") ==
        "<&dyn core::fmt::Debug as core::fmt::Debug>::fmt");
  CHECK(DemangleSymbol("_RNvMs3_NtCslNYArtu3iFV_5alloc7raw_vecINtB5_6RawVecTOhF"
                       "UKCBN_EuENtNtCsjrHSEGnQ3l9_3std5alloc6SystemE8grow_"
                       "oneB13_") ==
        "<alloc::raw_vec::RawVec<(*mut u8, unsafe extern \"C\" fn(*mut u8)), "
        "std::alloc::System>>::grow_one");
  CHECK(DemangleSymbol("_RNvXs1g_NtCsgEmfK2I1SDS_4core3fmtRINtNtCslNYArtu3iFV_"
                       "5alloc5boxed3BoxDNtNtB8_5error5ErrorNtNtB8_6marker4Sy"
                       "ncNtB1r_4SendEL_ENtB6_5Debug3fmtCsjrHSEGnQ3l9_3std") ==
        "<&alloc::boxed::Box<dyn core::error::Error + core::marker::Sync + "
        "core::marker::Send> as core::fmt::Debug>::fmt");
  CHECK(DemangleSymbol("_RINvNtCsgEmfK2I1SDS_4core3ptr13drop_in_placeINtNtCsl"
                       "NYArtu3iFV_5alloc5boxed3BoxDG0_INtNtNtB4_3ops8functio"
                       "n2FnTRL1_INtNtCsjrHSEGnQ3l9_3std5panic13PanicHookInfo"
                       "L0_EEEp6OutputuNtNtB4_6marker4SyncNtB2N_4SendEL_EEB1T_") ==
        "core::ptr::drop_in_place::<alloc::boxed::Box<dyn for<'a, 'b> "
        "core::ops::function::Fn<(&'a std::panic::PanicHookInfo<'b>,), "
        "Output = ()> + core::marker::Sync + core::marker::Send>>");
  // Hand-made (c++filt agrees, but for its crate hashes): a function
  // type's result, lifetimes bound by a binder, a trait object's lifetime
  // and ABIs whose '-' were mangled as '_' (libiberty's walk of them).
  CHECK(DemangleSymbol("_RINvCs1_1a1fFG_K9rust_callRL0_hEmFG_RDNtCs1_1a1TEL0_EuE") ==
        "a::f::<for<'a> extern \"rust-call\" fn(&'a u8) -> u32, "
        "for<'a> fn(&dyn a::T + 'a)>");
  CHECK(DemangleSymbol("_RINvCs1_1a1fFUK6a_b__cEuE") ==
        "a::f::<unsafe extern \"a-b-_c\" fn()>");
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

}  // namespace
}  // namespace flamefold
