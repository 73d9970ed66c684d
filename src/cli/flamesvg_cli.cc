#include "cli/flamesvg_cli.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "base/options.h"
#include "cli/stack_limit_options.h"
#include "flamegraph/svg_text.h"

namespace flamefold {
namespace {

// flamegraph.pl's options.
po::options_description PerlOptions() {
  po::options_description options;
  options.add_options()
      ("title", TextValue("TEXT"),
       "title (default \"Flame Graph\", \"Icicle Graph\", \"Flame Chart\")")
      ("subtitle", TextValue("TEXT"), "second title line")
      ("width", IntValue("NUM"), "image width in pixels (default 1200)")
      ("height", IntValue("NUM"),
       "height of a frame row in pixels (default 16)")
      ("minwidth", TextValue("NUM[%]"),
       "leave out frames narrower than NUM pixels, or NUM% of the total "
       "(default 0.1)")
      ("fonttype", TextValue("FONT"), "font family (default Verdana)")
      ("fontsize", RealValue("NUM"), "font size in pixels (default 12)")
      ("fontwidth", RealValue("NUM"),
       "average glyph width as a fraction of the size (default 0.59)")
      ("countname", TextValue("TEXT"),
       "unit of the counts (default \"samples\")")
      ("nametype", TextValue("TEXT"),
       "label before a hovered frame's name (default \"Function:\")")
      ("nameattr", TextValue("FILE"),
       "per-function attributes: NAME<TAB>key=value... (title, href, id, "
       "class, target, g_extra, a_extra)")
      ("total", TextValue("NUM"),
       "total count for widths and percentages, when above the input's sum")
      ("factor", RealValue("NUM"),
       "multiply the counts shown by NUM (default 1)")
      ("encoding", TextValue("NAME"),
       "encoding named in the XML declaration (the bytes stay UTF-8)")
      ("colors", TextValue("PALETTE"),
       "hot (default), mem, io, wakeup, chain, java, js, perl, red, green, "
       "blue, aqua, yellow, purple, orange")
      ("bgcolors", TextValue("COLOR"),
       "background: yellow, blue, green, grey or #rrggbb (default by "
       "palette)")
      ("hash", SwitchValue(),
       "colour by a hash of the name (the same name keeps its colour)")
      ("random", SwitchValue(), "random colours")
      ("cp", SwitchValue(),
       "consistent palette: reuse and extend the colours of palette.map")
      ("reverse", SwitchValue(),
       "reverse every stack (the leaves become the roots)")
      ("inverted,icicle", SwitchValue(), "icicle graph: the root at the top")
      ("flamechart", SwitchValue(),
       "flame chart: keep the input order instead of sorting")
      ("negate", SwitchValue(), "differential graphs: swap red and blue")
      ("notes", TextValue("TEXT"), "text for a comment in the SVG")
      ("help", SwitchValue(), "show this help");
  return options;
}

// Ours.
po::options_description OwnOptions() {
  po::options_description options;
  options.add_options()
      ("palfile", TextValue("FILE"),
       "palette map file for --cp (default palette.map)")
      ("max-frames", IntValue("N"),
       "keep only the N widest frames (narrower ones stay in their parents)");
  return options;
}

po::options_description OutputOptions() {
  po::options_description options;
  options.add_options()
      ("output,o", TextValue("FILE"),
       "write the SVG to FILE instead of standard output")
      ("quiet,q", SwitchValue(), "no warnings")
      ("version,V", SwitchValue(), "print the version");
  return options;
}

bool ParseMinWidth(const std::string& text, MinWidth* mw) {
  std::string_view s = text;
  bool percent = !s.empty() && s.back() == '%';
  if (percent) s.remove_suffix(1);
  if (s.empty()) return false;
  for (char c : s) {
    if (!(c >= '0' && c <= '9') && c != '.') return false;
  }
  mw->value = PerlNumify(s);
  mw->percent = percent;
  return true;
}

// An option's number as an int, which the checks below then refuse when it
// was out of range.
int ClampToInt(long long n) {
  return static_cast<int>(std::clamp<long long>(n, INT_MIN, INT_MAX));
}

// Perl's truth of a string: "" and "0" are false.
bool PerlTrue(const std::string& s) { return !s.empty() && s != "0"; }

}  // namespace

OptionTable FlameSvgOptions() {
  OptionTable table;
  table.AddPerl(PerlOptions())
      .Add(OwnOptions())
      .Add(StackLimitOptions({StackLimitOption::kMaxStackDepth,
                              StackLimitOption::kMaxLineLength,
                              StackLimitOption::kMaxFrameLength}))
      .Add(OutputOptions());
  return table;
}

bool FillFlameSvgConfig(const ParsedOptions& o, FlameSvgConfig* config,
                        std::string* err) {
  FlameGraphOptions& g = config->graph;
  g.title = o.Text("title");
  g.subtitle = o.Text("subtitle");
  g.width = ClampToInt(o.Int("width", 1200));
  g.frame_height = ClampToInt(o.Int("height", 16));
  g.font_type = o.Text("fonttype", "Verdana");
  g.font_size = o.Real("fontsize", 12);
  g.font_width = o.Real("fontwidth", 0.59);
  g.count_name = o.Text("countname", "samples");
  g.name_type = o.Text("nametype", "Function:");
  g.factor = o.Real("factor", 1);
  g.palette = o.Text("colors", "hot");
  g.inverted = o.Flag("inverted");
  g.flamechart = o.Flag("flamechart");
  g.negate = o.Flag("negate");
  g.notes = o.Text("notes");
  g.encoding = o.Text("encoding");
  if (g.width <= 20) {
    *err = "--width must be more than 20 pixels";
    return false;
  }
  // Each tooltip's percentage divides by the total times the factor:
  // flamegraph.pl dies of the division by zero, its SVG unwritten; a usage
  // error says so rather than drawing "-nan%".
  if (g.factor == 0) {
    *err = "--factor must not be 0 (the percentages divide by it)";
    return false;
  }
  if (g.frame_height < 1 || g.font_size <= 0 || g.font_width <= 0) {
    *err = "--height must be at least 1, --fontsize and --fontwidth above 0";
    return false;
  }
  if (g.notes.find_first_of("<>") != std::string::npos) {
    *err = "--notes may not contain < or >";
    return false;
  }
  std::string minwidth = o.Text("minwidth", "0.1");
  if (!ParseMinWidth(minwidth, &g.min_width)) {
    *err = "invalid --minwidth '" + minwidth + "': expected NUM or NUM%";
    return false;
  }
  g.min_width.frame_pixels = g.width - 20;
  std::string total = o.Text("total");
  if (PerlTrue(total)) {
    g.min_width.has_total = true;
    g.min_width.total = PerlNumify(total);
  }
  if (!BackgroundColors(o.Text("bgcolors"), g.palette, &g.bg_top,
                        &g.bg_bottom)) {
    *err = "unknown --bgcolors '" + o.Text("bgcolors") +
           "': expected yellow, blue, green, grey or #rrggbb";
    return false;
  }
  if (o.Flag("hash")) {
    config->color_mode = ColorMode::kHash;
  } else if (o.Flag("random")) {
    config->color_mode = ColorMode::kRandom;
  }
  config->reverse = o.Flag("reverse");
  config->use_palette_map = o.Flag("cp");
  config->palette_file = o.Text("palfile", "palette.map");
  if (!ParseStackLimits(o, &config->limits, err)) {
    return false;
  }
  if (o.Has("max-frames")) {
    long long n = o.Int("max-frames");
    if (n < 1) {
      *err = "--max-frames must be at least 1";
      return false;
    }
    config->max_frames = static_cast<size_t>(n);
  }
  config->output = o.Text("output");
  config->quiet = o.Flag("quiet");
  config->inputs = o.operands();
  std::string attr_file = o.Text("nameattr");
  if (PerlTrue(attr_file) && !ReadNameAttrs(attr_file, &g.name_attrs, err)) {
    return false;
  }
  return true;
}

// flamesvg's own table: with --config and --no-config.
static OptionTable ToolOptions() {
  OptionTable table = FlameSvgOptions();
  table.Add(ConfigFileOptions());
  return table;
}

ArgsResult ParseFlameSvgArgs(int argc, char** argv, FlameSvgConfig* config,
                             std::string* err) {
  ParsedOptions opts;
  ArgsResult result = ParseToolArgs("flamesvg", ToolOptions(),
                                    Syntax::kGetoptLong, argc, argv, &opts,
                                    err);
  if (result == ArgsResult::kRun && !FillFlameSvgConfig(opts, config, err)) {
    return ArgsResult::kUsageError;
  }
  return result;
}

std::string FlameSvgHelp() {
  return "Usage: flamesvg [OPTIONS] [FILE...] > graph.svg\n"
         "Draws folded stacks (\"frame;frame;frame COUNT\" lines, or two "
         "counts for a\ndifferential graph) as an interactive flame graph "
         "SVG, as flamegraph.pl\ndoes. Reads standard input when no FILE is "
         "given (\"-\" also means it);\ngzip and zstd input is decompressed.\n"
         "\nOptions (abbreviations and single dashes work):\n" +
         FormatOptionHelp(ToolOptions().all()) +
         "\nExit status: 0 success, 1 input or output error, 2 usage error "
         "or no valid input.\n"
         "Example: flamefold perf.txt | flamesvg --title=\"My app\" > "
         "app.svg\n";
}

}  // namespace flamefold
