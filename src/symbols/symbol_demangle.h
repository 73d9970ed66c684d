// Demangling as perf script prints names: C++ without the parameter list,
// the return type of template functions or clone suffixes
// ("_Z5tworkIlET_S0_" -> "twork<long>", "_Z3midi.cold" -> "mid"), legacy
// Rust names without their hash ("core::fmt::write") and Rust v0 names
// ("<std::sys::sync::once::futex::Once>::call"), then, for other names, perf's OCaml and Java demanglers
// ("camlStdlib__List__map_270" -> "Stdlib.List.map_270",
// "Ljava/lang/String;hashCode()I" -> "java.lang.String.hashCode()").
#ifndef FLAMEFOLD_SYMBOLS_SYMBOL_DEMANGLE_H_
#define FLAMEFOLD_SYMBOLS_SYMBOL_DEMANGLE_H_

#include <string>
#include <string_view>

namespace flamefold {

/// The name perf prints for the ELF symbol `mangled`; `mangled` itself when
/// it is not a mangled C++ or Rust name.
std::string DemangleSymbol(std::string_view mangled);

/// A Rust name, v0 ("_R...") or legacy ("_ZN...17h<hash>E"), as libiberty
/// prints it without its verbose flag (hash and crate disambiguators
/// left out); false when `mangled` is neither (a C++ name, say), which
/// libiberty's cplus_demangle then tries as C++: it tries Rust first.
bool DemangleRust(std::string_view mangled, std::string* out);

/// The function name part of a full C++ demangling ("int f<int>(int) const"
/// -> "f<int>"), exposed for tests.
std::string StripFunctionType(std::string_view demangled);

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_SYMBOL_DEMANGLE_H_
