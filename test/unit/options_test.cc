// Options parse as Perl's Getopt::Long parses them, through Boost; a
// configuration file's settings go under them.
#include <doctest/doctest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "base/config_file.h"
#include "base/options.h"

using namespace flamefold;

namespace {

// A table like flamegraph.pl's and stackcollapse-perf.pl's, with options of
// our own beside the Perl script's.
OptionTable Table() {
  po::options_description perl;
  perl.add_options()
      ("pid", SwitchValue(), "process frame as comm-PID")
      ("kernel", SwitchValue(), "")
      ("jit", SwitchValue(), "")
      ("colors", TextValue("PALETTE"), "")
      ("countname", TextValue("TEXT"), "")
      ("cp", SwitchValue(), "")
      ("width", IntValue("NUM"), "")
      ("fontsize", RealValue("NUM"), "")
      ("event-filter", TextValue("EVENT"), "")
      ("inverted,icicle", SwitchValue(), "");
  po::options_description own;
  own.add_options()
      ("exclude", ListValue("REGEX"), "drop stacks matching REGEX")
      ("jobs,j", IntValue("N"), "")
      ("output,o", TextValue("FILE"), "")
      ("version,V", SwitchValue(), "print the version and exit")
      ("help", SwitchValue(), "");
  OptionTable table;
  table.AddPerl(perl).Add(own);
  return table;
}

bool Parse(std::vector<std::string> args, ParsedOptions* out,
           std::string* err, Syntax syntax = Syntax::kGetoptLong) {
  return ParseCommandLine(Table(), syntax, args, out, err);
}

// The message of a command line that fails.
std::string Error(std::vector<std::string> args,
                  Syntax syntax = Syntax::kGetoptLong) {
  ParsedOptions o;
  std::string err;
  CHECK_FALSE(Parse(args, &o, &err, syntax));
  return err;
}

}  // namespace

TEST_CASE("prefixes, single dashes, case, values and operands mixed") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"--k", "-PID", "a", "--color=java", "--width", "800", "b",
                 "--fontsize=10.5", "+cp", "--ICI"},
                &o, &err));
  CHECK(o.Flag("kernel"));
  CHECK(o.Flag("pid"));
  CHECK(o.Flag("cp"));
  CHECK(o.Flag("inverted"));
  CHECK_FALSE(o.Flag("jit"));
  CHECK_FALSE(o.Has("jit"));
  CHECK(o.Text("colors") == "java");
  CHECK(o.Int("width") == 800);
  CHECK(o.Real("fontsize", 0) == 10.5);
  CHECK(o.operands() == std::vector<std::string>{"a", "b"});
  CHECK(o.Text("countname", "samples") == "samples");
}

TEST_CASE("Perl names win a prefix: --e is --event-filter, --j is --jit") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"--e", "cycles", "--ex", "a", "--ex=b", "--j"}, &o, &err));
  CHECK(o.Text("event-filter") == "cycles");
  CHECK(o.List("exclude") == std::vector<std::string>{"a", "b"});
  CHECK(o.Flag("jit"));
  CHECK_FALSE(o.Has("jobs"));
  // Past one letter our names are prefixes too; one letter after a single
  // dash is our one-letter name first.
  ParsedOptions p;
  REQUIRE(Parse({"--jo", "3", "-j", "4"}, &p, &err));
  CHECK(p.Int("jobs") == 4);
  CHECK_FALSE(p.Flag("jit"));
}

TEST_CASE("usage errors carry Getopt::Long's messages") {
  CHECK(Error({"--c", "x"}) == "Option c is ambiguous (colors, countname, cp)");
  CHECK(Error({"--nope"}) == "Unknown option: nope");
  CHECK(Error({"-NoPe"}) == "Unknown option: nope");
  CHECK(Error({"--width=abc"}) ==
        "Value \"abc\" invalid for option width (number expected)");
  CHECK(Error({"--wid", "1.5"}) ==
        "Value \"1.5\" invalid for option width (number expected)");
  CHECK(Error({"--width", "99999999999999999999"}) ==
        "Value \"99999999999999999999\" invalid for option width (number "
        "expected)");
  CHECK(Error({"--fontsize", "x1"}) ==
        "Value \"x1\" invalid for option fontsize (real number expected)");
  CHECK(Error({"--pi=1"}) == "Option pid does not take an argument");
  CHECK(Error({"--countname"}) == "Option countname requires an argument");
  CHECK(Error({"--width=", "5"}) == "Option width requires an argument");
  // Every bad word is named, as Getopt::Long warns of each.
  CHECK(Error({"--nope", "a", "--c", "--zap"}) ==
        "Unknown option: nope\nOption c is ambiguous (colors, countname, "
        "cp)\nUnknown option: zap");
  CHECK(Error({"--nope", "--width=x"}) ==
        "Unknown option: nope\nValue \"x\" invalid for option width (number "
        "expected)");
}

