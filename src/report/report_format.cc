#include "report/report_format.h"

#include <cmath>
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

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    const Utf8Sequence seq = DecodeUtf8(s, i);
    if (!seq.valid) {
      out += kReplacementCharacter;
      i += seq.length;
      continue;
    }
    if (seq.length > 1) {
      out.append(s, i, seq.length);
      i += seq.length;
      continue;
    }
    ++i;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

std::string JsonNumber(const PerlNumber& n) {
  if (!n.is_integer() && !std::isfinite(n.AsDouble())) return "null";
  return n.ToString();
}

}  // namespace flamefold
