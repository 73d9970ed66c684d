// JIT maps (/tmp/perf-PID.map) read as perf reads them.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "symbols/perf_map.h"
#include "symbols/symbol_table.h"
#include "symbol_checks.h"
#include "temp_file.h"

namespace flamefold {
namespace {

using testing::NameAt;

// The table LoadPerfMap makes of a map file holding `bytes`.
SymbolTable MapOf(const std::string& bytes) {
  testing::TempFile file(bytes);
  SymbolTable t;
  std::string err;
  REQUIRE(LoadPerfMap(file.path, &t, &err));
  return t;
}

// Each address in `want` shows its name in `t` ("-": no symbol holds it).
void CheckNames(const SymbolTable& t,
                const std::vector<std::pair<uint64_t, std::string>>& want) {
  for (const auto& [addr, name] : want) {
    CAPTURE(addr);
    CHECK(NameAt(t, addr) == name);
  }
}

// A JIT map as perf 6.1 reads it (strtoull's hex, each line's last byte
// dropped): "0x" prefixes as the JDK writes them, white space and '+'
// before a number, a last line without '\n' losing a byte of its name,
// a NUL ending a name, and lines too short to hold a name passed over.
// Each case was checked against perf script on a node recording whose map
// was rewritten so.
TEST_CASE("LoadPerfMap reads START and SIZE as perf's strtoull does") {
  std::string map =
      "1000 100 plain name\n"
      "0x0000000000002000 0x0000000000000100 jdk form\n"
      "  0X3000 +0x80 spaced\n"
      "4000 10 ab\n"  // too short: len + 2 >= length
      "5000 10 nul";
  map += '\0';
  map += "hidden\n6000 20 last line";
  SymbolTable t = MapOf(map);
  CheckNames(t, {{0x10ff, "plain name"},
                 {0x2000, "jdk form"},
                 {0x20ff, "jdk form"},
                 {0x2100, "-"},
                 {0x307f, "spaced"},
                 {0x4000, "-"},
                 {0x5000, "nul"},
                 {0x6000, "last lin"}});
}

// node --perf-basic-prof's lines: a name with spaces, a path and a colon;
// a zero-size entry holds no address (no size fix-up for JIT maps).
TEST_CASE("LoadPerfMap keeps a JIT's names whole, and no zero-size entry") {
  SymbolTable t = MapOf(
      "7f3a1c000040 1a0 LazyCompile:~main /tmp/x.js:1\n"
      "7f3a1c000300 0 Stub:empty\n"
      "7f3a1c000400 20 Builtin:ArgumentsAdaptorTrampoline\n");
  CHECK(t.size() == 3);
  CheckNames(t, {{0x7f3a1c00003f, "-"},
                 {0x7f3a1c000040, "LazyCompile:~main /tmp/x.js:1"},
                 {0x7f3a1c0001df, "LazyCompile:~main /tmp/x.js:1"},
                 {0x7f3a1c0001e0, "-"},
                 {0x7f3a1c000300, "-"},
                 {0x7f3a1c00041f, "Builtin:ArgumentsAdaptorTrampoline"}});
}

TEST_CASE("LoadPerfMap says which map it cannot open") {
  SymbolTable t;
  std::string err;
  CHECK_FALSE(LoadPerfMap("/nonexistent/perf-1.map", &t, &err));
  CHECK(err == "/nonexistent/perf-1.map: cannot open JIT map");
}

}  // namespace
}  // namespace flamefold
