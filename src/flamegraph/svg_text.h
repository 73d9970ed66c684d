// Text helpers of the SVG writer: UTF-8, XML escaping, Perl's number forms.
#ifndef FLAMEFOLD_FLAMEGRAPH_SVG_TEXT_H_
#define FLAMEFOLD_FLAMEGRAPH_SVG_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace flamefold {

/// Decodes the code point at `s[*pos]` and advances `*pos`. An invalid
/// sequence yields its first byte's value and advances one byte.
uint32_t NextCodePoint(std::string_view s, size_t* pos);

/// True when `s` is valid UTF-8 (no overlongs, surrogates or values above
/// U+10FFFF).
bool IsValidUtf8(std::string_view s);

/// Appends `s` with every invalid UTF-8 byte replaced by U+FFFD, so that a
/// name read from any input is text an XML parser accepts.
void AppendValidUtf8(std::string_view s, std::string* out);

/// Number of code points in `s`.
size_t CodePointCount(std::string_view s);

/// The first `n` code points of `s`.
std::string_view CodePointPrefix(std::string_view s, size_t n);

/// Appends `s` escaped for XML character data or a double-quoted attribute:
/// & < > " ' become entities; control characters that XML 1.0 forbids
/// (all below U+0020 except tab, LF, CR, and U+FFFE/U+FFFF) are dropped;
/// invalid UTF-8 becomes U+FFFD.
void AppendXmlEscaped(std::string_view s, std::string* out);
std::string XmlEscaped(std::string_view s);

/// C's "%.Nf" (round half to even on the binary value), as Perl's sprintf.
void AppendFixed(double v, int decimals, std::string* out);
std::string Fixed(double v, int decimals);

/// A number as Perl prints it without a format (integers plainly, others
/// with %.15g).
void AppendPerlValue(double v, std::string* out);

/// Inserts thousands separators into an integer string: "1234567" ->
/// "1,234,567" (a leading sign is kept).
std::string GroupThousands(std::string_view digits);

/// Perl's numification of a string: leading white space, an optional sign,
/// digits with at most one '.', an optional exponent; the longest such
/// prefix counts and the rest is ignored ("12abc" is 12, "abc" is 0).
double PerlNumify(std::string_view s);

}  // namespace flamefold

#endif  // FLAMEFOLD_FLAMEGRAPH_SVG_TEXT_H_
