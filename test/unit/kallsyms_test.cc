// Kernel symbols from kallsyms: the lines kept and how they are indexed,
// a lazy table against one whose symbols are all made, and the files that
// are read whole (modules, lines out of order).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "symbols/kallsyms.h"
#include "symbols/symbol_table.h"
#include "symbol_checks.h"
#include "temp_file.h"

namespace flamefold {
namespace {

using testing::NameAt;

// IndexKallsyms's lines of `text`; `*marked` as it tells.
BigVector<KallsymsLine> IndexOf(std::string_view text, bool* marked) {
  BigVector<KallsymsLine> lines;
  REQUIRE(IndexKallsyms(text, &lines, marked));
  return lines;
}

// The lines perf keeps: text symbols (t, T, w, W) with a name not starting
// with '$'; data symbols, empty names and lines that are no symbol's pass.
TEST_CASE("IndexKallsyms keeps the text symbols' lines, names by offset") {
  std::string text =
      "ffffffff81000000 T _stext\n"
      "ffffffff81000010 d some_data\n"
      "ffffffff81000020 t local_fn\n"
      "ffffffff81000030 W weak_fn\n"
      "ffffffff81000040 w weak_local\n"
      "ffffffff81000050 t $x\n"
      "ffffffff81000060 T \n"
      "not a line\n"
      "ffffffff81000070 T last";
  bool marked = false;
  BigVector<KallsymsLine> lines = IndexOf(text, &marked);
  CHECK_FALSE(marked);
  struct Want {
    uint64_t start;
    std::string_view name;
    SymbolBinding binding;
  };
  std::vector<Want> want = {
      {0xffffffff81000000, "_stext", SymbolBinding::kGlobal},
      {0xffffffff81000020, "local_fn", SymbolBinding::kLocal},
      {0xffffffff81000030, "weak_fn", SymbolBinding::kWeak},
      {0xffffffff81000040, "weak_local", SymbolBinding::kWeak},
      {0xffffffff81000070, "last", SymbolBinding::kGlobal}};
  REQUIRE(lines.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    CHECK(lines[i].start == want[i].start);
    CHECK(std::string_view(text).substr(lines[i].name_at,
                                        lines[i].name_size) == want[i].name);
    CHECK(lines[i].binding == want[i].binding);
  }
  // A module's line marks the file: its symbols are split off by name.
  std::string with_module =
      "ffffffff81000000 T _stext\n"
      "ffffffffc0a01000 t ext4_iget\t[ext4]\n";
  lines = IndexOf(with_module, &marked);
  CHECK(marked);
  REQUIRE(lines.size() == 2);
  CHECK(std::string_view(with_module).substr(lines[1].name_at,
                                             lines[1].name_size) ==
        "ext4_iget\t[ext4]");
}

// The index on a file in memory: of the lines at one address the last is
// kept (the earlier ones end where they start, and a size wins); a symbol
// ends at the next kept line, the last one a page past its start, rounded
// up to a page.
TEST_CASE("KallsymsIndex makes the symbol perf keeps where one is looked up") {
  std::string text =
      "ffffffff81000000 T _stext\n"
      "ffffffff81000000 t _text_alias\n"
      "ffffffff81000100 T start_kernel\n"
      "ffffffff81000180 d not_text\n"
      "ffffffff81000200 t last_fn\n";
  bool marked = false;
  KallsymsIndex index(text, IndexOf(text, &marked));
  CHECK(index.Find(0xffffffff80ffffff) == nullptr);
  const Symbol* first = index.Find(0xffffffff81000000);
  REQUIRE(first != nullptr);
  CHECK(first->name == "_text_alias");
  CHECK(first->end == 0xffffffff81000100);
  CHECK(index.Find(0xffffffff810000ff) == first);  // made once
  const Symbol* kernel = index.Find(0xffffffff810001ff);
  REQUIRE(kernel != nullptr);
  CHECK(kernel->name == "start_kernel");
  const Symbol* last = index.Find(0xffffffff81001fff);
  REQUIRE(last != nullptr);
  CHECK(last->name == "last_fn");
  CHECK(index.Find(0xffffffff81002000) == nullptr);
  uint64_t start = 0, end = 0;
  REQUIRE(index.Range(&start, &end));
  CHECK(start == 0xffffffff81000000);
  CHECK(end == 0xffffffff81002000);
  const BigVector<Symbol>& all = index.All();
  REQUIRE(all.size() == 3);
  CHECK(all[0].name == "_text_alias");
  CHECK(all[1].name == "start_kernel");
  CHECK(all[2].end == 0xffffffff81002000);
}

// A random kallsyms file without modules, lines by address: runs of
// lines at one address (mixed types, bindings, underscores and lengths, so
// that each of KeepFirst's rules decides some), data symbols, '$' and
// empty names, malformed lines, no '\n' at the end.
std::string RandomKallsyms(uint64_t* seed, int lines) {
  auto rnd = [&](uint64_t n) {
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return n ? (*seed >> 11) % n : 0;
  };
  std::string text;
  uint64_t at = 0xffffffff81000000ULL;
  const char* types = "tTwWtTdDbr";
  for (int i = 0; i < lines; ++i) {
    if (rnd(4) != 0) at += rnd(3) == 0 ? rnd(8192) : 16 * (1 + rnd(40));
    char head[32];
    std::snprintf(head, sizeof head, "%016llx %c ",
                  static_cast<unsigned long long>(at), types[rnd(10)]);
    std::string name(rnd(4), '_');
    for (uint64_t k = 0, n = rnd(12); k <= n; ++k) {
      name += static_cast<char>('a' + rnd(26));
    }
    switch (rnd(40)) {
      case 0: text += "not a line\n"; continue;
      case 1: text += std::string(head).substr(0, 18) + "\n"; continue;
      case 2: name.clear(); break;
      case 3: name = "$x" + name; break;
    }
    text += head + name + "\n";
  }
  if (!text.empty() && rnd(2)) text.pop_back();
  return text;
}

TEST_CASE("a kallsyms file without modules, read lazily, finds what all its symbols made find") {
  uint64_t seed = 4242;
  for (int round = 0; round < 120; ++round) {
    int lines = round % 10 == 0 ? 3000 : 1 + round;
    testing::TempFile file(RandomKallsyms(&seed, lines));
    SymbolTable lazy, eager;
    std::vector<KallsymsModule> modules;
    std::string err;
    REQUIRE(LoadKallsyms(file.path, &lazy, &modules, &err));
    REQUIRE(LoadKallsyms(file.path, &eager, &modules, &err, true));
    REQUIRE(modules.empty());
    CHECK(lazy.lazy());
    eager.mutable_symbols();  // every symbol made, as CleanUp makes them
    REQUIRE_FALSE(eager.lazy());
    std::vector<uint64_t> probes = {0, UINT64_MAX, 0xffffffff80ffffffULL};
    for (const Symbol& s : eager.symbols()) {
      for (uint64_t a : {s.start - 1, s.start, s.start + 1, s.end - 1, s.end,
                         s.end + 4096, s.end + 8192}) {
        probes.push_back(a);
      }
    }
    for (uint64_t a : probes) {
      const Symbol* got = lazy.Find(a);
      const Symbol* want = eager.Find(a);
      REQUIRE((got == nullptr) == (want == nullptr));
      if (!got) continue;
      CHECK(got->start == want->start);
      CHECK(got->end == want->end);
      CHECK(got->name == want->name);
      CHECK(got->binding == want->binding);
      CHECK(lazy.Find(a) == got);  // made once, at one address
    }
    uint64_t lazy_start = 0, lazy_end = 0, start = 0, end = 0;
    REQUIRE(lazy.Range(&lazy_start, &lazy_end) == eager.Range(&start, &end));
    CHECK(lazy_start == start);
    CHECK(lazy_end == end);
    // All of them, when asked for.
    REQUIRE(lazy.size() == eager.size());
    for (size_t i = 0; i < eager.size(); ++i) {
      CHECK(lazy.symbols()[i].start == eager.symbols()[i].start);
      CHECK(lazy.symbols()[i].name == eager.symbols()[i].name);
    }
  }
}

TEST_CASE("a kallsyms file with modules or out of order is read whole") {
  testing::TempFile modules_file(
      "ffffffff81000000 T _text\n"
      "ffffffff81000100 t helper\n"
      "ffffffffc0001000 t ext4_iget\t[ext4]\n");
  SymbolTable core;
  std::vector<KallsymsModule> modules;
  std::string err;
  REQUIRE(LoadKallsyms(modules_file.path, &core, &modules, &err));
  CHECK_FALSE(core.lazy());
  REQUIRE(modules.size() == 1);
  CHECK(NameAt(core, 0xffffffff81000010) == "_text");
  testing::TempFile unsorted(
      "ffffffff81000100 t helper\n"
      "ffffffff81000000 T _text\n");
  modules.clear();
  REQUIRE(LoadKallsyms(unsorted.path, &core, &modules, &err));
  CHECK_FALSE(core.lazy());
  CHECK(NameAt(core, 0xffffffff81000010) == "_text");
  CHECK(NameAt(core, 0xffffffff81000110) == "helper");
  // A '[' in a name is a module's to perf's end fix-up: read whole too.
  testing::TempFile bracket("ffffffff81000000 T _text\nffffffff81000100 t a[1]\n");
  REQUIRE(LoadKallsyms(bracket.path, &core, &modules, &err));
  CHECK_FALSE(core.lazy());
  // A name too long for the index: the file is read whole, the name kept.
  std::string long_name(70000, 'x');
  testing::TempFile long_line("ffffffff81000000 T _text\nffffffff81000100 t " +
                              long_name + "\n");
  REQUIRE(LoadKallsyms(long_line.path, &core, &modules, &err));
  CHECK_FALSE(core.lazy());
  CHECK(NameAt(core, 0xffffffff81000110) == long_name);
  // A table changed after a lazy read becomes an ordinary one.
  testing::TempFile plain("ffffffff81000000 T _text\nffffffff81000100 t helper\n");
  REQUIRE(LoadKallsyms(plain.path, &core, &modules, &err));
  REQUIRE(core.lazy());
  core.Add(0xffffffff81000200, 0, "added", SymbolBinding::kGlobal);
  CHECK_FALSE(core.lazy());
  core.Finish(true);
  CHECK(NameAt(core, 0xffffffff81000110) == "helper");
  CHECK(NameAt(core, 0xffffffff81000210) == "added");
}

}  // namespace
}  // namespace flamefold
