// PerlNumber: counts add as Perl's += does (an unsigned integer while the
// sum fits in 64 bits, then a double) and print as Perl's print does.
#include <doctest/doctest.h>

#include <string>

#include "base/perl_number.h"

using flamefold::PerlNumber;

TEST_CASE("counts add like Perl numbers") {
  PerlNumber n = PerlNumber::FromUint(UINT64_MAX);
  n.Add(PerlNumber::FromUint(1));  // past 64 bits: a double
  CHECK(n.ToString() == "1.84467440737096e+19");
  CHECK(PerlNumber::Parse("2.5").ToString() == "2.5");
  PerlNumber m = PerlNumber::Parse("007");
  CHECK(m.ToString() == "7");
  // 19 digits always fit in 64 bits; 20 may or may not.
  CHECK(PerlNumber::Parse("9999999999999999999").ToString() == "9999999999999999999");
  CHECK(PerlNumber::Parse("18446744073709551615").ToString() == "18446744073709551615");
  CHECK(PerlNumber::Parse("18446744073709551616").ToString() == "1.84467440737096e+19");
  CHECK(PerlNumber::Parse("12.50").ToString() == "12.5");
}

TEST_CASE("fractions add as doubles and print with %.15g") {
  PerlNumber n = PerlNumber::Parse("2.5");
  CHECK_FALSE(n.is_integer());
  n.Add(PerlNumber::FromUint(1));
  CHECK(n.ToString() == "3.5");
  PerlNumber third = PerlNumber::FromDouble(1.0 / 3);
  CHECK(third.ToString() == "0.333333333333333");
  PerlNumber whole = PerlNumber::Parse("5.0");
  CHECK(whole.ToString() == "5");
  std::string s = "x=";
  flamefold::AppendPerlDouble(&s, 1e21);
  CHECK(s == "x=1e+21");
}

TEST_CASE("integers stay exact and zero is zero") {
  PerlNumber n;
  CHECK(n.IsZero());
  CHECK(n.is_integer());
  n.Add(PerlNumber::FromUint(9007199254740993ull));  // not a double
  CHECK(n.uint_value() == 9007199254740993ull);
  CHECK(n.ToString() == "9007199254740993");
  CHECK_FALSE(n.IsZero());
  CHECK(PerlNumber::FromDouble(0.0).IsZero());
  CHECK(PerlNumber::FromUint(42).AsDouble() == 42.0);
}
