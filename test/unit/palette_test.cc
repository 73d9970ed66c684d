// Expected values were printed by Perl 5.36 (srand/rand, unpack "%32W*",
// and flamegraph.pl's namehash run on the same names).
#include <doctest/doctest.h>

#include "flamegraph/palette.h"

namespace flamefold {
namespace {

TEST_CASE("Drand48 repeats Perl's srand(seed); rand(1)") {
  CHECK(Drand48(0).Next() == 0.17082803610628972);
  CHECK(Drand48(314).Next() == 0.60275295710107812);
  CHECK(Drand48(4294967295u).Next() == 0.30002572744070122);
}

TEST_CASE("CodePointSum sums code points, not bytes") {
  CHECK(CodePointSum("main") == 421);
  CHECK(CodePointSum("\xE5\x87\xBD\xE6\x95\xB0") == 46957);  // 函数
  CHECK(CodePointSum("") == 0);
}

TEST_CASE("NameHash matches flamegraph.pl's namehash") {
  CHECK(NameHash("main") == 0.36335138216015961);
  CHECK(NameHash(ReverseCodePoints("main")) == 0.85437446565973207);
  CHECK(NameHash("libc.so`read") == 0.80282448307526677);
  CHECK(NameHash("`x") == 0.49382716049382713);
  CHECK(NameHash(ReverseCodePoints("`x")) == 1);
  CHECK(NameHash("\xE5\x87\xBD\xE6\x95\xB0x") == 0.5109717868338558);
  CHECK(NameHash(ReverseCodePoints("\xE5\x87\xBD\xE6\x95\xB0x")) ==
        0.81048731832430887);
  CHECK(NameHash("") == 1);
}

TEST_CASE("ReverseCodePoints keeps multibyte characters whole") {
  CHECK(ReverseCodePoints("ab\xC3\xA9") == "\xC3\xA9" "ba");
  CHECK(ReverseCodePoints("") == "");
}

TEST_CASE("Palettes") {
  ColorSource hash(ColorMode::kHash);
  // hot: rgb(205 + int(50*v3), int(230*v1), int(55*v2)).
  CHECK(hash.Color("hot", "main") == "rgb(247,83,46)");
  CHECK(hash.Color("nosuch", "main") == "rgb(0,0,0)");
  ColorSource seeded(ColorMode::kSeeded);
  // v = Drand48(421) for "main" in every component.
  double v = Drand48(421).Next();
  CHECK(seeded.Color("red", "main") ==
        "rgb(" + std::to_string(200 + int(55 * v)) + "," +
            std::to_string(50 + int(80 * v)) + "," +
            std::to_string(50 + int(80 * v)) + ")");
  // java picks a flat palette by the name: _[j] is green, _[k] orange.
  CHECK(hash.Color("java", "foo_[j]") == hash.Color("green", "foo_[j]"));
  CHECK(hash.Color("java", "foo_[k]") == hash.Color("orange", "foo_[k]"));
  CHECK(hash.Color("java", "Ljava/lang/Thread.run") ==
        hash.Color("green", "Ljava/lang/Thread.run"));
  CHECK(hash.Color("js", "a/b.js:1") == hash.Color("green", "a/b.js:1"));
  CHECK(hash.Color("chain", "x_[w]") == hash.Color("aqua", "x_[w]"));
}

TEST_CASE("Off-CPU frames (_[o]) are blue in every palette") {
  for (ColorMode mode : {ColorMode::kHash, ColorMode::kSeeded}) {
    ColorSource colors(mode);
    const std::string blue = colors.Color("blue", "futex_wait_[o]");
    for (std::string_view palette : {"hot", "mem", "io", "java", "js", "perl",
                                     "chain", "red", "nosuch"}) {
      CHECK_MESSAGE(colors.Color(palette, "futex_wait_[o]") == blue, palette);
    }
    // The values come from the whole name, as for _[k] in java.
    CHECK(colors.Color("hot", "read_[o]") == colors.Color("blue", "read_[o]"));
    CHECK(colors.Color("hot", "read_[o]") !=
          colors.Color("hot", "futex_wait_[o]"));
  }
  ColorSource hash(ColorMode::kHash);
  CHECK(hash.Color("hot", "main") != hash.Color("blue", "main"));
  CHECK(hash.Color("hot", "x_[o] ") != hash.Color("blue", "x_[o] "));
  CHECK(IsOffCpuFrame("a_[o]"));
  CHECK_FALSE(IsOffCpuFrame("a_[o]b"));
  CHECK_FALSE(IsOffCpuFrame("a_[k]"));
  // The separators keep flamegraph.pl's greys.
  CHECK(NameColor("--", "hot", &hash) == "rgb(160,160,160)");
  CHECK(NameColor("x_[o]", "mem", &hash) == hash.Color("blue", "x_[o]"));
}

TEST_CASE("DeltaColor: red for growth, blue for shrinkage, white for none") {
  CHECK(DeltaColor(5, 10, false) == "rgb(255,105,105)");
  CHECK(DeltaColor(-5, 10, false) == "rgb(105,105,255)");
  CHECK(DeltaColor(5, 10, true) == "rgb(105,105,255)");
  CHECK(DeltaColor(0, 10, false) == "rgb(255,255,255)");
}

TEST_CASE("BackgroundColors") {
  std::string a, b;
  REQUIRE(BackgroundColors("", "mem", &a, &b));
  CHECK(a == "#eef2ee");
  CHECK(b == "#e0ffe0");
  REQUIRE(BackgroundColors("", "io", &a, &b));
  CHECK(b == "#e0e0ff");
  REQUIRE(BackgroundColors("#102030", "hot", &a, &b));
  CHECK(a == "#102030");
  CHECK(b == "#102030");
  CHECK_FALSE(BackgroundColors("pink", "hot", &a, &b));
}

}  // namespace
}  // namespace flamefold

TEST_CASE("kPaletteNames lists exactly the palettes that have colours") {
  std::string_view names = flamefold::kPaletteNames;
  int count = 0;
  for (size_t pos = 0; pos < names.size();) {
    size_t comma = names.find(", ", pos);
    std::string_view name = names.substr(pos, comma - pos);
    CHECK_MESSAGE(flamefold::IsKnownPalette(name), name);
    ++count;
    pos = comma == std::string_view::npos ? names.size() : comma + 2;
  }
  CHECK(count == 15);
  CHECK_FALSE(flamefold::IsKnownPalette("Hot"));  // flamegraph.pl compares with eq
  CHECK_FALSE(flamefold::IsKnownPalette("rust"));
  CHECK_FALSE(flamefold::IsKnownPalette(""));
}
