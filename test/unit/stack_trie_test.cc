#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "collapse/stack_trie.h"
#include "test_util.h"

using namespace flamefold;

namespace {
void Add(StringInterner* names, StackTrie* trie,
         std::vector<std::string> frames, uint64_t n) {
  std::vector<SymbolId> ids;
  for (auto& f : frames) ids.push_back(names->Intern(f));
  trie->Add(ids, PerlNumber::FromUint(n));
}
}  // namespace

TEST_CASE("walk order is the byte order of the folded lines") {
  StringInterner names;
  StackTrie trie(&names);
  // "a;b" < "a;b!" < "a;b;c" < "a;b_": a name that extends another sorts
  // between the shorter name's own line and its descendants.
  Add(&names, &trie, {"a", "b", "c"}, 1);
  Add(&names, &trie, {"a", "b!"}, 2);
  Add(&names, &trie, {"a", "b"}, 3);
  Add(&names, &trie, {"a", "b_"}, 4);
  Add(&names, &trie, {"a"}, 5);
  Add(&names, &trie, {"a", "b", "c"}, 6);
  CHECK(testing::FoldedText(trie) == "a 5\na;b 3\na;b! 2\na;b;c 7\na;b_ 4\n");
  CHECK(trie.total_samples() == 6);
}

TEST_CASE("a 100,000-frame stack walks without recursion") {
  StringInterner names;
  StackTrie trie(&names);
  std::vector<SymbolId> ids(100000, names.Intern("f"));
  trie.Add(ids, PerlNumber::FromUint(1));
  size_t len = 0;
  trie.Walk([&](NodeId, std::string_view line) { len = line.size(); });
  CHECK(len == 100000 * 2 - 1);
}

TEST_CASE("interning the empty name twice (stored with no bytes) finds it") {
  // The fuzzer found memcmp given the null pointer an empty name is stored
  // with, when the arena has no block yet (UBSan: nonnull argument).
  StringInterner names;
  SymbolId a = names.Intern(std::string_view());
  bool added = true;
  SymbolId b = names.Intern(std::string_view(), &added);
  CHECK(a == b);
  CHECK_FALSE(added);
  CHECK(names.Intern("") == a);
  CHECK(names.Intern("x") != a);
}

namespace {
// The folded lines of every node with samples, sorted as strings.
std::vector<std::string> SortedLines(const StackTrie& trie) {
  std::vector<std::string> lines;
  for (NodeId n = 1; n < trie.node_count(); ++n) {
    if (trie.samples(n) == 0) continue;
    std::string line(trie.names().Get(trie.frame(n)));
    for (NodeId p = trie.parent(n); p != StackTrie::kRoot; p = trie.parent(p)) {
      line = std::string(trie.names().Get(trie.frame(p))) + ";" + line;
    }
    lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}
}  // namespace

TEST_CASE("walk order is the sorted lines, in id order or not") {
  // Tries whose nodes were made in walk order (stacks added in line order)
  // are walked in id order; the others sort each node's children. Both
  // must give the lines in byte order.
  const std::vector<std::string> pool = {"f", "f.a", "f.a.b", "f!", "f:",
                                         "f a", "f_", "g", "fa"};
  std::mt19937 rng(3);
  int in_order = 0;
  for (int round = 0; round < 200; ++round) {
    std::vector<std::vector<std::string>> stacks(1 + rng() % 40);
    for (auto& s : stacks) {
      s.resize(1 + rng() % 4);
      for (auto& f : s) f = pool[rng() % pool.size()];
    }
    if (round % 2 == 0) {
      // Line order: the order of "a;b;c" as strings.
      auto joined = [](const std::vector<std::string>& s) {
        std::string j;
        for (const auto& f : s) j += (j.empty() ? "" : ";") + f;
        return j;
      };
      std::sort(stacks.begin(), stacks.end(), [&](const auto& a, const auto& b) {
        return joined(a) < joined(b);
      });
    }
    StringInterner names;
    StackTrie trie(&names);
    for (const auto& s : stacks) Add(&names, &trie, s, 1);
    if (trie.IdsInWalkOrder()) in_order++;
    std::vector<std::string> walked;
    trie.Walk([&](NodeId, std::string_view line) { walked.emplace_back(line); });
    CHECK(walked == SortedLines(trie));
  }
  CHECK(in_order > 0);
  CHECK(in_order < 200);
}

// KeyRanks against its definition: the keys "name" and "name;" of every
// name in byte order, as whole strings compare. Names are drawn from bytes
// around ';' (':' below it, '<' above it, bytes above 0x7f, and the zero
// byte, which the sort's chunks pad with) so that prefixes nest and both
// sides of ';' follow them; "" and one-byte names included.
TEST_CASE("KeyRanks orders every key \"name\" and \"name;\" in byte order") {
  std::mt19937 rng(17);
  const std::string alphabet("a:<\xff" " 0\0", 7);
  for (int round = 0; round < 300; ++round) {
    StringInterner names;
    std::vector<std::string> keys;
    // One round in three: up to 400 names of up to 11 bytes, sorted over
    // two levels of 8 bytes. Another: up to 200 names of up to 60 bytes
    // from three letters, half of them starting alike, which the sort
    // takes 8 bytes at a time over up to 8 levels, reading the text anew
    // every other level.
    const int kind = round % 3;
    const size_t most_names[] = {40, 400, 200}, most_bytes[] = {5, 12, 61};
    size_t count = 1 + rng() % most_names[kind];
    for (size_t i = 0; i < count; ++i) {
      std::string name = kind == 2 && rng() % 2 ? "std::__cxx11::basic_" : "";
      for (size_t len = rng() % most_bytes[kind]; len > 0; --len) {
        name += kind == 2 ? alphabet[rng() % 3 * 3]  // 'a', '\xff', '\0'
                          : alphabet[rng() % alphabet.size()];
      }
      names.Intern(name);
    }
    for (SymbolId id = 0; id < names.size(); ++id) {
      keys.push_back(std::string(names.Get(id)));
      keys.push_back(std::string(names.Get(id)) + ";");
    }
    std::vector<uint32_t> rank = StackTrie::KeyRanks(names);
    REQUIRE(rank.size() == keys.size());
    std::vector<uint32_t> by_rank(keys.size());
    for (uint32_t k = 0; k < keys.size(); ++k) by_rank[rank[k]] = k;
    for (size_t r = 1; r < by_rank.size(); ++r) {
      CHECK(keys[by_rank[r - 1]] < keys[by_rank[r]]);
    }
  }
}
