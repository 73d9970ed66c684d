// SourceLines: addr2line's records computed in-process (on the golden
// tests' binaries, found through $TESTDATA): the inlined function first,
// then its callers (as InlineChain prints them); "??" where nothing is
// known; answers cached; and addr2line -C's demangling.
#include <doctest/doctest.h>

#include <string>
#include <thread>

#include "symbols/frame_inliner.h"
#include "symbols/source_lines.h"
#include "test_inputs.h"

namespace flamefold {
namespace {

using testing::TestFile;

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

TEST_CASE("files opened ahead on another thread answer as files opened here") {
  std::string lib = TestFile("perf-data/dwarf-shlib/root/tmp/ffdw/libtiny.so");
  SourceLines here, ahead;
  // The look-ups race the opening: each waits for it, none opens twice.
  std::thread opener([&] {
    ahead.Preopen(lib);
    ahead.Preopen(lib + ".missing");
  });
  const SourceLookup* a = ahead.Lookup(lib, 0x102a, false);
  const SourceLookup* h = here.Lookup(lib, 0x102a, false);
  opener.join();
  REQUIRE(a != nullptr);
  REQUIRE(h != nullptr);
  CHECK(InlineChain(*a, true) == InlineChain(*h, true));
  CHECK(InlineChain(*a, true) == "tiny_hash:libtiny.c:13;rotl:libtiny.c:7");
  CHECK(ahead.File(lib) == ahead.File(lib));
  CHECK(ahead.File(lib + ".missing") == nullptr);
  ahead.Preopen(lib);  // open already: nothing happens
  CHECK(ahead.Lookup(lib, 0x102a, false) == a);
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