TEST_CASE("a required value takes whatever follows; numbers are Perl's") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"--colors", "-V", "--output", "--pid", "--width", "1_200",
                 "--fontsize", ".5e1", "--jobs", "+3"},
                &o, &err));
  CHECK(o.Text("colors") == "-V");
  CHECK_FALSE(o.Flag("version"));
  CHECK(o.Text("output") == "--pid");
  CHECK_FALSE(o.Flag("pid"));
  CHECK(o.Int("width") == 1200);
  CHECK(o.Real("fontsize", 0) == 5);
  CHECK(o.Int("jobs") == 3);
}

TEST_CASE("a value given again replaces the last; a repeatable keeps all") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"--width", "1", "--pid", "--width=2", "--pid", "--exclude",
                 "x", "--exclude", "x"},
                &o, &err));
  CHECK(o.Int("width") == 2);
  CHECK(o.Flag("pid"));
  CHECK(o.List("exclude") == std::vector<std::string>{"x", "x"});
}

TEST_CASE("-- ends options; - is stdin") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"-", "--", "--pid", "-"}, &o, &err));
  CHECK(o.operands() == std::vector<std::string>{"-", "--pid", "-"});
  CHECK_FALSE(o.Flag("pid"));
}

TEST_CASE("-v is not --version: one letter abbreviates Perl names only, "
          "one-letter names match as spelled") {
  CHECK(Error({"-v"}) == "Unknown option: v");
  CHECK(Error({"-O", "x"}) == "Unknown option: o");  // lower case, as Perl
  CHECK(Error({"--v"}) == "Unknown option: v");
  ParsedOptions ok;
  std::string err;
  REQUIRE(Parse({"-V", "-k", "--vers", "-o", "x", "-j2"}, &ok, &err));
  CHECK(ok.Flag("version"));
  CHECK(ok.Flag("kernel"));
  CHECK(ok.Text("output") == "x");
  CHECK(ok.Int("jobs") == 2);
  ParsedOptions glued;
  REQUIRE(Parse({"-oout.svg"}, &glued, &err));
  CHECK(glued.Text("output") == "out.svg");
}

TEST_CASE("Getopt::Std: -ns is -n -s, long names after --, options after "
          "operands") {
  po::options_description letters, own;
  letters.add_options()(",n", SwitchValue(), "")(",s", SwitchValue(), "");
  own.add_options()("top", IntValue("N"), "")("help,h", SwitchValue(), "");
  OptionTable table;
  table.AddPerl(letters).Add(own);
  po::options_description fold;  // a Perl name that -s is a prefix of
  fold.add_options()("srcline", SwitchValue(), "");
  table.AddPerl(fold);
  ParsedOptions o;
  std::string err;
  REQUIRE(ParseCommandLine(table, Syntax::kGetoptStd,
                           {"a", "-ns", "b", "--to", "5", "-", "+c", "-h"},
                           &o, &err));
  CHECK(o.Flag("-n"));
  CHECK(o.Flag("-s"));
  CHECK(o.Flag("help"));
  CHECK(o.Int("top") == 5);
  CHECK(o.operands() == std::vector<std::string>{"a", "b", "-", "+c"});
  // The letters are the Perl script's own: exact, they beat a prefix.
  ParsedOptions s;
  REQUIRE(ParseCommandLine(table, Syntax::kGetoptStd, {"--s"}, &s, &err));
  CHECK(s.Flag("-s"));
  CHECK_FALSE(s.Flag("srcline"));
  ParsedOptions bad;
  CHECK_FALSE(
      ParseCommandLine(table, Syntax::kGetoptStd, {"-nx", "-top"}, &bad, &err));
  CHECK(err == "Unknown option: x\nUnknown option: t\nUnknown option: o\n"
               "Unknown option: p");
}

TEST_CASE("pass-through: names in full only; the rest kept in order") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"--col=java", "--jobs", "2", "dir", "--wid", "5",
                 "--PID", "-j3", "-j", "4", "--", "--pid"},
                &o, &err, Syntax::kPassThrough));
  CHECK(o.Int("jobs") == 4);
  CHECK(o.Flag("pid"));
  CHECK_FALSE(o.Has("colors"));
  CHECK(o.operands() == std::vector<std::string>{"--col=java", "dir", "--wid",
                                                 "5", "-j3", "--", "--pid"});
}

