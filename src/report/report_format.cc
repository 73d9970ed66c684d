#include "report/report_format.h"

#include <cstdio>

#include "base/utf8.h"

namespace flamefold {

std::string WithThousands(const PerlNumber& n) {
  std::string s = n.ToString();
  size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  // "1e+20" and "inf" have no long run of digits to group.
  if (digits < s.size() && s[digits] != '.') return s;
  std::string out;
  for (size_t i = 0; i < digits; ++i) {
    if (i > 0 && (digits - i) % 3 == 0) out += ',';
    out += s[i];
  }
  out.append(s, digits, std::string::npos);
  return out;
}

std::string FormatPercent(double pct) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", pct);
  return buf;
}

std::string FormatPoints(double points) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.2f", points);
  std::string s = buf;
  if (s == "-0.00") s = "+0.00";  // a tiny loss rounds to no change
  return s;
}

std::string CsvField(std::string_view s) {
  std::string valid;
  if (!IsValidUtf8(s)) {  // U+FFFD for each invalid sequence, as JsonString does
    AppendValidUtf8(s, &valid);
    s = valid;
  }
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
    return std::string(s);
  }
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace flamefold
