#include "base/utf8.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace flamefold {

Utf8Sequence DecodeUtf8(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return {c, 1, true};
  uint32_t length;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return {c, 1, false};  // a continuation byte, C0, C1 or F5..FF
  }
  uint32_t cp = c & (0x7F >> length);
  for (uint32_t k = 1; k < length; ++k) {
    if (i + k >= s.size()) return {c, k, false};
    const unsigned char d = byte(i + k);
    if (k == 1 ? (d < lo || d > hi) : (d & 0xC0) != 0x80) return {c, k, false};
    cp = (cp << 6) | (d & 0x3F);
  }
  return {cp, length, true};
}

namespace {

// The length of the all-ASCII prefix of `s`, read 64 bytes at a time (the
// high bits of four 16-byte blocks gathered at once), then 16, then one.
size_t AsciiPrefix(std::string_view s) {
  const char* p = s.data();
  const size_t n = s.size();
  size_t i = 0;
#if defined(__SSE2__)
  auto load = [p](size_t at) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
  };
  for (; i + 64 <= n; i += 64) {
    const __m128i any = _mm_or_si128(_mm_or_si128(load(i), load(i + 16)),
                                     _mm_or_si128(load(i + 32), load(i + 48)));
    if (_mm_movemask_epi8(any) != 0) break;
  }
  for (; i + 16 <= n; i += 16) {
    const unsigned high = static_cast<unsigned>(_mm_movemask_epi8(load(i)));
    if (high != 0) return i + static_cast<size_t>(__builtin_ctz(high));
  }
#else
  constexpr uint64_t kHighBits = 0x8080808080808080u;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    if ((word & kHighBits) != 0) break;
  }
#endif
  while (i < n && static_cast<unsigned char>(p[i]) < 0x80) ++i;
  return i;
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      i += AsciiPrefix(s.substr(i));
      continue;
    }
    const Utf8Sequence seq = DecodeUtf8(s, i);
    if (!seq.valid) return false;
    i += seq.length;
  }
  return true;
}

void AppendValidUtf8(std::string_view s, std::string* out) {
  size_t i = 0;
  while (i < s.size()) {
    const size_t start = i;
    while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
    out->append(s.substr(start, i - start));
    if (i == s.size()) break;
    const Utf8Sequence seq = DecodeUtf8(s, i);
    if (seq.valid) {
      out->append(s.substr(i, seq.length));
    } else {
      out->append(kReplacementCharacter);
    }
    i += seq.length;
  }
}

uint32_t NextCodePoint(std::string_view s, size_t* pos) {
  const unsigned char first = static_cast<unsigned char>(s[*pos]);
  if (first < 0x80) {  // ASCII, most names: no decoding
    ++*pos;
    return first;
  }
  const Utf8Sequence seq = DecodeUtf8(s, *pos);
  *pos += seq.valid ? seq.length : 1;
  return seq.valid ? seq.code_point : static_cast<unsigned char>(s[*pos - 1]);
}

size_t CodePointCount(std::string_view s) {
  size_t count = 0;
  for (size_t i = 0; i < s.size(); ++count) NextCodePoint(s, &i);
  return count;
}

std::string_view CodePointPrefix(std::string_view s, size_t n) {
  size_t i = 0;
  for (size_t k = 0; k < n && i < s.size(); ++k) NextCodePoint(s, &i);
  return s.substr(0, i);
}

size_t Utf8CutLength(std::string_view s, size_t max) {
  if (s.size() <= max) return s.size();
  // The character that would be split starts at most 3 bytes before `max`.
  for (size_t start = max > 3 ? max - 3 : 0; start < max; ++start) {
    const Utf8Sequence seq = DecodeUtf8(s, start);
    if (seq.valid && seq.length > 1 && start + seq.length > max) return start;
  }
  return max;
}

}  // namespace flamefold
