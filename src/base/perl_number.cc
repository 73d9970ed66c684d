#include "base/perl_number.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/output.h"

namespace flamefold {

PerlNumber PerlNumber::Parse(std::string_view s) {
  uint64_t v = 0;
  size_t i = 0;
  bool overflow = false;
  if (s.size() <= 19) {  // fits in 64 bits: no overflow test per digit
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      v = v * 10 + static_cast<uint64_t>(s[i] - '0');
    }
  } else {
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      uint64_t d = static_cast<uint64_t>(s[i] - '0');
      if (v > (UINT64_MAX - d) / 10) overflow = true;
      v = v * 10 + d;
    }
  }
  if (!overflow && i == s.size()) return FromUint(v);
  // A fraction or more than 64 bits: Perl converts with its atof.
  std::string copy(s);
  return FromDouble(std::strtod(copy.c_str(), nullptr));
}

void AppendPerlDouble(std::string* out, double v) {
  // Perl prints an NV that holds an integer value as an integer when it
  // fits an IV/UV; otherwise with %.15g.
  if (v >= 0 && v < 18446744073709551616.0 && std::floor(v) == v &&
      v < 1e15) {
    AppendUint(out, static_cast<unsigned long long>(v));
    return;
  }
  char buf[64];
  int n = std::snprintf(buf, sizeof buf, "%.15g", v);
  out->append(buf, static_cast<size_t>(n));
}

void PerlNumber::AppendTo(std::string* out) const {
  if (is_nv_) {
    AppendPerlDouble(out, nv_);
  } else {
    AppendUint(out, uv_);
  }
}

}  // namespace flamefold
