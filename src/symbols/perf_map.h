// JIT maps: the symbols a JIT compiler (node --perf-basic-prof, the JDK's
// -XX:+DumpPerfMapAtExit) writes for perf to /tmp/perf-PID.map, one a line:
// the start and the size in hex, then the name, which may hold spaces:
//   7f3a1c000040 1a0 LazyCompile:~main /tmp/x.js:1
// Read as perf reads them, so that an address resolves to the name perf
// script prints.
#ifndef FLAMEFOLD_SYMBOLS_PERF_MAP_H_
#define FLAMEFOLD_SYMBOLS_PERF_MAP_H_

#include <string>

#include "symbols/symbol_table.h"

namespace flamefold {

/// Reads the JIT map `path` into `table`, finished as perf leaves it: no
/// size fix-up, so a zero-size entry never matches. false (with `err`)
/// when it cannot be opened.
bool LoadPerfMap(const std::string& path, SymbolTable* table,
                 std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_PERF_MAP_H_
