// Perl's character classes (\s, \d, \w on byte strings, no locale) and the
// small string tests the perf script rules are written in: shared by the
// line matchers and the per-frame naming rules.
#ifndef FLAMEFOLD_COLLAPSE_PERL_CHARS_H_
#define FLAMEFOLD_COLLAPSE_PERL_CHARS_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace flamefold {
namespace perl_chars {

// Perl's \s, \d and \w on byte strings (no utf8 flag, no locale), as
// table look-ups: the stack-line scanner runs them on every byte it reads.
enum CharClass : uint8_t {
  kClassSpace = 1,      // [ \t\n\v\f\r]
  kClassWord = 2,       // [0-9A-Za-z_]
  kClassLowerHex = 4,   // [0-9a-f]
  kClassHex = 8,        // [0-9a-fA-F]
};
constexpr std::array<uint8_t, 256> MakeCharClasses() {
  std::array<uint8_t, 256> t{};
  for (int c : {' ', '\t', '\n', '\r', '\f', '\v'}) t[c] = kClassSpace;
  for (int c = 0; c < 256; ++c) {
    bool digit = c >= '0' && c <= '9';
    bool lower = c >= 'a' && c <= 'f';
    bool upper = c >= 'A' && c <= 'F';
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || digit || c == '_') {
      t[c] |= kClassWord;
    }
    if (digit || lower) t[c] |= kClassLowerHex;
    if (digit || lower || upper) t[c] |= kClassHex;
  }
  return t;
}
constexpr std::array<uint8_t, 256> kCharClasses = MakeCharClasses();
inline bool HasClass(char c, uint8_t cls) {
  return (kCharClasses[static_cast<unsigned char>(c)] & cls) != 0;
}
inline bool IsSpace(char c) { return HasClass(c, kClassSpace); }
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsWord(char c) { return HasClass(c, kClassWord); }
#if defined(__SSE2__)
// Byte masks of 16 bytes: Perl's \s ([ \t\n\v\f\r]) and \w ([0-9A-Za-z_]).
inline __m128i InRange(__m128i x, char lo, char span) {  // lo <= x <= lo+span
  __m128i d = _mm_sub_epi8(x, _mm_set1_epi8(lo));
  return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(span)), d);
}
inline unsigned SpaceMask(__m128i x) {
  __m128i sp = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
                            InRange(x, '\t', '\r' - '\t'));
  return static_cast<unsigned>(_mm_movemask_epi8(sp));
}
inline unsigned WordMask(__m128i x) {
  __m128i w = _mm_or_si128(
      _mm_or_si128(InRange(x, '0', 9),
                   InRange(_mm_or_si128(x, _mm_set1_epi8(0x20)), 'a', 25)),
      _mm_cmpeq_epi8(x, _mm_set1_epi8('_')));
  return static_cast<unsigned>(_mm_movemask_epi8(w));
}
#endif

// The first index >= i of p[0, n) that is not white space (\s), or n.
inline size_t SkipSpace(const char* p, size_t i, size_t n) {
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    unsigned m = ~SpaceMask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))) & 0xFFFF;
    if (m != 0) return i + __builtin_ctz(m);
  }
#endif
  while (i < n && IsSpace(p[i])) ++i;
  return i;
}

// The first index >= i of p[0, n) that is not a word character (\w), or n.
inline size_t SkipWord(const char* p, size_t i, size_t n) {
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    unsigned m = ~WordMask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))) & 0xFFFF;
    if (m != 0) return i + __builtin_ctz(m);
  }
#endif
  while (i < n && IsWord(p[i])) ++i;
  return i;
}

// The last index `at` with 1 <= at < end, p[at] == '(' and p[at - 1] == ' ',
// or 0 when there is none.
inline size_t LastSpaceParen(const char* p, size_t end) {
#if defined(__SSE2__)
  while (end >= 17) {  // 16 bytes [end - 16, end), all at index >= 1
    size_t from = end - 16;
    unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + from)),
        _mm_set1_epi8('('))));
    while (m != 0) {
      unsigned bit = 31 - __builtin_clz(m);
      if (p[from + bit - 1] == ' ') return from + bit;
      m &= ~(1u << bit);
    }
    end = from;
  }
#endif
  for (size_t at = end; at-- > 1;) {
    if (p[at] == '(' && p[at - 1] == ' ') return at;
  }
  return 0;
}

inline bool Contains(std::string_view s, std::string_view what) {
  return s.find(what) != std::string_view::npos;
}
inline bool EndsWith(std::string_view s, std::string_view what) {
  return s.size() >= what.size() && s.substr(s.size() - what.size()) == what;
}
inline bool StartsWith(std::string_view s, std::string_view what) {
  return s.substr(0, what.size()) == what;
}
inline std::string_view Basename(std::string_view path) {  // s/.*\///
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}
inline bool AllSpace(std::string_view s) {
  return std::all_of(s.begin(), s.end(), IsSpace);
}

}  // namespace perl_chars
}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_PERL_CHARS_H_
