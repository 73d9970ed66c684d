#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "collapse/stack_counts.h"
#include "collapse/stack_trie.h"
#include "test_util.h"

using namespace flamefold;

namespace {
std::vector<SymbolId> Ids(StringInterner* names,
                          const std::vector<std::string>& frames) {
  std::vector<SymbolId> ids;
  for (const std::string& f : frames) ids.push_back(names->Intern(f));
  return ids;
}
}  // namespace

TEST_CASE("stack counts sum equal stacks and build the same trie as Add") {
  StringInterner names;
  StackCounts counts;
  StackTrie direct(&names), built(&names);
  const std::vector<std::vector<std::string>> stacks = {
      {"a", "b", "c"}, {"a", "b!"}, {"a", "b"}, {"a", "b_"}, {"a"},
      {"a", "b", "c"}, {},          {"z"},      {"a", "b"}};
  uint64_t n = 1;
  for (const auto& s : stacks) {
    std::vector<SymbolId> ids = Ids(&names, s);
    counts.Add(ids, PerlNumber::FromUint(n), 1);
    direct.Add(ids, PerlNumber::FromUint(n));
    ++n;
  }
  CHECK(counts.size() == 7);
  CHECK(counts.total_samples() == 9);
  counts.MoveInto(&built);
  CHECK(counts.size() == 0);
  CHECK(testing::FoldedText(built) == testing::FoldedText(direct));
  CHECK(testing::FoldedText(built) == "a 5\na;b 12\na;b! 2\na;b;c 7\na;b_ 4\nz 8\n");
  CHECK(built.total_samples() == 9);
  CHECK(built.weight(StackTrie::kRoot).uint_value() == 7);  // the empty stack
  // Nodes shared by prefixes are made once: a, a;b, a;b;c, a;b!, a;b_, z.
  CHECK(built.node_count() == 7);
  // The look-up table is rebuilt when a node is asked for after the build.
  NodeId a = built.ChildOf(StackTrie::kRoot, names.Find("a"));
  CHECK(built.ChildOf(a, names.Find("b")) == built.ChildOf(a, names.Find("b")));
  CHECK(built.node_count() == 7);
}

TEST_CASE("stack counts move into a trie that already has stacks") {
  StringInterner names;
  StackTrie trie(&names);
  trie.Add(Ids(&names, {"x", "y"}), PerlNumber::FromUint(1));
  StackCounts counts;
  counts.Add(Ids(&names, {"x", "y"}), PerlNumber::FromUint(2), 1);
  counts.Add(Ids(&names, {"x", "y", "z"}), PerlNumber::FromUint(3), 2);
  counts.Add(Ids(&names, {"w"}), PerlNumber::Parse("0.5"), 1);
  counts.MoveInto(&trie);
  CHECK(testing::FoldedText(trie) == "w 0.5\nx;y 3\nx;y;z 3\n");
  CHECK(trie.total_samples() == 5);
  CHECK(trie.node_count() == 5);
}

TEST_CASE("stack counts agree with Add on many random stacks") {
  // Small alphabets and depths make many shared prefixes, equal stacks and
  // hash-table growth: the built trie must print exactly what Add's does.
  StringInterner names;
  for (int i = 0; i < 6; ++i) names.Intern(std::string("f").append(std::to_string(i)));
  std::mt19937 rng(7);
  StackCounts counts;
  StackTrie direct(&names), built(&names);
  for (int s = 0; s < 20000; ++s) {
    std::vector<SymbolId> ids(rng() % 9);
    for (SymbolId& id : ids) id = rng() % 6;
    PerlNumber w = PerlNumber::FromUint(rng() % 100);
    counts.Add(ids, w, 1);
    direct.Add(ids, w);
  }
  counts.MoveInto(&built);
  CHECK(testing::FoldedText(built) == testing::FoldedText(direct));
  CHECK(built.node_count() == direct.node_count());
  CHECK(built.total_samples() == direct.total_samples());
}

