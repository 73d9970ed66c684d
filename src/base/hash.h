// A fast non-cryptographic hash for short strings (frame names, lines).
#ifndef FLAMEFOLD_BASE_HASH_H_
#define FLAMEFOLD_BASE_HASH_H_

#include <cstdint>
#include <cstring>
#include <string_view>

namespace flamefold {

inline uint64_t Mix64(uint64_t a, uint64_t b) {
  __uint128_t r = static_cast<__uint128_t>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}

/// Hash of `s`: reads 8 bytes at a time and folds them with 64x64->128
/// multiplies (the wyhash construction). Same result on every run.
inline uint64_t HashBytes(std::string_view s, uint64_t seed = 0) {
  constexpr uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull,
                     k2 = 0x8ebc6af09c88c6e3ull;
  const char* p = s.data();
  size_t n = s.size();
  uint64_t h = seed ^ k0 ^ (n * k1);
  while (n >= 16) {
    uint64_t a, b;
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + 8, 8);
    h = Mix64(a ^ k1 ^ h, b ^ k2);
    p += 16;
    n -= 16;
  }
  uint64_t a = 0, b = 0;
  if (n >= 8) {
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + n - 8, 8);
  } else if (n >= 4) {
    uint32_t x, y;
    std::memcpy(&x, p, 4);
    std::memcpy(&y, p + n - 4, 4);
    a = x;
    b = y;
  } else if (n > 0) {
    a = (static_cast<uint64_t>(static_cast<unsigned char>(p[0])) << 16) |
        (static_cast<uint64_t>(static_cast<unsigned char>(p[n >> 1])) << 8) |
        static_cast<unsigned char>(p[n - 1]);
  }
  return Mix64(a ^ k1 ^ h, b ^ k2 ^ n);
}

inline uint64_t HashU64(uint64_t x) {
  return Mix64(x ^ 0xa0761d6478bd642full, 0xe7037ed1a0b428dbull);
}

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_HASH_H_
