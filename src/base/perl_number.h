// PerlNumber: a count that adds and prints as a Perl scalar does.
//
// stackcollapse-perf.pl and difffolded.pl sum counts with Perl's `+=`: an
// unsigned integer while the sum fits in 64 bits, a double after that (and
// for fractional counts such as "2.5"), printed with "%.15g". Matching that
// keeps our output identical even for huge periods.
#ifndef FLAMEFOLD_BASE_PERL_NUMBER_H_
#define FLAMEFOLD_BASE_PERL_NUMBER_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace flamefold {

class PerlNumber {
 public:
  PerlNumber() = default;
  static PerlNumber FromUint(uint64_t v) {
    PerlNumber n;
    n.uv_ = v;
    return n;
  }
  static PerlNumber FromDouble(double v) {
    PerlNumber n;
    n.is_nv_ = true;
    n.nv_ = v;
    return n;
  }
  /// Numifies a string matching /^\d+(\.\d*)?$/ as Perl does.
  static PerlNumber Parse(std::string_view digits);

  void Add(const PerlNumber& o) {
    if (!is_nv_ && !o.is_nv_) {
      uint64_t sum = uv_ + o.uv_;
      if (sum >= uv_) {
        uv_ = sum;
        return;
      }
    }
    double sum = AsDouble() + o.AsDouble();
    is_nv_ = true;
    nv_ = sum;
  }

  bool is_integer() const { return !is_nv_; }
  uint64_t uint_value() const { return uv_; }
  double AsDouble() const {
    return is_nv_ ? nv_ : static_cast<double>(uv_);
  }
  bool IsZero() const { return is_nv_ ? nv_ == 0 : uv_ == 0; }
  /// Appends the number as Perl's print would show it.
  void AppendTo(std::string* out) const;
  std::string ToString() const {
    std::string s;
    AppendTo(&s);
    return s;
  }

 private:
  // An integer (uv_) or, once it no longer fits or is fractional, a double.
  bool is_nv_ = false;
  union {
    uint64_t uv_ = 0;
    double nv_;
  };
};

/// Perl's "%.15g" conversion of a double, as print uses for non-integers
/// (integral values within 64 bits print as integers).
void AppendPerlDouble(std::string* out, double v);

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_PERL_NUMBER_H_
