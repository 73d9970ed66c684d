// FrameTexts: frames named as perf script prints them and, with
// Style::by_symbol, each pointing to the first frame of its symbol, whose
// stack line the perf script parser reads as its own.
#include "perfdata/frame_texts.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "collapse/perf_script.h"
#include "collapse/stack_trie.h"

namespace flamefold {
namespace {

// A symfs directory holding the JIT map of pid 7, removed at the end:
// symbols without an ELF file. "odd+0x3" holds a "+0x" of its own.
class MapDir {
 public:
  MapDir() {
    char tmpl[] = "/tmp/ffframesXXXXXX";
    dir_ = mkdtemp(tmpl);
    mkdir((dir_ + "/tmp").c_str(), 0755);
    std::ofstream(dir_ + "/tmp/perf-7.map") << "1000 100 first\n"
                                               "1100 100 second\n"
                                               "1200 100 odd+0x3\n";
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

FrameTexts::Style ParserStyle(bool by_symbol) {
  FrameTexts::Style style;
  style.exact = false;
  style.one_unmapped = true;
  style.by_symbol = by_symbol;
  return style;
}

FrameKey At(Dso* dso, uint64_t addr) { return {dso, addr, addr, addr}; }

TEST_CASE("frames of one symbol point to its first frame, by DSO") {
  MapDir dir;
  SymbolResolver symbols(dir.Options());
  Dso* jit = symbols.PerfMap(7);
  Dso* other = symbols.PerfMap(8);  // no map file: no symbols
  FrameTexts frames(&symbols, ParserStyle(true));
  FrameText* first = frames.Frame(At(jit, 0x1010));
  FrameText* again = frames.Frame(At(jit, 0x1020));
  FrameText* second = frames.Frame(At(jit, 0x1110));
  FrameText* none = frames.Frame(At(jit, 0x5000));
  FrameText* none_again = frames.Frame(At(jit, 0x6000));
  FrameText* elsewhere = frames.Frame(At(other, 0x1010));
  // A frame read as its symbol's first makes its text only when asked;
  // so does one without a symbol read as its DSO's first such frame (a
  // stripped binary's frames), counted as that one is.
  CHECK(first->made_text == "1010 first (/tmp/perf-7.map)");
  CHECK(again->made_text.empty());
  CHECK(none->made_text == "5000 [unknown] (/tmp/perf-7.map)");
  CHECK(none_again->made_text.empty());
  CHECK(none->no_symbol != nullptr);
  CHECK(none_again->no_symbol == none->no_symbol);
  CHECK(again->no_symbol == nullptr);
  // Each address keeps its own text.
  CHECK(frames.Text(first) == "1010 first (/tmp/perf-7.map)");
  CHECK(frames.Text(again) == "1020 first (/tmp/perf-7.map)");
  CHECK(frames.Text(none_again) == "6000 [unknown] (/tmp/perf-7.map)");
  CHECK(first->same_line == nullptr);
  CHECK(again->same_line == first);
  CHECK(second->same_line == nullptr);
  CHECK(frames.Frame(At(jit, 0x1180))->same_line == second);
  CHECK(none->same_line == nullptr);
  CHECK(none_again->same_line == none);
  CHECK(elsewhere->same_line == nullptr);  // another DSO
  CHECK(frames.Frame(At(jit, 0x1020)) == again);  // by address, once
  CHECK(again->made_text == "1020 first (/tmp/perf-7.map)");
}

TEST_CASE("without by_symbol every frame stands for itself") {
  MapDir dir;
  SymbolResolver symbols(dir.Options());
  Dso* jit = symbols.PerfMap(7);
  FrameTexts frames(&symbols, ParserStyle(false));
  CHECK(frames.Frame(At(jit, 0x1010))->same_line == nullptr);
  CHECK(frames.Frame(At(jit, 0x1020))->same_line == nullptr);
}

// What by_symbol rests on: the parser reads the lines of the frames of one
// symbol alike, the offset kept ("odd+0x3+0x10") or left out.
TEST_CASE("the parser reads the stack lines of one symbol alike") {
  MapDir dir;
  SymbolResolver symbols(dir.Options());
  Dso* jit = symbols.PerfMap(7);
  FrameTexts frames(&symbols, ParserStyle(true));
  StringInterner names;
  StackTrie trie(&names);
  PerfScriptParser parser({}, &names, &trie);
  auto id = [&](FrameText* f) {
    return parser.StackLineId("\t" + std::string(frames.Text(f)));
  };
  FrameText* odd = frames.Frame(At(jit, 0x1210));
  FrameText* odd_again = frames.Frame(At(jit, 0x1234));
  CHECK(frames.Text(odd) == "1210 odd+0x3+0x10 (/tmp/perf-7.map)");
  CHECK(odd_again->same_line == odd);
  CHECK(id(odd_again) == id(odd));
  FrameText* none = frames.Frame(At(jit, 0x5000));
  CHECK(id(frames.Frame(At(jit, 0xabcdef))) == id(none));
  CHECK(id(frames.Frame(At(jit, 0x1001))) == id(frames.Frame(At(jit, 0x10ff))));
  CHECK(id(frames.Frame(At(jit, 0x1001))) != id(odd));
}

}  // namespace
}  // namespace flamefold
