// base/hash.h: the same bytes always hash the same (tables and orders built
// from them must not depend on the run), and different inputs spread over
// the low bits the tables index by.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "base/hash.h"

using namespace flamefold;

TEST_CASE("HashBytes depends on every byte, the length and the seed") {
  const std::string s = "pthread_mutex_lock+0x13e (/usr/lib/libc.so.6)";
  CHECK(HashBytes(s) == HashBytes(std::string(s)));
  std::set<uint64_t> hashes;
  for (size_t i = 0; i < s.size(); ++i) {
    std::string t = s;
    t[i] ^= 1;
    hashes.insert(HashBytes(t));
  }
  CHECK(hashes.size() == s.size());  // one flipped bit anywhere changes it
  CHECK(hashes.count(HashBytes(s)) == 0);
  CHECK(HashBytes("ab") != HashBytes(std::string("ab\0", 3)));
  CHECK(HashBytes("abc", 1) != HashBytes("abc", 2));
  CHECK(HashBytes("") != HashBytes("", 1));
}

TEST_CASE("hashes of similar keys spread over the low bits") {
  std::set<uint64_t> buckets_bytes, buckets_u64;
  for (int i = 0; i < 4096; ++i) {
    buckets_bytes.insert(HashBytes("frame_" + std::to_string(i)) & 4095);
    buckets_u64.insert(HashU64(static_cast<uint64_t>(i) << 32) & 4095);
  }
  // 4096 keys in 4096 buckets fill about 63% of them when hashed at random.
  // HashU64 is one multiply (keys (parent << 32 | frame) of the trie): it
  // spreads keys that differ only in their high bits over more than a
  // quarter of the buckets, where taking the low bits would use one.
  CHECK(buckets_bytes.size() > 2200);
  CHECK(buckets_u64.size() > 1024);
}
