// Number and text formatting shared by flamereport and flamediff --report.
#ifndef FLAMEFOLD_REPORT_REPORT_FORMAT_H_
#define FLAMEFOLD_REPORT_REPORT_FORMAT_H_

#include <string>
#include <string_view>

#include "base/perl_number.h"

namespace flamefold {

/// The count as Perl prints it, with a ',' every three digits of the
/// integer part: 1234567 -> "1,234,567", 1234.5 -> "1,234.5".
std::string WithThousands(const PerlNumber& n);

/// A percentage with two decimals ("12.35"), as printf("%.2f") rounds.
std::string FormatPercent(double pct);

/// A signed change in percentage points: "+1.25", "-0.50", "+0.00".
std::string FormatPoints(double points);

/// `s` as an RFC 4180 CSV field: quoted (with '"' doubled) when it holds a
/// comma, a quote, CR or LF; bytes that are not valid UTF-8 become U+FFFD,
/// so the CSV is valid UTF-8 whatever the input.
std::string CsvField(std::string_view s);

/// `s` as a JSON string with its quotes. Control characters, '"' and '\\'
/// are escaped; bytes that are not valid UTF-8 become U+FFFD, so the result
/// is valid JSON (and UTF-8) whatever the input.
std::string JsonString(std::string_view s);

/// The count as a JSON number (integers exactly; others as Perl prints
/// them, which is valid JSON for finite values).
std::string JsonNumber(const PerlNumber& n);

}  // namespace flamefold

#endif  // FLAMEFOLD_REPORT_REPORT_FORMAT_H_