TEST_CASE("stack counts sort stacks that share long prefixes") {
  // Every stack starts with the same 400 frames, and many are prefixes of
  // others: the sort goes 400 levels deep on one part before the stacks
  // differ, and stacks that end sort before the longer ones.
  StringInterner names;
  for (int i = 0; i < 50; ++i) names.Intern(std::string("g").append(std::to_string(i)));
  std::mt19937 rng(11);
  StackCounts counts;
  StackTrie direct(&names), built(&names);
  std::vector<SymbolId> prefix(400);
  for (SymbolId& id : prefix) id = rng() % 50;
  for (int s = 0; s < 5000; ++s) {
    std::vector<SymbolId> ids(prefix.begin(), prefix.begin() + 390 + rng() % 11);
    for (size_t k = rng() % 6; k > 0; --k) ids.push_back(rng() % 50);
    counts.Add(ids, PerlNumber::FromUint(1), 1);
    direct.Add(ids, PerlNumber::FromUint(1));
  }
  counts.MoveInto(&built);
  CHECK(testing::FoldedText(built) == testing::FoldedText(direct));
  CHECK(built.node_count() == direct.node_count());
}

TEST_CASE("stack counts build a trie in walk order when names extend others") {
  // "f" < "f.a" < "f.a;x" < "f;x": the stacks through a node that ended a
  // stack may come after other lines. The built trie must still have one
  // node per distinct frame under a node, print what Add's prints, and have
  // its nodes in the walk's order.
  StringInterner names;
  const std::vector<std::string> pool = {"f", "f.a", "f.a.b", "f!", "f:",
                                         "f a", "f_", "g", "f.b", "fa", ""};
  for (const std::string& n : pool) names.Intern(n);
  std::mt19937 rng(5);
  for (int round = 0; round < 20; ++round) {
    StackCounts counts;
    StackTrie direct(&names), built(&names);
    for (int s = 0; s < 3000; ++s) {
      std::vector<SymbolId> ids(rng() % 6);
      for (SymbolId& id : ids) id = rng() % pool.size();
      PerlNumber w = PerlNumber::FromUint(rng() % 5);
      counts.Add(ids, w, 1);
      direct.Add(ids, w);
    }
    counts.MoveInto(&built);
    CHECK(testing::FoldedText(built) == testing::FoldedText(direct));
    CHECK(built.node_count() == direct.node_count());
    CHECK(built.IdsInWalkOrder());
    for (NodeId n = 1; n < built.node_count(); ++n) {
      // A real trie: no two children of a node share a name.
      CHECK(built.ChildOf(built.parent(n), built.frame(n)) == n);
    }
  }
}

TEST_CASE("a trie built in walk order is walked in sorted order after more stacks") {
  // MoveInto marks the fresh trie's ids as in walk order, so Walk trusts
  // them; a later stack must take the mark back. Built from "f.cold" and
  // "f;g", the ids are f.cold, f, g: the line "f" added later sorts before
  // "f.cold" though its node comes after it, and the node "a" after "b".
  StringInterner names;
  StackCounts counts;
  StackTrie trie(&names);
  counts.Add(Ids(&names, {"f.cold"}), PerlNumber::FromUint(1), 1);
  counts.Add(Ids(&names, {"f", "g"}), PerlNumber::FromUint(2), 1);
  counts.Add(Ids(&names, {"b"}), PerlNumber::FromUint(3), 1);
  counts.MoveInto(&trie);
  CHECK(testing::FoldedText(trie) == "b 3\nf.cold 1\nf;g 2\n");
  trie.Add(Ids(&names, {"f"}), PerlNumber::FromUint(4));
  CHECK(testing::FoldedText(trie) == "b 3\nf 4\nf.cold 1\nf;g 2\n");
  trie.Add(Ids(&names, {"a"}), PerlNumber::FromUint(5));
  CHECK(testing::FoldedText(trie) == "a 5\nb 3\nf 4\nf.cold 1\nf;g 2\n");
}

