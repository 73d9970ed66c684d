// Text helpers of the SVG writer: XML escaping, Perl's number forms (and
// base/utf8.h, which the writer and the palette use with them).
#ifndef FLAMEFOLD_FLAMEGRAPH_SVG_TEXT_H_
#define FLAMEFOLD_FLAMEGRAPH_SVG_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/utf8.h"

namespace flamefold {

/// Appends `s` escaped for XML character data or a double-quoted attribute:
/// & < > " ' become entities; control characters that XML 1.0 forbids
/// (all below U+0020 except tab, LF, CR, and U+FFFE/U+FFFF) are dropped;
/// invalid UTF-8 becomes U+FFFD (base/utf8.h's rule).
void AppendXmlEscaped(std::string_view s, std::string* out);

/// C's "%.Nf" (round half to even on the binary value), as Perl's sprintf.
void AppendFixed(double v, int decimals, std::string* out);
std::string Fixed(double v, int decimals);
/// The number Fixed(v, decimals) prints, read back (what Perl gets when it
/// computes with that string): strtod of it, without the string.
double FixedValue(double v, int decimals);

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
