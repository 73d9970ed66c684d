#include "report/report_format.h"

#include <cmath>
#include <cstdio>

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

namespace {

// The UTF-8 sequence at s[i]: its length, and whether it is valid. An
// invalid one is the longest prefix of a valid sequence there (at least one
// byte), the "maximal subpart" that Unicode replaces with one U+FFFD, as
// Python's and browsers' decoders do.
size_t Utf8Sequence(std::string_view s, size_t i, bool* valid) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  *valid = false;
  if (c < 0x80) {
    *valid = true;
    return 1;
  }
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 1;
  }
  for (size_t k = 1; k < len; ++k) {
    if (i + k >= s.size()) return k;
    unsigned char d = byte(i + k);
    if (k == 1 ? (d < lo || d > hi) : (d & 0xC0) != 0x80) return k;
  }
  *valid = true;
  return len;
}

}  // namespace

std::string CsvField(std::string_view s) {
  std::string valid;
  bool ok = true;
  for (size_t i = 0; i < s.size() && ok;) i += Utf8Sequence(s, i, &ok);
  if (!ok) {  // U+FFFD for each invalid sequence, as JsonString does
    for (size_t i = 0; i < s.size();) {
      size_t len = Utf8Sequence(s, i, &ok);
      if (ok) {
        valid.append(s, i, len);
      } else {
        valid += "\xEF\xBF\xBD";
      }
      i += len;
    }
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
    bool valid;
    size_t len = Utf8Sequence(s, i, &valid);
    if (!valid) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      i += len;
      continue;
    }
    if (len > 1) {
      out.append(s, i, len);
      i += len;
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
