#include "base/json.h"

#include <cmath>
#include <cstdio>

#include "base/utf8.h"

namespace flamefold {

namespace {

// Appends the one-byte character `c` as JSON writes it in a string.
void AppendJsonAscii(unsigned char c, std::string* out) {
  switch (c) {
    case '"': *out += "\\\""; return;
    case '\\': *out += "\\\\"; return;
    case '\n': *out += "\\n"; return;
    case '\r': *out += "\\r"; return;
    case '\t': *out += "\\t"; return;
    default: break;
  }
  if (c < 0x20 || c == 0x7F) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04x", c);
    *out += buf;
  } else {
    *out += static_cast<char>(c);
  }
}

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  *out += '"';
  size_t i = 0;
  while (i < s.size()) {
    const Utf8Sequence seq = DecodeUtf8(s, i);
    if (!seq.valid) {
      *out += kReplacementCharacter;
    } else if (seq.length > 1) {
      out->append(s, i, seq.length);
    } else {
      AppendJsonAscii(static_cast<unsigned char>(s[i]), out);
    }
    i += seq.length;
  }
  *out += '"';
}

std::string JsonString(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

void AppendJsonNumber(const PerlNumber& n, std::string* out) {
  if (!n.is_integer() && !std::isfinite(n.AsDouble())) {
    *out += "null";
    return;
  }
  n.AppendTo(out);
}

std::string JsonNumber(const PerlNumber& n) {
  std::string out;
  AppendJsonNumber(n, &out);
  return out;
}

}  // namespace flamefold