TEST_CASE("--help lines come from the description") {
  OptionTable table = Table();
  std::string help = FormatOptionHelp(table.all());
  CHECK(help ==
        "  --pid                     process frame as comm-PID\n"
        "  --exclude REGEX           drop stacks matching REGEX\n"
        "  --version, -V             print the version and exit\n");
  po::options_description letter_first;
  letter_first.add_options()("o,outdir", TextValue("OUTDIR"), "where")(
      ",n", SwitchValue(), "scale")("a-very-long-option-name", IntValue("N"),
                                    "long");
  CHECK(FormatOptionHelp(letter_first) ==
        "  -o, --outdir OUTDIR       where\n"
        "  -n                        scale\n"
        "  --a-very-long-option-name N\n"
        "                            long\n");
}

namespace {

constexpr std::string_view kTools[] = {"flamefold", "flamesvg"};
constexpr std::string_view kCommandLineOnly[] = {"help", "version"};

bool Read(const std::string& text, std::string_view tool, ConfigSection* out,
          std::string* err) {
  std::istringstream in(text);
  return ReadConfigSection(in, "cfg", tool, kTools, out, err);
}

std::string ConfigError(const std::string& text) {
  ConfigSection section;
  std::string err;
  CHECK_FALSE(Read(text, "flamesvg", &section, &err));
  return err;
}

}  // namespace

TEST_CASE("config file: a tool's section, with line numbers") {
  ConfigSection section;
  std::string err;
  REQUIRE(Read("# settings\n"
               "[flamefold]\n"
               "modern = true\n"
               "\n"
               "[flamesvg]\n"
               "  colors =  java  \n"
               "   # the JVM's\n"
               "exclude=a\r\n"
               "exclude = b#c\n"
               "bgcolors = #eeeeee\n",
               "flamesvg", &section, &err));
  CHECK(section.path == "cfg");
  REQUIRE(section.settings.size() == 4);
  CHECK(section.settings[0].line == 6);
  CHECK(section.settings[0].key == "colors");
  CHECK(section.settings[0].value == "java");
  CHECK(section.settings[1].value == "a");
  CHECK(section.settings[2].line == 9);
  CHECK(section.settings[2].value == "b#c");
  CHECK(section.settings[3].key == "bgcolors");
  CHECK(section.settings[3].value == "#eeeeee");
}

TEST_CASE("config file: bad lines are named by file and line") {
  CHECK(ConfigError("[flamesvg]\ncolors java\n") ==
        "cfg:2: 'colors java' is neither KEY = VALUE nor [SECTION]");
  CHECK(ConfigError("\ncolors = java\n") ==
        "cfg:2: 'colors' is not under a [tool] section");
  CHECK(ConfigError("[flamesvgg]\n\ncolors = java\n") ==
        "cfg:3: [flamesvgg] names no tool (flamefold, flamesvg)");
  CHECK(ConfigError("[flamesvg]\n[flamesvg\n") ==
        "cfg:2: '[flamesvg' is neither KEY = VALUE nor [SECTION]");
  CHECK(ConfigError("[flamesvg] # mine\n") ==
        "cfg:1: '[flamesvg] # mine' is neither KEY = VALUE nor [SECTION]");
  CHECK(ConfigError("[flamesvg]\ncolors = ja\x01va\xff\n") ==
        "cfg:2: 'colors = ja\\x01va\\xff' holds a control character");
  CHECK(ConfigError(std::string("[flamesvg]\n\0\n", 13)) ==
        "cfg:2: '\\x00' holds a control character");
}