TEST_CASE("tables with names of their own sort apart and merge into one trie") {
  // As --jobs N does: each table counts stacks in ids of its own interner,
  // sorts them by the ranks of its own names (on its own thread), and one
  // sweep of the merged order, with the ids mapped into the run's, builds
  // the trie. Stacks found in
  // several tables add up; names that extend others ("f" < "f.a" < "f;x")
  // must still give one node per name under a node, in walk order.
  const std::vector<std::string> pool = {"f", "f.a", "f.a.b", "f!", "f:",
                                         "f a", "f_", "g", "f.b", "fa", ""};
  std::mt19937 rng(17);
  for (int round = 0; round < 12; ++round) {
    const size_t tables = 2 + round % 3;
    StringInterner run_names;
    StackTrie direct(&run_names), built(&run_names);
    std::vector<std::unique_ptr<StringInterner>> own(tables);
    std::vector<std::unique_ptr<StackCounts>> counts(tables);
    for (size_t t = 0; t < tables; ++t) {
      own[t] = std::make_unique<StringInterner>();
      counts[t] = std::make_unique<StackCounts>();
    }
    // Table 0 is the run's own (its ids are the run's); the others intern
    // names in their own order, so ids differ between tables.
    for (int s = 0; s < 4000; ++s) {
      const size_t t = rng() % tables;
      StringInterner* names = t == 0 ? &run_names : own[t].get();
      std::vector<std::string> frames(rng() % 7);
      for (std::string& f : frames) f = pool[rng() % pool.size()];
      if (round % 2 == 1 && s % 3 == 0) frames.insert(frames.begin(), 300, "root");
      PerlNumber w = PerlNumber::FromUint(rng() % 9);
      counts[t]->Add(Ids(names, frames), w, 1);
      direct.Add(Ids(&run_names, frames), w);
    }
    std::vector<std::vector<SymbolId>> maps(tables);
    for (size_t t = 1; t < tables; ++t) {
      for (SymbolId id = 0; id < own[t]->size(); ++id) {
        maps[t].push_back(run_names.Intern(own[t]->Get(id)));
      }
    }
    const std::vector<uint32_t> rank = StackTrie::KeyRanks(run_names);
    std::vector<StackCounts*> all;
    for (size_t t = 0; t < tables; ++t) {
      counts[t]->SortForMove(t == 0 ? rank : StackTrie::KeyRanks(*own[t]));
      all.push_back(counts[t].get());
    }
    StackCounts::MoveSortedInto(all, maps, rank, &built);
    CHECK(testing::FoldedText(built) == testing::FoldedText(direct));
    CHECK(built.node_count() == direct.node_count());
    CHECK(built.total_samples() == direct.total_samples());
    CHECK(built.IdsInWalkOrder());
    bool one_node_per_name = true;
    for (NodeId n = 1; n < built.node_count(); ++n) {
      one_node_per_name = one_node_per_name &&
                          built.ChildOf(built.parent(n), built.frame(n)) == n;
    }
    CHECK(one_node_per_name);
    for (size_t t = 0; t < tables; ++t) CHECK(counts[t]->size() == 0);
  }
}

TEST_CASE("the same stacks in two tables add up, node for node") {
  StringInterner names;
  StackCounts a, b;
  for (const auto& s : std::vector<std::vector<std::string>>{
           {"m", "x"}, {"m"}, {"m", "x", "y"}, {}, {"n"}}) {
    a.Add(Ids(&names, s), PerlNumber::FromUint(1), 1);
    b.Add(Ids(&names, s), PerlNumber::FromUint(10), 2);
  }
  b.Add(Ids(&names, {"m", "x.a"}), PerlNumber::FromUint(5), 1);
  StackTrie trie(&names);
  const std::vector<uint32_t> rank = StackTrie::KeyRanks(names);
  a.SortForMove(rank);
  b.SortForMove(rank);
  std::vector<StackCounts*> both{&a, &b};
  StackCounts::MoveSortedInto(both, {}, rank, &trie);
  CHECK(testing::FoldedText(trie) == "m 11\nm;x 11\nm;x.a 5\nm;x;y 11\nn 11\n");
  CHECK(trie.total_samples() == 16);
  CHECK(trie.node_count() == 6);  // root, m, m;x, m;x.a, m;x;y, n
  CHECK(trie.weight(StackTrie::kRoot).uint_value() == 11);
}

