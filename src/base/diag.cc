#include "base/diag.h"

#include <cstdio>

#include "base/utf8.h"

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

std::string Printable(std::string_view s, size_t max) {
  std::string out;
  size_t i = 0;
  while (i < s.size() && out.size() < max) {
    const unsigned char c = s[i];
    const Utf8Sequence seq = DecodeUtf8(s, i);
    // Unlike text outputs (U+FFFD), a message shows each byte that is not
    // UTF-8, so that a person can find it in the input.
    const size_t n = seq.valid ? seq.length : 0;
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
