#include "cli/flamesvg_cli.h"

#include <cstdlib>

#include "base/options.h"
#include "cli/stack_limit_options.h"
#include "flamegraph/svg_text.h"

namespace flamefold {
namespace {

// flamegraph.pl's options first (perl = true: they win abbreviations),
// then ours.
constexpr OptionSpec kSpecs[] = {
    {"title", OptType::kString, true, false, "TEXT",
     "title (default \"Flame Graph\", \"Icicle Graph\", \"Flame Chart\")"},
    {"subtitle", OptType::kString, true, false, "TEXT", "second title line"},
    {"width", OptType::kInt, true, false, "NUM",
     "image width in pixels (default 1200)"},
    {"height", OptType::kInt, true, false, "NUM",
     "height of a frame row in pixels (default 16)"},
    {"minwidth", OptType::kString, true, false, "NUM[%]",
     "leave out frames narrower than NUM pixels, or NUM% of the total "
     "(default 0.1)"},
    {"fonttype", OptType::kString, true, false, "FONT",
     "font family (default Verdana)"},
    {"fontsize", OptType::kFloat, true, false, "NUM",
     "font size in pixels (default 12)"},
    {"fontwidth", OptType::kFloat, true, false, "NUM",
     "average glyph width as a fraction of the size (default 0.59)"},
    {"countname", OptType::kString, true, false, "TEXT",
     "unit of the counts (default \"samples\")"},
    {"nametype", OptType::kString, true, false, "TEXT",
     "label before a hovered frame's name (default \"Function:\")"},
    {"nameattr", OptType::kString, true, false, "FILE",
     "per-function attributes: NAME<TAB>key=value... (title, href, id, "
     "class, target, g_extra, a_extra)"},
    {"total", OptType::kString, true, false, "NUM",
     "total count for widths and percentages, when above the input's sum"},
    {"factor", OptType::kFloat, true, false, "NUM",
     "multiply the counts shown by NUM (default 1)"},
    {"encoding", OptType::kString, true, false, "NAME",
     "encoding named in the XML declaration (the bytes stay UTF-8)"},
    {"colors", OptType::kString, true, false, "PALETTE",
     "hot (default), mem, io, wakeup, chain, java, js, perl, red, green, "
     "blue, aqua, yellow, purple, orange"},
    {"bgcolors", OptType::kString, true, false, "COLOR",
     "background: yellow, blue, green, grey or #rrggbb (default by palette)"},
    {"hash", OptType::kFlag, true, false, "",
     "colour by a hash of the name (the same name keeps its colour)"},
    {"random", OptType::kFlag, true, false, "", "random colours"},
    {"cp", OptType::kFlag, true, false, "",
     "consistent palette: reuse and extend the colours of palette.map"},
    {"reverse", OptType::kFlag, true, false, "",
     "reverse every stack (the leaves become the roots)"},
    {"inverted|icicle", OptType::kFlag, true, false, "",
     "icicle graph: the root at the top"},
    {"flamechart", OptType::kFlag, true, false, "",
     "flame chart: keep the input order instead of sorting"},
    {"negate", OptType::kFlag, true, false, "",
     "differential graphs: swap red and blue"},
    {"notes", OptType::kString, true, false, "TEXT",
     "text for a comment in the SVG"},
    {"help", OptType::kFlag, true, false, "", "show this help"},
    {"palfile", OptType::kString, false, false, "FILE",
     "palette map file for --cp (default palette.map)"},
    {"max-frames", OptType::kInt, false, false, "N",
     "keep only the N widest frames (narrower ones stay in their parents)"},
    kMaxStackDepthOption,
    kMaxLineLengthOption,
    kMaxFrameLengthOption,
    {"output|o", OptType::kString, false, false, "FILE",
     "write the SVG to FILE instead of standard output"},
    {"quiet|q", OptType::kFlag, false, false, "", "no warnings"},
    {"version|V", OptType::kFlag, false, false, "", "print the version"},
};

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

// Perl's truth of a string: "" and "0" are false.
bool PerlTrue(const std::string& s) { return !s.empty() && s != "0"; }

}  // namespace

SvgArgsResult ParseFlameSvgArgs(int argc, char** argv, FlameSvgConfig* config,
                                std::string* err) {
  ParsedOptions o;
  if (!ParseOptions(kSpecs, argc, argv, &o, err)) {
    return SvgArgsResult::kUsageError;
  }
  if (o.Has("help")) return SvgArgsResult::kHelp;
  if (o.Has("version")) return SvgArgsResult::kVersion;
  FlameGraphOptions& g = config->graph;
  g.title = o.Get("title");
  g.subtitle = o.Get("subtitle");
  g.width = std::stoi(o.Get("width", "1200"));
  g.frame_height = std::stoi(o.Get("height", "16"));
  g.font_type = o.Get("fonttype", "Verdana");
  g.font_size = std::stod(o.Get("fontsize", "12"));
  g.font_width = std::stod(o.Get("fontwidth", "0.59"));
  g.count_name = o.Get("countname", "samples");
  g.name_type = o.Get("nametype", "Function:");
  g.factor = std::stod(o.Get("factor", "1"));
  g.palette = o.Get("colors", "hot");
  g.inverted = o.Has("inverted");
  g.flamechart = o.Has("flamechart");
  g.negate = o.Has("negate");
  g.notes = o.Get("notes");
  g.encoding = o.Get("encoding");
  if (g.width <= 20) {
    *err = "--width must be more than 20 pixels";
    return SvgArgsResult::kUsageError;
  }
  // Each tooltip's percentage divides by the total times the factor:
  // flamegraph.pl dies of the division by zero, its SVG unwritten; a usage
  // error says so rather than drawing "-nan%".
  if (g.factor == 0) {
    *err = "--factor must not be 0 (the percentages divide by it)";
    return SvgArgsResult::kUsageError;
  }
  if (g.frame_height < 1 || g.font_size <= 0 || g.font_width <= 0) {
    *err = "--height must be at least 1, --fontsize and --fontwidth above 0";
    return SvgArgsResult::kUsageError;
  }
  if (g.notes.find_first_of("<>") != std::string::npos) {
    *err = "--notes may not contain < or >";
    return SvgArgsResult::kUsageError;
  }
  std::string minwidth = o.Get("minwidth", "0.1");
  if (!ParseMinWidth(minwidth, &g.min_width)) {
    *err = "invalid --minwidth '" + minwidth + "': expected NUM or NUM%";
    return SvgArgsResult::kUsageError;
  }
  g.min_width.frame_pixels = g.width - 20;
  std::string total = o.Get("total");
  if (PerlTrue(total)) {
    g.min_width.has_total = true;
    g.min_width.total = PerlNumify(total);
  }
  if (!BackgroundColors(o.Get("bgcolors"), g.palette, &g.bg_top,
                        &g.bg_bottom)) {
    *err = "unknown --bgcolors '" + o.Get("bgcolors") +
           "': expected yellow, blue, green, grey or #rrggbb";
    return SvgArgsResult::kUsageError;
  }
  if (o.Has("hash")) {
    config->color_mode = ColorMode::kHash;
  } else if (o.Has("random")) {
    config->color_mode = ColorMode::kRandom;
  }
  config->reverse = o.Has("reverse");
  config->use_palette_map = o.Has("cp");
  config->palette_file = o.Get("palfile", "palette.map");
  if (!ParseStackLimits(o, &config->limits, err)) {
    return SvgArgsResult::kUsageError;
  }
  if (o.Has("max-frames")) {
    long long n = std::stoll(o.Get("max-frames"));
    if (n < 1) {
      *err = "--max-frames must be at least 1";
      return SvgArgsResult::kUsageError;
    }
    config->max_frames = static_cast<size_t>(n);
  }
  config->output = o.Get("output");
  config->quiet = o.Has("quiet");
  config->inputs = o.operands();
  std::string attr_file = o.Get("nameattr");
  if (PerlTrue(attr_file) && !ReadNameAttrs(attr_file, &g.name_attrs, err)) {
    return SvgArgsResult::kUsageError;
  }
  return SvgArgsResult::kRun;
}

std::string FlameSvgHelp() {
  return "Usage: flamesvg [OPTIONS] [FILE...] > graph.svg\n"
         "Draws folded stacks (\"frame;frame;frame COUNT\" lines, or two "
         "counts for a\ndifferential graph) as an interactive flame graph "
         "SVG, as flamegraph.pl\ndoes. Reads standard input when no FILE is "
         "given (\"-\" also means it);\ngzip and zstd input is decompressed.\n"
         "\nOptions (abbreviations and single dashes work):\n" +
         FormatOptionHelp(kSpecs) +
         "\nExit status: 0 success, 1 input or output error, 2 usage error "
         "or no valid input.\n"
         "Example: flamefold perf.txt | flamesvg --title=\"My app\" > "
         "app.svg\n";
}

}  // namespace flamefold