namespace {

// Tables filled with the same random stacks for each seed: names that
// extend others, stacks in several tables (each table with ids of its own),
// empty stacks, deep shared roots and fractional weights, whose sums
// depend on the order they are added in.
struct RandomTables {
  explicit RandomTables(unsigned seed) {
    const std::vector<std::string> pool = {"f", "f.a", "f.a.b", "f!", "f:",
                                           "f a", "f_", "g", "f.b", "fa", ""};
    std::mt19937 rng(seed);
    const size_t n = 1 + seed % 4;
    for (size_t t = 0; t < n; ++t) {
      own.push_back(std::make_unique<StringInterner>());
      counts.push_back(std::make_unique<StackCounts>());
    }
    for (int s = 0; s < 3000; ++s) {
      const size_t t = rng() % n;
      StringInterner* names = t == 0 ? &run_names : own[t].get();
      std::vector<std::string> frames(rng() % 7);
      for (std::string& f : frames) f = pool[rng() % pool.size()];
      if (s % 5 == 0) frames.insert(frames.begin(), 40, "root");
      PerlNumber w = rng() % 3 == 0 ? PerlNumber::FromDouble((rng() % 100) / 7.0)
                                    : PerlNumber::FromUint(rng() % 9);
      counts[t]->Add(Ids(names, frames), w, 1);
    }
    for (size_t t = 0; t < n; ++t) {
      maps.emplace_back();
      for (SymbolId id = 0; t > 0 && id < own[t]->size(); ++id) {
        maps[t].push_back(run_names.Intern(own[t]->Get(id)));
      }
    }
    rank = StackTrie::KeyRanks(run_names);
    for (size_t t = 0; t < n; ++t) {
      counts[t]->SortForMove(t == 0 ? rank : StackTrie::KeyRanks(*own[t]));
      all.push_back(counts[t].get());
    }
  }
  StringInterner run_names;
  std::vector<std::unique_ptr<StringInterner>> own;
  std::vector<std::unique_ptr<StackCounts>> counts;
  std::vector<std::vector<SymbolId>> maps;
  std::vector<uint32_t> rank;
  std::vector<StackCounts*> all;
};

}  // namespace

TEST_CASE("sorted tables give as lines what they give as a trie") {
  for (unsigned seed = 1; seed <= 16; ++seed) {
    CAPTURE(seed);
    RandomTables for_trie(seed), for_lines(seed);
    StackTrie trie(&for_trie.run_names);
    StackCounts::MoveSortedInto(for_trie.all, for_trie.maps, for_trie.rank,
                                &trie);
    std::string lines;
    uint64_t samples = 0;
    StackCounts::VisitSorted(
        for_lines.all, for_lines.maps, for_lines.rank, for_lines.run_names,
        [&](std::string_view line, const PerlNumber& weight, uint64_t n) {
          lines.append(line);
          lines += ' ';
          weight.AppendTo(&lines);
          lines += '\n';
          samples += n;
        });
    CHECK(lines == testing::FoldedText(trie));
    uint64_t trie_samples = 0;
    trie.Walk([&](NodeId node, std::string_view) {
      trie_samples += trie.samples(node);
    });
    CHECK(samples == trie_samples);
    for (StackCounts* t : for_lines.all) CHECK(t->size() == 0);
  }
}
