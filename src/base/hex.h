// Hex numbers as perf's text files write them (/proc/kallsyms addresses,
// JIT map entries, /proc/self/maps ranges).
#ifndef FLAMEFOLD_BASE_HEX_H_
#define FLAMEFOLD_BASE_HEX_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace flamefold {

// The value of each byte as a hex digit, or -1.
inline constexpr std::array<int8_t, 256> kHexDigits = [] {
  std::array<int8_t, 256> digits{};
  for (int c = 0; c < 256; ++c) {
    digits[c] = c >= '0' && c <= '9'   ? static_cast<int8_t>(c - '0')
                : c >= 'a' && c <= 'f' ? static_cast<int8_t>(c - 'a' + 10)
                : c >= 'A' && c <= 'F' ? static_cast<int8_t>(c - 'A' + 10)
                                       : -1;
  }
  return digits;
}();

namespace hex_detail {

/// The value of 8 hex digits, one a byte of `x` (the first digit in the
/// lowest byte), each byte already its digit's value (0-15).
inline uint32_t PackNibbles(uint64_t x) {
  x = __builtin_bswap64(x);  // the last digit in the lowest byte
  x = (x | (x >> 4)) & 0x00FF00FF00FF00FFull;
  x = (x | (x >> 8)) & 0x0000FFFF0000FFFFull;
  return static_cast<uint32_t>(x | (x >> 16));
}

#if defined(__SSE2__)
/// Reads the 16 bytes at `p` (which must be there) as hex digits: returns
/// true with their value in `*v` when all 16 are digits. Kallsyms' lines
/// start with 16 of them: this reads them at once instead of a byte at a
/// time.
inline bool SixteenDigits(const char* p, uint64_t* v) {
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // Signed compares: a byte >= 0x80 is negative, below '0' and 'a'.
  const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8('0' - 1)),
                                      _mm_cmplt_epi8(c, _mm_set1_epi8('9' + 1)));
  const __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));
  const __m128i letter =
      _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                    _mm_cmplt_epi8(lower, _mm_set1_epi8('f' + 1)));
  if (_mm_movemask_epi8(_mm_or_si128(digit, letter)) != 0xFFFF) return false;
  // '0'-'9' are 0x30-0x39, 'a'-'f' and 'A'-'F' end in 1-6: a letter's low
  // nibble plus 9 is its value.
  const __m128i nibbles =
      _mm_add_epi8(_mm_and_si128(c, _mm_set1_epi8(0x0F)),
                   _mm_and_si128(letter, _mm_set1_epi8(9)));
  uint64_t halves[2];
  std::memcpy(halves, &nibbles, sizeof halves);
  *v = (static_cast<uint64_t>(PackNibbles(halves[0])) << 32) |
       PackNibbles(halves[1]);
  return true;
}
#endif

}  // namespace hex_detail

/// perf's hex2u64: the hex digits at the front of `s` into `*v` (0 when
/// there are none); returns how many there were. Digits beyond 16 shift
/// the older ones out, as in perf. Every line of kallsyms starts with a
/// 16-digit address, and reading kallsyms is mostly reading those: they
/// are read 16 at once, the rest a digit at a time.
inline size_t ParseHex(std::string_view s, uint64_t* v) {
  uint64_t value = 0;
  size_t i = 0;
#if defined(__SSE2__)
  if (s.size() >= 16 && hex_detail::SixteenDigits(s.data(), &value)) i = 16;
#endif
  for (; i < s.size(); ++i) {
    int8_t d = kHexDigits[static_cast<unsigned char>(s[i])];
    if (d < 0) break;
    value = (value << 4) | static_cast<uint64_t>(d);
  }
  *v = value;
  return i;
}

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_HEX_H_
