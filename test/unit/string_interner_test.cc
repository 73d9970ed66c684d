// StringInterner: ids are dense in order of first appearance, the same
// string always gets the same id, and stored names stay put as the table
// and the arena grow.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "base/string_interner.h"

TEST_CASE("StringInterner ids stay dense and names stay put") {
  flamefold::StringInterner names;
  bool dense = true;
  for (int i = 0; i < 100000; ++i) {
    dense = dense && names.Intern("frame_" + std::to_string(i)) ==
                         static_cast<uint32_t>(i);
  }
  CHECK(dense);
  CHECK(names.Intern("frame_7") == 7u);
  CHECK(names.Get(99999) == "frame_99999");
  CHECK(names.Find("frame_100000") == flamefold::StringInterner::kNone);
}

TEST_CASE("StringInterner tells new names from old and keeps the empty one") {
  flamefold::StringInterner names;
  bool added = false;
  CHECK(names.Find("") == flamefold::StringInterner::kNone);
  CHECK(names.Intern("", &added) == 0u);
  CHECK(added);
  CHECK(names.Intern("a", &added) == 1u);
  CHECK(added);
  CHECK(names.Intern("", &added) == 0u);
  CHECK_FALSE(added);
  CHECK(names.Find("") == 0u);
  CHECK(names.Get(0).empty());
  // Equal prefixes and lengths are not enough: "ab" and "ba" differ.
  CHECK(names.Intern("ab") == 2u);
  CHECK(names.Intern("ba") == 3u);
  CHECK(names.Find("ab") == 2u);
  CHECK(names.size() == 4u);
  CHECK(names.bytes_used() >= 4u);
}

TEST_CASE("StringInterner looks up ahead with a hash and prefetches") {
  // Interned with their hashes, each fetched ahead as a caller that looks
  // up strings while reading the next ones does, mixed with plain Intern:
  // the same ids either way, through the table's growth.
  flamefold::StringInterner ahead, plain;
  bool same = true, added_right = true;
  for (int i = 0; i < 50000; ++i) {
    const std::string s = "stack_" + std::to_string(i % 20011);
    const uint64_t hash = flamefold::StringInterner::Hash(s);
    ahead.Prefetch(hash);
    ahead.PrefetchBytes(hash);
    bool added = false;
    const uint32_t id = i % 3 == 0 ? ahead.Intern(s) : ahead.Intern(s, hash, &added);
    same = same && id == plain.Intern(s);
    if (i % 3 != 0) added_right = added_right && added == (i < 20011);
  }
  CHECK(same);
  CHECK(added_right);
  CHECK(ahead.size() == 20011u);
  CHECK(ahead.Find("stack_20010") == 20010u);
}
