// flamesvg's command line: flamegraph.pl's option names parsed the
// Getopt::Long way, and the checks flamegraph.pl makes (or dies on).
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>

#include <string>
#include <vector>

#include "cli/flamesvg_cli.h"
#include "temp_file.h"

namespace flamefold {
namespace {

ArgsResult Parse(std::vector<std::string> args, FlameSvgConfig* config,
                    std::string* err) {
  args.insert(args.begin(), "flamesvg");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return ParseFlameSvgArgs(static_cast<int>(argv.size()), argv.data(), config,
                           err);
}

TEST_CASE("flamesvg: abbreviations and single dashes as in flamegraph.pl") {
  FlameSvgConfig c;
  std::string err;
  REQUIRE(Parse({"--color=java", "-inv", "--minw", "1%", "a.folded"}, &c,
                &err) == ArgsResult::kRun);
  CHECK(c.graph.palette == "java");
  CHECK(c.graph.inverted);
  CHECK(c.graph.min_width.percent);
  CHECK(c.graph.min_width.value == 1);
  CHECK(c.inputs == std::vector<std::string>{"a.folded"});
}

TEST_CASE("flamesvg: --c is ambiguous among flamegraph.pl's options") {
  FlameSvgConfig c;
  std::string err;
  CHECK(Parse({"--c", "x"}, &c, &err) == ArgsResult::kUsageError);
  CHECK(err.find("ambiguous") != std::string::npos);
}

TEST_CASE("flamesvg: --icicle is --inverted; defaults follow flamegraph.pl") {
  FlameSvgConfig c;
  std::string err;
  REQUIRE(Parse({"--icicle"}, &c, &err) == ArgsResult::kRun);
  CHECK(c.graph.inverted);
  CHECK(DefaultTitle(c.graph) == "Icicle Graph");
  CHECK(c.graph.width == 1200);
  CHECK(c.graph.min_width.value == 0.1);
  CHECK_FALSE(c.graph.min_width.percent);
  CHECK(c.graph.bg_bottom == "#eeeeb0");  // hot: yellow
  CHECK(c.color_mode == ColorMode::kSeeded);
}

TEST_CASE("flamesvg: values flamegraph.pl rejects are usage errors") {
  std::string err;
  for (std::vector<std::string> args :
       {std::vector<std::string>{"--minwidth", "1px"},
        {"--bgcolors", "pink"},
        {"--notes", "a<b"},
        {"--width", "abc"},
        {"--width", "20"},
        {"--max-frames", "0"},
        {"--factor", "0"},
        {"--factor", "-0.0"},
        {"--fontsize", "0"}}) {
    FlameSvgConfig c;
    std::string what = args[0] + " " + args[1];
    CHECK_MESSAGE(Parse(args, &c, &err) == ArgsResult::kUsageError, what);
  }
  FlameSvgConfig c;
  REQUIRE(Parse({"--factor", "0"}, &c, &err) == ArgsResult::kUsageError);
  CHECK(err == "--factor must not be 0 (the percentages divide by it)");
}

TEST_CASE("flamesvg: --total is used only when Perl would see it as true") {
  FlameSvgConfig c;
  std::string err;
  REQUIRE(Parse({"--total", "0"}, &c, &err) == ArgsResult::kRun);
  CHECK_FALSE(c.graph.min_width.has_total);
  FlameSvgConfig d;
  REQUIRE(Parse({"--total", "1e3"}, &d, &err) == ArgsResult::kRun);
  CHECK(d.graph.min_width.has_total);
  CHECK(d.graph.min_width.total == 1000);
  CHECK(d.graph.min_width.TimeMax(10) == 1000);
  CHECK(d.graph.min_width.TimeMax(5000) == 5000);
}

TEST_CASE("flamesvg: --colors mem picks the green background") {
  FlameSvgConfig c;
  std::string err;
  REQUIRE(Parse({"--colors", "mem", "--hash"}, &c, &err) ==
          ArgsResult::kRun);
  CHECK(c.graph.bg_top == "#eef2ee");
  CHECK(c.color_mode == ColorMode::kHash);
}

}  // namespace
}  // namespace flamefold

namespace flamefold {
namespace {

using testing::TempFile;

std::string Render(const std::string& text, FlameSvgStats* stats) {
  TempFile file(text);
  FlameSvgConfig config;
  config.inputs = {file.path};
  config.quiet = true;
  Diag diag("flamesvg");
  diag.set_quiet(true);
  StringSink out;
  CHECK(RunFlameSvg(config, &out, diag, stats) == kExitOk);
  return out.str();
}

TEST_CASE("flamesvg streams sorted input and sorts the rest first") {
  FlameSvgStats sorted_stats, unsorted_stats;
  std::string sorted = Render("a;b 1\na;c 2\nd 3\n", &sorted_stats);
  std::string unsorted = Render("d 3\na;c 2\na;b 1\n", &unsorted_stats);
  CHECK(sorted_stats.sorted_input);
  CHECK_FALSE(unsorted_stats.sorted_input);
  CHECK(sorted_stats.lines == 3);
  CHECK(unsorted_stats.lines == 3);
  CHECK(sorted == unsorted);
}

TEST_CASE("flamesvg: no counts give the error SVG and status 2") {
  TempFile file("no counts here\n");
  FlameSvgConfig config;
  config.inputs = {file.path};
  Diag diag("flamesvg");
  diag.set_quiet(true);
  StringSink out;
  CHECK(RunFlameSvg(config, &out, diag) == kExitUsage);
  CHECK(out.str().find("ERROR: No valid input") != std::string::npos);
}

}  // namespace
}  // namespace flamefold
