// UTF-8: the one decoder, and the one rule for bytes that are not UTF-8.
//
// Names come from any input (perf script text, folded files, perf.data,
// ELF symbols) and may hold bytes that are not UTF-8. Every output that
// must be text (SVG, JSON, CSV) cleans them the same way: each invalid
// sequence, taken as its "maximal subpart" (the longest start of a valid
// sequence there, at least one byte: Unicode's recommended practice, what
// Python's decode(errors='replace') and browsers do), becomes one U+FFFD.
// So flamesvg and flamereport print the same name the same way.
//
// Two callers read the same decoding under another contract, and say so
// where they do: messages show each invalid byte as \xNN, for a person
// to find the bytes in the input (base/diag.h Printable); flamegraph.pl's
// width and colour arithmetic counts a byte that starts no valid character
// as one character of that byte's value, as Perl does (NextCodePoint).
#ifndef FLAMEFOLD_BASE_UTF8_H_
#define FLAMEFOLD_BASE_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace flamefold {

/// U+FFFD REPLACEMENT CHARACTER, in UTF-8.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

/// One UTF-8 sequence: `length` bytes (>= 1) and, when `valid`, the code
/// point they encode. An invalid sequence is a maximal subpart.
struct Utf8Sequence {
  uint32_t code_point;
  uint32_t length;
  bool valid;
};

/// The sequence at `s[i]` (i < s.size()). Valid means shortest form, no
/// surrogate, at most U+10FFFF.
Utf8Sequence DecodeUtf8(std::string_view s, size_t i);

/// True when all of `s` is valid UTF-8.
bool IsValidUtf8(std::string_view s);

/// Appends `s` with each invalid sequence replaced by one U+FFFD.
void AppendValidUtf8(std::string_view s, std::string* out);

/// The code point at `s[*pos]`, advancing `*pos` past it; a byte that
/// starts no valid sequence yields its own value and advances one byte
/// (flamegraph.pl's character arithmetic, as Perl reads such a byte).
uint32_t NextCodePoint(std::string_view s, size_t* pos);

/// The number of characters of `s`, counted as NextCodePoint steps.
size_t CodePointCount(std::string_view s);

/// The first `n` characters of `s`, counted as NextCodePoint steps.
std::string_view CodePointPrefix(std::string_view s, size_t n);

/// The length of the longest prefix of `s` of at most `max` bytes that
/// does not end inside a valid multi-byte character. Bytes that are not
/// UTF-8 are cut anywhere (at `max`).
size_t Utf8CutLength(std::string_view s, size_t max);

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_UTF8_H_
