#include "flamegraph/svg_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/perl_number.h"

namespace flamefold {
namespace {

// Length of the valid UTF-8 sequence at s[i] (with its code point in *cp),
// or 0 when the bytes there are not valid UTF-8.
size_t ValidSequence(std::string_view s, size_t i, uint32_t* cp) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  size_t n;
  uint32_t min;
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  uint32_t v = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    v = (v << 6) | (d & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return n;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

}  // namespace

uint32_t NextCodePoint(std::string_view s, size_t* pos) {
  uint32_t cp;
  size_t n = ValidSequence(s, *pos, &cp);
  if (n == 0) {
    cp = static_cast<unsigned char>(s[*pos]);
    n = 1;
  }
  *pos += n;
  return cp;
}

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  uint32_t cp;
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t n = ValidSequence(s, i, &cp);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void AppendValidUtf8(std::string_view s, std::string* out) {
  size_t i = 0;
  uint32_t cp;
  while (i < s.size()) {
    size_t start = i;
    while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
    out->append(s.substr(start, i - start));
    if (i == s.size()) break;
    size_t n = ValidSequence(s, i, &cp);
    if (n == 0) {
      out->append(kReplacement);
      ++i;
    } else {
      out->append(s.substr(i, n));
      i += n;
    }
  }
}

size_t CodePointCount(std::string_view s) {
  size_t count = 0;
  for (size_t i = 0; i < s.size(); ++count) NextCodePoint(s, &i);
  return count;
}

std::string_view CodePointPrefix(std::string_view s, size_t n) {
  size_t i = 0;
  for (size_t k = 0; k < n && i < s.size(); ++k) NextCodePoint(s, &i);
  return s.substr(0, i);
}

void AppendXmlEscaped(std::string_view s, std::string* out) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      uint32_t cp;
      size_t n = ValidSequence(s, i, &cp);
      if (n == 0) {
        out->append(kReplacement);
        ++i;
      } else {
        if (cp != 0xFFFE && cp != 0xFFFF) out->append(s.substr(i, n));
        i += n;
      }
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

std::string XmlEscaped(std::string_view s) {
  std::string out;
  AppendXmlEscaped(s, &out);
  return out;
}

void AppendFixed(double v, int decimals, std::string* out) {
  char buf[512];
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
