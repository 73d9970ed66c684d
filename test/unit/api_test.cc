// The C++ API (include/flamefold/), linked as a program links it: only
// libflamefold and its public headers. Its output must be what the tools
// print: the folds are compared with the golden files of
// test/golden/flamefold.sh and perf-data.sh, the drawings with flamesvg's
// output byte for byte and with flamegraph.pl's frames (flamesvg.sh's
// expectations).
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "flamefold/flamefold.h"

namespace api = flamefold::api;

namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  REQUIRE_MESSAGE(v != nullptr, name << " is not set (meson test sets it)");
  return v;
}

std::string Data(const std::string& rel) { return Env("TESTDATA") + "/" + rel; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// What `command` prints on stdout (its stderr is dropped).
std::string Run(const std::string& command) {
  FILE* p = popen((command + " 2>/dev/null").c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

std::string Fold(const std::vector<api::Input>& inputs,
                 const api::FoldOptions& options = {}) {
  api::FoldedStacks stacks;
  api::Status status = api::Fold(inputs, options, &stacks);
  REQUIRE_MESSAGE(status.ok(), status.message());
  return std::string(stacks.text());
}

api::FoldOptions PerfDataOptions(const std::string& dir) {
  api::FoldOptions o;
  o.symfs = Data("perf-data/root");
  o.kallsyms = Data("perf-data/" + dir + "/kallsyms");
  return o;
}

// The frames' <title>s (name, count, share), sorted: what flamegraph.pl's
// drawing and ours must both hold. Each program's script is left out.
std::vector<std::string> Titles(std::string svg) {
  size_t script = svg.find("<script");
  if (script != std::string::npos) {
    svg.erase(script, svg.find("</script>", script) - script);
  }
  std::vector<std::string> titles;
  for (size_t at = 0; (at = svg.find("<title>", at)) != std::string::npos;) {
    size_t end = svg.find("</title>", at);
    titles.push_back(svg.substr(at, end - at));
    at = end;
  }
  std::sort(titles.begin(), titles.end());
  return titles;
}

}  // namespace

TEST_CASE("Fold: perf script text as stackcollapse-perf.pl, with its options") {
  std::string in = Data("perf-script/cxx-fp.txt");
  std::string want = Data("expected/flamefold/cxx-fp-collapsed-");
  CHECK(Fold({api::Input::File(in)}) == ReadFile(want + "none.txt"));
  api::FoldOptions o;
  o.pid = true;
  CHECK(Fold({api::Input::File(in)}, o) == ReadFile(want + "pid.txt"));
  o = {};
  o.all = true;
  CHECK(Fold({api::Input::File(in)}, o) == ReadFile(want + "all.txt"));
  o = {};
  o.addrs = true;
  o.jobs = 3;
  CHECK(Fold({api::Input::File(in)}, o) == ReadFile(want + "addrs.txt"));
}

TEST_CASE("Fold: byte buffers, gzip and zstd told by their magic bytes") {
  std::string want =
      ReadFile(Data("expected/flamefold/cxx-fp-collapsed-kernel.txt"));
  api::FoldOptions o;
  o.kernel = true;
  for (const char* name : {"cxx-fp.txt", "cxx-fp.txt.gz", "cxx-fp.txt.zst"}) {
    std::string bytes = ReadFile(Data(std::string("perf-script/") + name));
    CHECK_MESSAGE(Fold({api::Input::Buffer("profile", bytes)}, o) == want,
                  name);
  }
}

TEST_CASE("Fold: folded input comes back as it was") {
  std::string folded =
      ReadFile(Data("expected/flamefold/cxx-dwarf-collapsed-tid.txt"));
  CHECK(Fold({api::Input::Buffer("stacks", folded)}) == folded);
}

TEST_CASE("Fold: perf.data, from a file and from a buffer") {
  std::string dir = "perf-data/system-wide/";
  std::string data = Data(dir + "perf.data");
  CHECK(Fold({api::Input::File(data)}, PerfDataOptions("system-wide")) ==
        ReadFile(Data(dir + "default.folded")));
  api::FoldOptions o = PerfDataOptions("system-wide");
  o.kernel = true;
  std::string bytes = ReadFile(data);
  CHECK(Fold({api::Input::Buffer("recording", bytes)}, o) ==
        ReadFile(Data(dir + "kernel.folded")));
  o = PerfDataOptions("fp-user");
  o.pid = true;
  CHECK(Fold({api::Input::File(Data("perf-data/fp-user/perf.data"))}, o) ==
        ReadFile(Data("perf-data/fp-user/pid.folded")));
}

TEST_CASE("Fold: --weight counts a tracepoint field of each sample") {
  std::string dir = "perf-data/weight-malloc/";
  api::FoldOptions o;
  o.symfs = Data(dir + "root");
  o.kallsyms = Data(dir + "kallsyms");
  std::string want = ReadFile(Data(dir + "weight=bytes.folded"));
  CHECK(Fold({api::Input::File(Data(dir + "perf.data"))}, o) != want);
  o.weight = "bytes";
  CHECK(Fold({api::Input::File(Data(dir + "perf.data"))}, o) == want);
  CHECK(Fold({api::Input::File(Data(dir + "script.txt.gz"))}, o) == want);
  o.weight = "no_such_field";
  api::FoldedStacks stacks;
  CHECK_FALSE(
      api::Fold({api::Input::File(Data(dir + "perf.data"))}, o, &stacks).ok());
}

TEST_CASE("FoldedStacks: each line's stack, count and frames") {
  api::FoldedStacks stacks;
  api::Status status = api::Fold(
      {api::Input::Buffer("in", "b;c 2\na;b 1\nb;c 3\nx 1.5\n")}, {}, &stacks);
  REQUIRE(status.ok());
  REQUIRE(stacks.size() == 3);
  CHECK(stacks.text() == "a;b 1\nb;c 5\nx 1.5\n");
  CHECK(stacks[1].stack == "b;c");
  CHECK(stacks[1].count == "5");
  CHECK(stacks[1].frames() == std::vector<std::string_view>{"b", "c"});
  CHECK(stacks[2].count == "1.5");
  CHECK(stacks[2].frames() == std::vector<std::string_view>{"x"});
}

TEST_CASE("Fold: --include and --exclude, as flamefold filters") {
  api::FoldOptions o;
  o.include = {"^a"};
  o.exclude = {"z$"};
  CHECK(Fold({api::Input::Buffer("in", "a;b 1\na;z 1\nc;d 2\n")}, o) ==
        "a;b 1\n");
}

TEST_CASE("Fold: errors are statuses naming the input") {
  api::FoldedStacks stacks;
  api::Status s = api::Fold({api::Input::File("/nonexistent/p.txt")}, {},
                            &stacks);
  CHECK(s.code() == api::StatusCode::kDataError);
  CHECK(s.message() == "/nonexistent/p.txt: No such file or directory");
  s = api::Fold({api::Input::Buffer("junk", "hello\nworld\n")}, {}, &stacks);
  CHECK(s.code() == api::StatusCode::kDataError);
  CHECK(s.message().rfind("junk: no samples found: 2 line(s)", 0) == 0);
  CHECK(s.message().find("first: junk:1: ") != std::string::npos);
  CHECK(stacks.empty());
  api::FoldOptions o;
  o.include = {"("};
  s = api::Fold({}, o, &stacks);
  CHECK(s.code() == api::StatusCode::kUsageError);
  CHECK(s.message().find("--include") != std::string::npos);
  s = api::Fold({api::Input::Buffer("a", "x 1\n"),
                 api::Input::Buffer("a", "y 1\n")}, {}, &stacks);
  CHECK(s.code() == api::StatusCode::kUsageError);
}

TEST_CASE("Fold: warnings go to the handler, and -q silences them") {
  std::vector<std::string> lines;
  api::FoldOptions o;
  o.on_message = [&](std::string_view line) { lines.emplace_back(line); };
  std::string in = Data("perf-script/cxx-two-events.txt");
  Fold({api::Input::File(in)}, o);
  REQUIRE(lines.size() == 3);  // the event skipped, the Perl script's quirks
  CHECK(lines[0].rfind("flamefold: warning: kept only samples of '", 0) == 0);
  CHECK(lines[1].find("(--modern fixes this)") != std::string::npos);
  lines.clear();
  o.quiet = true;
  Fold({api::Input::File(in)}, o);
  CHECK(lines.empty());
}

TEST_CASE("RenderSvg: what flamesvg draws, with flamegraph.pl's frames") {
  struct Case {
    std::string name;
    std::vector<std::string> args;  // flamesvg's, the input last
    api::SvgOptions options;
  };
  api::SvgOptions mem, chart, pixels, factor;
  mem.colors = "mem";
  chart.flamechart = true;
  chart.inverted = true;
  chart.subtitle = "sub";
  pixels.minwidth = "30";
  factor.factor = 2.5;
  std::vector<Case> cases = {
      {"fractional", {"fractional.folded"}, {}},
      {"colors-mem", {"--colors", "mem", "palettes.folded"}, mem},
      {"flamechart-inverted",
       {"--flamechart", "--inverted", "--subtitle", "sub", "palettes.folded"},
       chart},
      {"minwidth-pixels", {"--minwidth", "30", "palettes.folded"}, pixels},
      {"factor", {"--factor", "2.5", "fractional.folded"}, factor},
  };
  std::string dir = Data("flamesvg/");
  for (Case& c : cases) {
    std::string command = "'" + Env("FLAMESVG") + "'";
    for (const std::string& a : c.args) command += " '" + a + "'";
    std::string tool = Run("cd '" + dir + "' && " + command);
    std::string svg;
    c.options.quiet = true;
    api::Status s = api::RenderSvg(
        {api::Input::File(dir + c.args.back())}, c.options, &svg);
    REQUIRE_MESSAGE(s.ok(), c.name << ": " << s.message());
    CHECK_MESSAGE(svg == tool, c.name);
    CHECK_MESSAGE(Titles(svg) ==
                      Titles(ReadFile(dir + "expected/" + c.name + ".svg")),
                  c.name);
  }
}

TEST_CASE("RenderSvg: folded stacks in memory, into a string or a callback") {
  std::string in = Data("perf-script/cxx-fp.txt");
  api::FoldedStacks stacks;
  REQUIRE(api::Fold({api::Input::File(in)}, {}, &stacks).ok());
  api::SvgOptions o;
  o.title = "cxx";
  o.width = 800;
  std::string svg;
  REQUIRE(api::RenderSvg(stacks, o, &svg).ok());
  CHECK(svg == Run("'" + Env("FLAMEFOLD") + "' '" + in + "' | '" +
                   Env("FLAMESVG") + "' --title cxx --width 800"));
  std::string pieces;
  api::Status s = api::RenderSvg(stacks, o, [&](std::string_view bytes) {
    pieces.append(bytes);
    return true;
  });
  CHECK(s.ok());
  CHECK(pieces == svg);
  s = api::RenderSvg(stacks, o, [](std::string_view) { return false; });
  CHECK(s.code() == api::StatusCode::kDataError);
  CHECK(s.message() == "write error: the output callback stopped");
}

TEST_CASE("RenderSvg: no counts, bad options") {
  std::string svg;
  api::SvgOptions o;
  o.quiet = true;
  api::Status s = api::RenderSvg(api::FoldedStacks(), o, &svg);
  CHECK(s.code() == api::StatusCode::kUsageError);
  CHECK(s.message() == "no stack counts in the input");
  CHECK(svg.find("ERROR: No valid input provided") != std::string::npos);
  o.width = -5;
  o.minwidth = "abc";
  s = api::RenderSvg(api::FoldedStacks(), o, &svg);
  CHECK(s.code() == api::StatusCode::kUsageError);
  CHECK(!s.message().empty());
}

TEST_CASE("Version: the tools' version") {
  CHECK(Run("'" + Env("FLAMEFOLD") + "' --version") ==
        std::string("flamefold ") + api::Version() + "\n");
}

TEST_CASE("Fold: separate calls on separate threads at once") {
  std::string bytes = ReadFile(Data("perf-script/cxx-dwarf.txt"));
  std::string want = ReadFile(Data("expected/flamefold/cxx-dwarf-collapsed-all.txt"));
  std::vector<std::string> got(4);
  std::vector<std::thread> threads;
  for (std::string& out : got) {
    threads.emplace_back([&bytes, &out] {
      api::FoldOptions o;
      o.all = true;
      o.quiet = true;
      api::FoldedStacks stacks;
      if (api::Fold({api::Input::Buffer("in", bytes)}, o, &stacks).ok()) {
        out = stacks.text();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::string& out : got) CHECK(out == want);
}

struct sigaction SigbusAction() {
  struct sigaction sa;
  sigaction(SIGBUS, nullptr, &sa);
  return sa;
}
// Read before any test runs.
const struct sigaction kSigbusAtStart = SigbusAction();

// The tools read large files in place, with a SIGBUS handler for one
// truncated meanwhile; the library reads them (a truncated file is then a
// short read, not the end of its host process) and installs no handler.
TEST_CASE("Fold: a large file is read, and no signal handler is installed") {
  const std::string one = ReadFile(Data("perf-script/cxx-fp.txt"));
  std::string big;
  while (big.size() < (3u << 20)) big += one + "\n";
  char name[] = "/tmp/flamefold_api_bigXXXXXX";
  int fd = mkstemp(name);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, big.data(), big.size()) == static_cast<ssize_t>(big.size()));
  close(fd);
  const std::string from_file = Fold({api::Input::File(name)});
  const std::string from_buffer = Fold({api::Input::Buffer("big", big)});
  unlink(name);
  CHECK(!from_file.empty());
  CHECK(from_file == from_buffer);
  struct sigaction now;
  REQUIRE(sigaction(SIGBUS, nullptr, &now) == 0);
  // As it was when this program started (a sanitizer may have set one):
  // no fold of this program's tests, files and perf.data included, has
  // installed a handler.
  CHECK(now.sa_flags == kSigbusAtStart.sa_flags);
  CHECK(reinterpret_cast<uintptr_t>(now.sa_sigaction) ==
        reinterpret_cast<uintptr_t>(kSigbusAtStart.sa_sigaction));
}