TEST_CASE("config file: the command line wins; values are checked") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"--width", "900", "--exclude", "cli"}, &o, &err));
  ConfigSection section;
  REQUIRE(Read("[flamesvg]\nwidth = 100\ncolors = java\nexclude = file\n"
               "pid = yes\nicicle = no\nsomething = 1\n",
               "flamesvg", &section, &err));
  std::vector<ConfigSetting> unknown;
  REQUIRE(StoreConfigSettings(section, Table().all(), kCommandLineOnly, &o,
                              &unknown, &err));
  CHECK(o.Int("width") == 900);
  CHECK(o.Text("colors") == "java");
  CHECK(o.List("exclude") == std::vector<std::string>{"cli"});
  CHECK(o.Flag("pid"));
  CHECK(o.Has("inverted"));
  CHECK_FALSE(o.Flag("inverted"));
  REQUIRE(unknown.size() == 1);
  CHECK(unknown[0].key == "something");
  CHECK(unknown[0].line == 7);

  auto store_error = [&](const std::string& text) {
    ParsedOptions fresh;
    ConfigSection s;
    REQUIRE(Read(text, "flamesvg", &s, &err));
    CHECK_FALSE(StoreConfigSettings(s, Table().all(), kCommandLineOnly,
                                    &fresh, nullptr, &err));
    return err;
  };
  CHECK(store_error("[flamesvg]\nexclude = a\nexclude = b\nwidth = wide\n") ==
        "cfg:4: Value \"wide\" invalid for option width (number expected)");
  CHECK(store_error("[flamesvg]\npid = maybe\n") ==
        "cfg:2: Value \"maybe\" invalid for option pid (true, false, yes, "
        "no, 1 or 0 expected)");
  CHECK(store_error("[flamesvg]\ncolours = java\n") ==
        "cfg:2: unknown option 'colours' in [flamesvg]");
  CHECK(store_error("[flamesvg]\nhelp = true\n") ==
        "cfg:2: help cannot be set in a configuration file");
  CHECK(store_error("[flamesvg]\nj = 2\n") ==
        "cfg:2: unknown option 'j' in [flamesvg]");
}

TEST_CASE("config file: repeated in the file, a repeatable keeps all") {
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({}, &o, &err));
  ConfigSection section;
  REQUIRE(Read("[flamesvg]\nexclude = a\nwidth = 1\nexclude = b\nwidth = 2\n",
               "flamesvg", &section, &err));
  REQUIRE(StoreConfigSettings(section, Table().all(), kCommandLineOnly, &o,
                              nullptr, &err));
  CHECK(o.List("exclude") == std::vector<std::string>{"a", "b"});
  CHECK(o.Int("width") == 2);
}

TEST_CASE("config file: $XDG_CONFIG_HOME, else $HOME/.config") {
  // Puts a variable back as it was.
  auto keep = [](const char* name) {
    const char* value = std::getenv(name);
    return [name, saved = std::string(value ? value : ""),
            was = value != nullptr] {
      if (was) {
        setenv(name, saved.c_str(), 1);
      } else {
        unsetenv(name);
      }
    };
  };
  auto restore_xdg = keep("XDG_CONFIG_HOME");
  auto restore_home = keep("HOME");
  setenv("XDG_CONFIG_HOME", "/x", 1);
  setenv("HOME", "/h", 1);
  CHECK(DefaultConfigPath() == "/x/flamefold/config");
  setenv("XDG_CONFIG_HOME", "relative", 1);  // XDG: not absolute, ignored
  CHECK(DefaultConfigPath() == "/h/.config/flamefold/config");
  unsetenv("XDG_CONFIG_HOME");
  CHECK(DefaultConfigPath() == "/h/.config/flamefold/config");
  unsetenv("HOME");
  CHECK(DefaultConfigPath() == "");
  restore_xdg();
  restore_home();
}

TEST_CASE("InOrder: the file's settings, then the command line's, in order") {
  using G = ParsedOptions::Given;
  constexpr std::string_view kOrdered[] = {"exclude", "pid", "kernel"};
  ParsedOptions o;
  std::string err;
  REQUIRE(Parse({"--k", "--exclude=b", "--width", "3", "--exc", "c", "x"}, &o,
                &err));
  ConfigSection section;
  REQUIRE(Read("[flamesvg]\nexclude = file\npid = yes\nkernel = no\n"
               "jit = 1\n",
               "flamesvg", &section, &err));
  REQUIRE(StoreConfigSettings(section, Table().all(), kCommandLineOnly, &o,
                              nullptr, &err));
  // The file's exclude is replaced by the command line's; its pid stays,
  // first; kernel = no is no step; jit and width are not asked for.
  CHECK(o.InOrder(kOrdered) == std::vector<G>{{"pid", ""},
                                              {"kernel", ""},
                                              {"exclude", "b"},
                                              {"exclude", "c"}});

  ParsedOptions file_only;
  REQUIRE(Parse({}, &file_only, &err));
  REQUIRE(StoreConfigSettings(section, Table().all(), kCommandLineOnly,
                              &file_only, nullptr, &err));
  CHECK(file_only.InOrder(kOrdered) ==
        std::vector<G>{{"exclude", "file"}, {"pid", ""}});
}
