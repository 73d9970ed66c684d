// FrameResolver: frames named as perf script prints them and, with
// Style::by_symbol, one frame for all the addresses of a symbol, whose
// stack line the perf script parser reads as each of theirs.
#include "perfdata/frame_resolver.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "collapse/frame_names.h"
#include "collapse/stack_trie.h"

namespace flamefold {
namespace {

// A symfs directory holding the JIT map of pid 7, removed at the end:
// symbols without an ELF file. "odd+0x3" holds a "+0x" of its own.
class MapDir {
 public:
  // `more`: that many symbols "fn_<i>" of 16 bytes from 0x10000 too.
  explicit MapDir(int more = 0) {
    char tmpl[] = "/tmp/ffframesXXXXXX";
    dir_ = mkdtemp(tmpl);
    mkdir((dir_ + "/tmp").c_str(), 0755);
    std::ofstream map(dir_ + "/tmp/perf-7.map");
    map << "1000 100 first\n"
           "1100 100 second\n"
           "1200 100 odd+0x3\n";
    for (int i = 0; i < more; ++i) {
      map << std::hex << 0x10000 + i * 16 << std::dec << " 10 fn_" << i << "\n";
    }
  }
  ~MapDir() {
    std::remove((dir_ + "/tmp/perf-7.map").c_str());
    rmdir((dir_ + "/tmp").c_str());
    rmdir(dir_.c_str());
  }
  SymbolOptions Options() const {
    SymbolOptions o;
    o.symfs = dir_;
    o.kallsyms = "/nonexistent";
    return o;
  }

 private:
  std::string dir_;
};

FrameResolver::Style ParserStyle(bool by_symbol) {
  FrameResolver::Style style;
  style.exact = false;
  style.one_unmapped = true;
  style.by_symbol = by_symbol;
  return style;
}

FrameKey At(Dso* dso, uint64_t addr) { return {dso, addr, addr, addr}; }

TEST_CASE("by symbol, the addresses of one symbol are one frame, by DSO") {
  MapDir dir;
  SymbolResolver symbols(dir.Options());
  Dso* jit = symbols.PerfMap(7);
  Dso* other = symbols.PerfMap(8);  // no map file: no symbols
  FrameResolver frames(&symbols, ParserStyle(true));
  FrameText* first = frames.Frame(At(jit, 0x1010));
  FrameText* second = frames.Frame(At(jit, 0x1110));
  FrameText* none = frames.Frame(At(jit, 0x5000));
  FrameText* elsewhere = frames.Frame(At(other, 0x1010));
  // Named after the first address met.
  CHECK(frames.Text(first) == "1010 first (/tmp/perf-7.map)");
  CHECK(frames.Text(second) == "1110 second (/tmp/perf-7.map)");
  CHECK(frames.Text(none) == "5000 [unknown] (/tmp/perf-7.map)");
  CHECK(frames.Text(elsewhere) == "1010 [unknown] (/tmp/perf-8.map)");
  CHECK(frames.Frame(At(jit, 0x1020)) == first);
  CHECK(frames.Frame(At(jit, 0x1180)) == second);
  CHECK(second != first);
  // The addresses without a symbol: one frame a DSO, counted by DSO.
  CHECK(frames.Frame(At(jit, 0x6000)) == none);
  CHECK(none->no_symbol != nullptr);
  CHECK(first->no_symbol == nullptr);
  CHECK(elsewhere != none);
  CHECK(elsewhere->no_symbol != none->no_symbol);
  // Far more addresses than the cache of recent ones holds: each is still
  // its symbol's frame (or its DSO's without a symbol) when met again.
  for (uint64_t a = 0; a < 40000; ++a) {
    REQUIRE(frames.Frame(At(other, 0x10000 + a * 16)) == elsewhere);
    REQUIRE(frames.Frame(At(jit, 0x1000 + a % 0x100)) == first);
  }
  CHECK(frames.Frame(At(jit, 0x1110)) == second);
  CHECK(frames.Frame(At(jit, 0x5008)) == none);
  CHECK(frames.Text(first) == "1010 first (/tmp/perf-7.map)");
}

// OfSymbol reads its table slot before adding to the table, which may grow
// and free it (a read of the freed slot shows under MALLOC_PERTURB_ and
// AddressSanitizer).
TEST_CASE("a symbol's frame made as the table of frames grows comes back") {
  MapDir dir(5000);
  SymbolResolver symbols(dir.Options());
  Dso* jit = symbols.PerfMap(7);
  FrameResolver frames(&symbols, ParserStyle(true));
  for (int i = 0; i < 5000; ++i) {
    FrameText* f = frames.Frame(At(jit, 0x10000 + i * 16 + 4));
    REQUIRE(f != nullptr);
    char want[64];
    std::snprintf(want, sizeof want, "%x fn_%d (/tmp/perf-7.map)",
                  0x10000 + i * 16 + 4, i);
    REQUIRE(frames.Text(f) == want);
  }
}

TEST_CASE("without by_symbol every address has a frame of its own") {
  MapDir dir;
  SymbolResolver symbols(dir.Options());
  Dso* jit = symbols.PerfMap(7);
  FrameResolver frames(&symbols, ParserStyle(false));
  FrameText* first = frames.Frame(At(jit, 0x1010));
  FrameText* again = frames.Frame(At(jit, 0x1020));
  CHECK(first != again);
  CHECK(frames.Text(first) == "1010 first (/tmp/perf-7.map)");
  CHECK(frames.Text(again) == "1020 first (/tmp/perf-7.map)");
  CHECK(frames.Frame(At(jit, 0x1020)) == again);
  CHECK(frames.Frame(At(jit, 0x5000)) != frames.Frame(At(jit, 0x6000)));
}

// What by_symbol rests on: the fold names the frames of the addresses of
// one symbol alike, the offset kept ("odd+0x3+0x10") or left out, and so
// those of the addresses without a symbol in one DSO.
TEST_CASE("the fold names the frames of one symbol alike") {
  MapDir dir;
  SymbolResolver symbols(dir.Options());
  Dso* jit = symbols.PerfMap(7);
  FrameResolver frames(&symbols, ParserStyle(false));  // a frame an address
  StringInterner interner;
  PerfScriptOptions options;
  PerfScriptStats stats;
  FrameNames names(options, &interner, &stats);
  auto id = [&](uint64_t addr) {
    return names.Of(frames.Frame(At(jit, addr))->frame, false);
  };
  CHECK(frames.Text(frames.Frame(At(jit, 0x1210))) ==
        "1210 odd+0x3+0x10 (/tmp/perf-7.map)");
  const RecordedFrame& odd = frames.Frame(At(jit, 0x1210))->frame;
  CHECK(odd.pc == "1210");
  CHECK(odd.symbol == "odd+0x3+0x10");
  CHECK(odd.module == "/tmp/perf-7.map");
  CHECK(id(0x1234) == id(0x1210));
  CHECK(id(0xabcdef) == id(0x5000));
  CHECK(id(0x1001) == id(0x10ff));
  CHECK(id(0x1001) != id(0x1210));
  CHECK(id(0x1001) != id(0x5000));
}

}  // namespace
}  // namespace flamefold
