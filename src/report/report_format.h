// Number and text formatting shared by flamereport and flamediff --report.
#ifndef FLAMEFOLD_REPORT_REPORT_FORMAT_H_
#define FLAMEFOLD_REPORT_REPORT_FORMAT_H_

#include <string>
#include <string_view>

#include "base/json.h"  // JsonString, JsonNumber: the reports use them
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

}  // namespace flamefold

#endif  // FLAMEFOLD_REPORT_REPORT_FORMAT_H_
