// DemangleSymbol: names as perf script prints them (C++ without parameter
// lists or return types, Rust without hashes).
#include <doctest/doctest.h>

#include "symbols/symbol_demangle.h"

namespace flamefold {
namespace {

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

}  // namespace
}  // namespace flamefold
