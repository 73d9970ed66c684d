#include "flamegraph/svg_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/perl_number.h"

namespace flamefold {
namespace {

// Printable ASCII that XML text and attributes take as it is.
bool IsPlainXml(unsigned char c) {
  return c >= 0x20 && c < 0x7F && c != '&' && c != '<' && c != '>' &&
         c != '"' && c != '\'';
}

// For 0-2 decimals and |v| < 4.5e13: |v| * 10^decimals rounded as printf
// rounds it (to nearest, a tie to even), in `*units`. The product p, below
// 2^52, is the exact x = |v| * 10^decimals rounded, so |x - p| <= ulp(p)/2,
// while p's fraction minus 0.5 is a multiple of ulp(p): it has the sign of
// x's, unless it is zero, and then the product's rounding error decides
// (std::fma gives it exactly; such ties are rare). False when the fast path
// does not apply.
constexpr double kScale[] = {1.0, 10.0, 100.0};  // 10^decimals

bool ScaledUnits(double v, int decimals, uint64_t* units) {
  if (decimals < 0 || decimals > 2 || !(std::fabs(v) < 4.5e13)) return false;
  const double a = std::fabs(v);
  const double p = a * kScale[decimals];
  uint64_t r = static_cast<uint64_t>(p);  // p >= 0: truncation is floor
  const double above_half = (p - static_cast<double>(r)) - 0.5;
  if (above_half > 0) {
    ++r;
  } else if (above_half == 0) {
    const double error = std::fma(a, kScale[decimals], -p);  // x - p
    if (error > 0 || (error == 0 && (r & 1) != 0)) ++r;
  }
  *units = r;
  return true;
}

}  // namespace

void AppendXmlEscaped(std::string_view s, std::string* out) {
  size_t i = 0;
  while (i < s.size()) {
    size_t plain = i;
    while (plain < s.size() && IsPlainXml(static_cast<unsigned char>(s[plain]))) {
      ++plain;
    }
    out->append(s.data() + i, plain - i);  // most names are all plain
    i = plain;
    if (i == s.size()) break;
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const Utf8Sequence seq = DecodeUtf8(s, i);
      if (!seq.valid) {
        out->append(kReplacementCharacter);
      } else if (seq.code_point != 0xFFFE && seq.code_point != 0xFFFF) {
        out->append(s.substr(i, seq.length));
      }
      i += seq.length;
      continue;
    }
    ++i;
    switch (c) {
      case '&': out->append("&amp;"); break;
      case '<': out->append("&lt;"); break;
      case '>': out->append("&gt;"); break;
      case '"': out->append("&quot;"); break;
      case '\'': out->append("&#39;"); break;
      case '\t': out->append("&#9;"); break;
      case '\n': out->append("&#10;"); break;
      case '\r': out->append("&#13;"); break;
      default:
        if (c >= 0x20 && c != 0x7F) out->push_back(static_cast<char>(c));
        break;
    }
  }
}

void AppendFixed(double v, int decimals, std::string* out) {
  uint64_t units;
  if (ScaledUnits(v, decimals, &units)) {
    // The digits of `units`, with the point `decimals` from the end.
    char buf[32];
    char* end = buf + sizeof buf;
    char* p = end;
    for (int i = 0; i < decimals; ++i) {
      *--p = static_cast<char>('0' + units % 10);
      units /= 10;
    }
    if (decimals > 0) *--p = '.';
    do {
      *--p = static_cast<char>('0' + units % 10);
      units /= 10;
    } while (units != 0);
    if (std::signbit(v)) *--p = '-';  // printf's "-0.0" too
    out->append(p, static_cast<size_t>(end - p));
    return;
  }
  // std::to_chars with a precision prints what printf's "%.*f" prints,
  // without parsing a format; printf stays for what does not fit the buffer
  // and for inf/nan.
  char buf[512];
  if (std::isfinite(v)) {
    std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v,
                                           std::chars_format::fixed, decimals);
    if (r.ec == std::errc()) {
      out->append(buf, static_cast<size_t>(r.ptr - buf));
      return;
    }
  }
  int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof buf) {
    out->append(buf, static_cast<size_t>(n));
    return;
  }
  std::string big(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), "%.*f", decimals, v);
  big.resize(static_cast<size_t>(n));
  out->append(big);
}

double FixedValue(double v, int decimals) {
  uint64_t units;
  if (ScaledUnits(v, decimals, &units)) {
    // units / 10^decimals, both exact as doubles: the division rounds the
    // printed number's exact value to nearest, as strtod does.
    const double x = static_cast<double>(units) / kScale[decimals];
    return std::signbit(v) ? -x : x;
  }
  return std::strtod(Fixed(v, decimals).c_str(), nullptr);
}

std::string Fixed(double v, int decimals) {
  std::string out;
  AppendFixed(v, decimals, &out);
  return out;
}

void AppendPerlValue(double v, std::string* out) { AppendPerlDouble(out, v); }

std::string GroupThousands(std::string_view digits) {
  std::string out;
  size_t start = 0;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    out.push_back(digits[0]);
    start = 1;
  }
  size_t end = start;
  while (end < digits.size() && digits[end] >= '0' && digits[end] <= '9') ++end;
  size_t len = end - start;
  for (size_t k = 0; k < len; ++k) {
    if (k > 0 && (len - k) % 3 == 0) out.push_back(',');
    out.push_back(digits[start + k]);
  }
  out.append(digits.substr(end));
  return out;
}

double PerlNumify(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
                          s[i] == '\r' || s[i] == '\f' || s[i] == '\v')) {
    ++i;
  }
  size_t start = i;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  size_t digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    if (j < s.size() && s[j] >= '0' && s[j] <= '9') {
      while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
      i = j;
    }
  }
  std::string num(s.substr(start, i - start));
  return std::strtod(num.c_str(), nullptr);
}

}  // namespace flamefold
