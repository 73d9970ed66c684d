// NameStore: every copied name keeps its bytes while more are added, after
// the store moves, and while a store that shares its blocks lives on.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "symbols/name_store.h"

using flamefold::NameStore;

TEST_CASE("NameStore keeps every name across blocks and moves") {
  NameStore store;
  std::vector<std::string> want;
  std::vector<std::string_view> got;
  for (int i = 0; i < 100000; ++i) {
    // Short names, and now and then one longer than the largest block.
    std::string s = i % 25000 == 7 ? std::string(3u << 20, 'L')
                                   : "sym_" + std::to_string(i * 7919);
    got.push_back(store.Copy(s));
    want.push_back(std::move(s));
  }
  NameStore moved(std::move(store));
  bool same = true;
  for (size_t i = 0; i < want.size(); ++i) same = same && got[i] == want[i];
  CHECK(same);
  CHECK(moved.Copy("").empty());
}

TEST_CASE("NameStore Share keeps another store's names alive") {
  std::string_view name;
  NameStore keeper;
  {
    NameStore owner;
    owner.Reserve(100);
    name = owner.Copy("kept_after_owner_dies");
    keeper.Share(owner);
  }
  CHECK(name == "kept_after_owner_dies");
}

TEST_CASE("NameStore Allocate gives room of its own to fill in place") {
  NameStore store;
  char* a = store.Allocate(10);
  std::memcpy(a, "0123456789", 10);
  std::string_view b = store.Copy("after");
  char* big = store.Allocate(5u << 20);
  big[(5u << 20) - 1] = 'z';
  CHECK(std::string_view(a, 10) == "0123456789");
  CHECK(b == "after");
  CHECK(big[(5u << 20) - 1] == 'z');
}
