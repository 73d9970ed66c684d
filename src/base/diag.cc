#include "base/diag.h"

#include <cstdio>

namespace flamefold {

std::string Diag::WithContext(std::string_view msg) const {
  std::string out;
  if (!context_.empty() && msg.substr(0, context_.size()) != context_) {
    out = context_ + ": ";
  }
  out.append(msg);
  return out;
}

// One fprintf per message, so that messages of parallel conversions do not
// interleave within a line.
void Diag::Emit(Severity severity, const char* label,
                std::string_view msg) const {
  std::string text = WithContext(msg);
  if (handler_) {
    handler_(severity, text);
    return;
  }
  std::fprintf(stderr, "%s: %s: %s\n", tool_.c_str(), label, text.c_str());
}

void Diag::Error(std::string_view msg) const {
  Emit(Severity::kError, "error", msg);
}

void Diag::Warning(std::string_view msg) const {
  if (!quiet_) Emit(Severity::kWarning, "warning", msg);
}

void Diag::Note(std::string_view msg) const {
  if (!quiet_) Emit(Severity::kNote, "note", msg);
}

std::string Where(std::string_view file, uint64_t line) {
  std::string out(file);
  out += ':';
  out += std::to_string(line);
  out += ": ";
  return out;
}

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is invalid.
size_t Utf8Length(std::string_view s, size_t i) {
  unsigned char c = s[i];
  size_t n;
  uint32_t min;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) { n = 2; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { n = 3; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { n = 4; min = 0x10000; }
  else return 0;
  if (i + n > s.size()) return 0;
  uint32_t cp = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = s[i + k];
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string Printable(std::string_view s, size_t max) {
  std::string out;
  size_t i = 0;
  while (i < s.size() && out.size() < max) {
    unsigned char c = s[i];
    size_t n = Utf8Length(s, i);
    if (n == 0 || c < 0x20 || c == 0x7F) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  if (i < s.size()) out += "...";
  return out;
}

}  // namespace flamefold
