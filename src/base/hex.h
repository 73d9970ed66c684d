// Hex numbers as perf's text files write them (/proc/kallsyms addresses,
// JIT map entries, /proc/self/maps ranges).
#ifndef FLAMEFOLD_BASE_HEX_H_
#define FLAMEFOLD_BASE_HEX_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

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

/// perf's hex2u64: the hex digits at the front of `s` into `*v` (0 when
/// there are none); returns how many there were. A digit is a table
/// look-up and the value grows in a local: this was 40% of reading kallsyms
/// (whose 120,000 lines each start with a 16-digit address), with the value
/// stored through `v` at every digit.
inline size_t ParseHex(std::string_view s, uint64_t* v) {
  uint64_t value = 0;
  size_t i = 0;
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
