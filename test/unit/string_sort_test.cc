// SortDistinctStrings: byte order, as std::string_view compares, whatever
// the strings share: long common beginnings (past 8 and 16 bytes), one
// string the beginning of another, zero and high bytes.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/string_sort.h"

namespace flamefold {
namespace {

std::vector<std::string> Sorted(const std::set<std::string>& strings) {
  std::vector<std::string> texts(strings.begin(), strings.end());
  std::shuffle(texts.begin(), texts.end(), std::mt19937(7));
  std::vector<SortableString> a(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    a[i].text = texts[i];
    a[i].id = static_cast<uint32_t>(i);
  }
  SortDistinctStrings(a.data(), a.size());
  std::vector<std::string> out;
  for (const SortableString& s : a) {
    CHECK(texts[s.id] == s.text);  // the id stays with its string
    out.emplace_back(s.text);
  }
  return out;
}

TEST_CASE("strings that begin alike, or each other") {
  std::set<std::string> strings{"",
                                "a",
                                "ab",
                                "abcdefgh",
                                "abcdefgh;",
                                "abcdefghi",
                                "abcdefgh\x01",
                                std::string("abcdefgh\0", 9),
                                std::string("abcdefgh\0\0", 10),
                                "abcdefghijklmnop",
                                "abcdefghijklmnopq",
                                "abcdefghijklmnoq",
                                "b",
                                "\xff",
                                "\xff\xff"};
  std::vector<std::string> want(strings.begin(), strings.end());
  CHECK(Sorted(strings) == want);
}

TEST_CASE("random folded-like stacks") {
  std::mt19937 rng(3);
  const char* frames[] = {"main", "std::vector<int>::push_back", "f", "g;",
                          "[unknown]", "a", "ab", "\x80x"};
  std::set<std::string> strings;
  while (strings.size() < 3000) {
    std::string s;
    size_t depth = rng() % 12;
    for (size_t d = 0; d < depth; ++d) {
      if (d) s += ';';
      s += frames[rng() % 8];
    }
    strings.insert(s);
  }
  std::vector<std::string> want(strings.begin(), strings.end());
  CHECK(Sorted(strings) == want);
}

}  // namespace
}  // namespace flamefold

TEST_CASE("SortedStrings: an interner's strings in byte order, with their ids") {
  flamefold::StringInterner strings;
  for (const char* s : {"b;c", "a", "", "b", "a;b\x80", "a;b"}) strings.Intern(s);
  std::vector<std::string> texts;
  std::vector<uint32_t> ids;
  for (const flamefold::SortableString& s : flamefold::SortedStrings(strings)) {
    texts.emplace_back(s.text);
    ids.push_back(s.id);
  }
  CHECK(texts == std::vector<std::string>{"", "a", "a;b", "a;b\x80", "b", "b;c"});
  CHECK(ids == std::vector<uint32_t>{2, 1, 5, 4, 3, 0});
}
