// Options parse as Perl's Getopt::Long parses them.
#include <doctest/doctest.h>

#include <vector>

#include "base/options.h"

using namespace flamefold;

namespace {
constexpr OptionSpec kSpecs[] = {
    {"pid", OptType::kFlag, true},
    {"kernel", OptType::kFlag, true},
    {"colors", OptType::kString, true},
    {"countname", OptType::kString, true},
    {"cp", OptType::kFlag, true},
    {"width", OptType::kInt, true},
    {"fontsize", OptType::kFloat, true},
    {"event-filter", OptType::kString, true},
    {"exclude", OptType::kString, false, true},
};

bool Parse(std::vector<std::string> args, ParsedOptions* out, std::string* err) {
  std::vector<char*> argv{const_cast<char*>("tool")};
  for (auto& a : args) argv.push_back(a.data());
  return ParseOptions(kSpecs, static_cast<int>(argv.size()), argv.data(), out, err);
}
}  // namespace

TEST_CASE("prefixes, single dashes, case and values") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"--k", "-PID", "--color=java", "--width", "800", "file", "--fontsize=10.5"}, &o, &err));
  CHECK(o.Has("kernel"));
  CHECK(o.Has("pid"));
  CHECK(o.Get("colors") == "java");
  CHECK(o.Get("width") == "800");
  CHECK(o.Get("fontsize") == "10.5");
  CHECK(o.operands() == std::vector<std::string>{"file"});
}

TEST_CASE("Perl names win a prefix: --e is --event-filter, --ex is --exclude") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"--e", "cycles", "--ex", "a", "--ex=b"}, &o, &err));
  CHECK(o.Get("event-filter") == "cycles");
  CHECK(o.All("exclude") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("usage errors carry Getopt::Long's messages") {
  ParsedOptions o;
  std::string err;
  CHECK_FALSE(Parse({"--c", "x"}, &o, &err));
  CHECK(err == "Option c is ambiguous (colors, countname, cp)");
  CHECK_FALSE(Parse({"--nope"}, &o, &err));
  CHECK(err == "Unknown option: nope");
  CHECK_FALSE(Parse({"--width=abc"}, &o, &err));
  CHECK(err == "Value \"abc\" invalid for option width (number expected)");
  CHECK_FALSE(Parse({"--pid=1"}, &o, &err));
  CHECK(err == "Option pid does not take an argument");
  CHECK_FALSE(Parse({"--countname"}, &o, &err));
  CHECK(err == "Option countname requires an argument");
}

TEST_CASE("-- ends options; - is stdin") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"-", "--", "--pid"}, &o, &err));
  CHECK(o.operands() == std::vector<std::string>{"-", "--pid"});
  CHECK_FALSE(o.Has("pid"));
}

TEST_CASE("-v is not --version: one letter abbreviates Perl names only, "
          "one-letter names match as spelled") {
  constexpr OptionSpec kOwn[] = {
      {"kernel", OptType::kFlag, true},
      {"version|V", OptType::kFlag},
      {"output|o", OptType::kString},
  };
  auto parse = [&](std::vector<std::string> args, ParsedOptions* o,
                   std::string* err) {
    std::vector<char*> argv{const_cast<char*>("tool")};
    for (auto& a : args) argv.push_back(a.data());
    return ParseOptions(kOwn, static_cast<int>(argv.size()), argv.data(), o,
                        err);
  };
  ParsedOptions o;
  std::string err;
  CHECK_FALSE(parse({"-v"}, &o, &err));
  CHECK(err == "Unknown option: v");
  CHECK_FALSE(parse({"-O", "x"}, &o, &err));
  CHECK(err == "Unknown option: o");  // lower case, as Getopt::Long says
  ParsedOptions ok;
  REQUIRE(parse({"-V", "-k", "--vers", "-o", "x"}, &ok, &err));
  CHECK(ok.Has("version"));
  CHECK(ok.Has("kernel"));
  CHECK(ok.Get("output") == "x");
}

TEST_CASE("bundling: -ns is -n -s, long names after --, options after "
          "operands") {
  constexpr OptionSpec kDiff[] = {
      {"n", OptType::kFlag, true},
      {"s", OptType::kFlag, true},
      {"top", OptType::kInt},
  };
  auto parse = [&](std::vector<std::string> args, ParsedOptions* o,
                   std::string* err) {
    std::vector<char*> argv{const_cast<char*>("tool")};
    for (auto& a : args) argv.push_back(a.data());
    return ParseOptionsBundling(kDiff, static_cast<int>(argv.size()),
                                argv.data(), o, err);
  };
  ParsedOptions o;
  std::string err;
  REQUIRE(parse({"a", "-ns", "b", "--to", "5", "-", "+c"}, &o, &err));
  CHECK(o.Has("n"));
  CHECK(o.Has("s"));
  CHECK(o.Get("top") == "5");
  CHECK(o.operands() == std::vector<std::string>{"a", "b", "-", "+c"});
  ParsedOptions bad;
  CHECK_FALSE(parse({"-nx", "-top"}, &bad, &err));
  CHECK(err == "Unknown option: x\nUnknown option: t\nUnknown option: o\n"
               "Unknown option: p");
}
