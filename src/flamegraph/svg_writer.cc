// The SVG of a flame graph. Layout rules (flamegraph.pl's, which ours must
// equal frame for frame):
//   xpad = 10; ypad1 = 3 * fontsize (top, title); ypad2 = 2 * fontsize + 10
//   (bottom, details line); ypad3 = 2 * fontsize more when a subtitle is set.
//   height = (depthmax + 1) * frameheight + ypad1 + ypad2 [+ ypad3].
//   x1 = xpad + start * widthpertime, x2 = xpad + end * widthpertime, each
//   printed with %.1f; the rect width is the difference of those printed
//   values. y values are printed as plain numbers, text x with %.2f.
//   The label is the name (without a trailing _[k] style annotation) cut to
//   int((x2 - x1) / (fontsize * fontwidth)) code points, its last two
//   replaced by ".." when cut, and empty below 3 code points.
#include "flamegraph/svg_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "flamegraph/svg_text.h"
#include "io/file_source.h"
#include "io/line_reader.h"
#include "flamegraph_viewer_js.h"

namespace flamefold {
namespace {

using namespace std::string_view_literals;

constexpr double kXPad = 10;
constexpr double kFramePad = 1;

struct Layout {
  double ypad1, ypad2, ypad3;
  double height;
  double time_max;
  double width_per_time;
};

Layout ComputeLayout(const FrameMerger& merged,
                     const FlameGraphOptions& opt) {
  Layout l;
  l.ypad1 = opt.font_size * 3;
  l.ypad2 = opt.font_size * 2 + 10;
  l.ypad3 = opt.font_size * 2;
  l.height = (static_cast<double>(merged.depth_max()) + 1) * opt.frame_height +
             l.ypad1 + l.ypad2;
  if (!opt.subtitle.empty()) l.height += l.ypad3;
  l.time_max = opt.min_width.TimeMax(merged.time());
  l.width_per_time = (opt.width - 2 * kXPad) / l.time_max;
  return l;
}

std::string Num(double v) {
  std::string s;
  AppendPerlValue(v, &s);
  return s;
}

// "_[k]", "_[w]", "_[i]" or "_[j]" at the end: perf's annotations, which
// flamegraph.pl leaves out of titles and labels; and our off-CPU "_[o]",
// left out the same way (flamegraph.pl shows it).
std::string_view StripAnnotation(std::string_view name) {
  size_t n = name.size();
  if (n >= 4 && name[n - 4] == '_' && name[n - 3] == '[' && name[n - 1] == ']' &&
      std::strchr("kwijo", name[n - 2]) != nullptr && name[n - 2] != '\0') {
    return name.substr(0, n - 4);
  }
  return name;
}

// Comments may not hold "--" nor end in '-': a space goes between.
std::string CommentSafe(std::string_view s) {
  std::string clean;
  AppendXmlEscaped(s, &clean);  // drops control characters
  std::string out;
  for (size_t i = 0; i < clean.size(); ++i) {
    out.push_back(clean[i]);
    if (clean[i] == '-' && (i + 1 == clean.size() || clean[i + 1] == '-')) {
      out.push_back(' ');
    }
  }
  return out;
}

bool IsEncodingName(std::string_view s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
           c == '_' || c == '-';
  });
}

// g_extra / a_extra are raw attribute text in flamegraph.pl; we pass them
// on only when they are plain name="value" pairs, so they cannot break the
// document.
bool IsAttributeList(std::string_view s) {
  size_t i = 0;
  auto space = [&] {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  };
  space();
  if (i == s.size()) return false;
  while (i < s.size()) {
    size_t start = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) ||
                            s[i] == '-' || s[i] == '_' || s[i] == ':' ||
                            s[i] == '.')) {
      ++i;
    }
    if (i == start || i >= s.size() || s[i] != '=') return false;
    ++i;
    if (i >= s.size() || s[i] != '"') return false;
    ++i;
    while (i < s.size() && s[i] != '"' && s[i] != '<' && s[i] != '&') ++i;
    if (i >= s.size() || s[i] != '"') return false;
    ++i;
    if (i < s.size() && s[i] != ' ' && s[i] != '\t') return false;
    space();
  }
  return IsValidUtf8(s);
}

void WriteHeader(const FlameGraphOptions& opt, double height, bool script,
                 OutputSink* out) {
  std::string s = "<?xml version=\"1.0\"";
  if (!opt.encoding.empty() && IsEncodingName(opt.encoding)) {
    s += " encoding=\"" + opt.encoding + "\"";
  }
  s += " standalone=\"no\"?>\n"
       "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
       "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n";
  std::string w = std::to_string(opt.width), h = Num(height);
  s += "<svg version=\"1.1\" width=\"" + w + "\" height=\"" + h +
       (script ? "\" onload=\"flamesvgInit(evt)" : "") +
       "\" viewBox=\"0 0 " + w + " " + h +
       "\" xmlns=\"http://www.w3.org/2000/svg\" "
       "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
       "<!-- Flame graph drawn by flamesvg (flamefold), in the format of "
       "FlameGraph's flamegraph.pl. -->\n";
  s += "<!-- NOTES: " + CommentSafe(opt.notes) + " -->\n";
  out->Write(s);
}

void WriteText(OutputSink* out, std::string_view id, double x, double y,
               std::string_view text, std::string_view extra = "") {
  std::string s = "<text";
  if (!id.empty()) s += " id=\"" + std::string(id) + "\"";
  s += " x=\"" + Fixed(x, 2) + "\" y=\"" + Num(y) + "\"";
  // Not " " + std::string(extra): GCC 12 warns (-Wrestrict, a false
  // positive, GCC bug 105329) on "literal" + std::string&&.
  if (!extra.empty()) {
    s += ' ';
    s += extra;
  }
  s += ">";
  AppendXmlEscaped(text, &s);
  s += "</text>\n";
  out->Write(s);
}

void WriteStyleAndScript(const FlameGraphOptions& opt, OutputSink* out) {
  std::string s;
  s += "<defs>\n<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" "
       "x2=\"0\">\n<stop stop-color=\"";
  AppendXmlEscaped(opt.bg_top, &s);
  s += "\" offset=\"5%\"/>\n<stop stop-color=\"";
  AppendXmlEscaped(opt.bg_bottom, &s);
  s += "\" offset=\"95%\"/>\n</linearGradient>\n</defs>\n";
  s += "<style type=\"text/css\">\n";
  s += "text { font-family:";
  AppendXmlEscaped(opt.font_type, &s);
  s += "; font-size:" + Num(opt.font_size) + "px; fill:rgb(0,0,0); }\n";
  s += "#title { text-anchor:middle; font-size:" + Num(opt.font_size + 5) +
       "px; }\n"
       "#subtitle { text-anchor:middle; fill:rgb(160,160,160); }\n"
       "#search, #ignorecase { opacity:0.1; cursor:pointer; }\n"
       "#search:hover, #search.show, #ignorecase:hover, #ignorecase.show "
       "{ opacity:1; }\n"
       "#unzoom { cursor:pointer; }\n"
       "#frames > *:hover { stroke:black; stroke-width:0.5; cursor:pointer; }\n"
       ".hide { display:none; }\n"
       "#zoomlayer > g:hover, #zoomlayer > a:hover { stroke:black; "
       "stroke-width:0.5; cursor:pointer; }\n"
       ".parent { opacity:0.5; }\n"
       "</style>\n";
  s += "<script type=\"text/ecmascript\"><![CDATA[\n";
  out->Write(s);
  out->Write(ViewerScript());
  out->Write("]]></script>\n");
}

// More than OutputSink's buffer (256 KiB).
constexpr size_t kFrameBlock = 512u << 10;

struct FrameText {
  std::string title;
  std::string label;
};

// The frames' indices in a fixed order: by depth, then from left to right
// (a stable sort on both). The merger closes the frames of one depth from
// left to right, so a stable pass by depth (counting) gives that order;
// but a name closed again at the same end-time key moves the earlier
// frame's start to the later one's (flamegraph.pl's node keys), and with
// times past 15 digits, where keys round, such a frame can survive
// --minwidth 0: that depth is sorted.
std::vector<uint32_t> DrawingOrder(const std::vector<FlameFrame>& frames) {
  uint32_t depths = 0;
  for (const FlameFrame& f : frames) depths = std::max(depths, f.depth + 1);
  std::vector<uint32_t> begin(depths + 1, 0);
  for (const FlameFrame& f : frames) ++begin[f.depth + 1];
  for (uint32_t d = 0; d < depths; ++d) begin[d + 1] += begin[d];
  std::vector<uint32_t> order(frames.size());
  std::vector<uint32_t> next(begin.begin(), begin.end() - 1);
  for (uint32_t i = 0; i < frames.size(); ++i) order[next[frames[i].depth]++] = i;
  auto by_start = [&](uint32_t a, uint32_t b) {
    return frames[a].stime < frames[b].stime;
  };
  for (uint32_t d = 0; d < depths; ++d) {
    auto first = order.begin() + begin[d], last = order.begin() + begin[d + 1];
    if (!std::is_sorted(first, last, by_start)) {
      std::stable_sort(first, last, by_start);
    }
  }
  return order;
}

FrameText DescribeFrame(const FlameFrame& f, std::string_view name,
                        double etime, double x1, double x2,
                        const Layout& l, const FlameGraphOptions& opt) {
  FrameText t;
  bool root = name.empty() && f.depth == 0;
  const double count = (root ? etime - f.stime : f.width) * opt.factor;
  const std::string samples_txt = GroupThousands(Fixed(count, 0));
  std::string_view bare = StripAnnotation(name);
  std::string& title = t.title;
  title.reserve(bare.size() + samples_txt.size() + opt.count_name.size() + 32);
  if (root) {
    title += "all ("sv;
  } else {
    title += bare;
    title += " ("sv;
  }
  title += samples_txt;
  title += ' ';
  title += opt.count_name;
  if (root) {
    title += ", 100%)"sv;
  } else {
    double denominator = l.time_max * opt.factor;
    title += ", "sv;
    AppendFixed(100 * FixedValue(count, 0) / denominator, 2, &title);
    title += '%';
    if (f.has_delta) {
      double d = opt.negate ? -f.delta : f.delta;
      if (d == 0) d = 0;  // no "-0.00"
      title += "; "sv;
      if (d > 0) title += '+';
      AppendFixed(100 * d / denominator, 2, &title);
      title += '%';
    }
    title += ')';
  }
  double chars = std::trunc((x2 - x1) / (opt.font_size * opt.font_width));
  if (chars >= 3) {
    size_t n = chars > 1e9 ? SIZE_MAX : static_cast<size_t>(chars);
    if (CodePointCount(bare) > n) {
      t.label = std::string(CodePointPrefix(bare, n - 2)) + "..";
    } else {
      t.label = std::string(bare);
    }
  }
  return t;
}

std::string FrameColor(std::string_view name, const FlameFrame& f,
                       double max_delta, const FlameGraphOptions& opt,
                       ColorSource* colors, PaletteMap* palette_map) {
  if (f.has_delta && name != "--" && name != "-") {
    return DeltaColor(f.delta, max_delta, opt.negate);
  }
  if (palette_map != nullptr && name != "--" && name != "-") {
    return palette_map->Get(name, opt.palette, colors);
  }
  return NameColor(name, opt.palette, colors);
}

// Opens the frame's <g> (or <a> when --nameattr gives it a link).
void OpenFrame(const std::map<std::string, std::string>* attrs,
               std::string* s) {
  if (attrs == nullptr) {
    *s += "<g>"sv;
    return;
  }
  auto get = [&](const char* key) -> const std::string* {
    auto it = attrs->find(key);
    return it == attrs->end() ? nullptr : &it->second;
  };
  auto attr = [&](const char* name, const std::string& value) {
    *s += ' ';
    *s += name;
    *s += "=\"";
    AppendXmlEscaped(value, s);
    *s += '"';
  };
  auto extra = [&](const char* key) {
    const std::string* v = get(key);
    if (v != nullptr && IsAttributeList(*v)) *s += " " + *v;
  };
  const std::string* href = get("href");
  bool link = href != nullptr && !href->empty() && *href != "0";
  if (link) {
    *s += "<a";
    attr("xlink:href", *href);
    const std::string* target = get("target");
    attr("target", target != nullptr && !target->empty() && *target != "0"
                       ? *target
                       : std::string("_top"));
    extra("a_extra");
  } else {
    *s += "<g";
  }
  if (const std::string* id = get("id")) attr("id", *id);
  if (const std::string* cls = get("class")) attr("class", *cls);
  extra("g_extra");
  *s += '>';
}

}  // namespace

std::string_view ViewerScript() { return kViewerJs; }

bool ReadNameAttrs(const std::string& path, NameAttrs* attrs,
                   std::string* err) {
  std::string text;
  if (!ReadFile(path, &text, err)) return false;
  LineReader lines(text);
  std::string_view raw;
  while (lines.Next(&raw) != LineReader::kEof) {
    const uint64_t line_no = lines.line_number();
    std::string line;
    AppendValidUtf8(raw, &line);
    size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      *err = path + ":" + std::to_string(line_no) +
             ": expected FUNCTION<TAB>key=value...";
      return false;
    }
    std::vector<std::string_view> fields;
    PerlSplit(std::string_view(line).substr(tab + 1), "\t", &fields);
    // Perl: map { split /=/, $_, 2 } then pairs become a hash.
    std::vector<std::string> flat;
    for (std::string_view f : fields) {
      if (f.empty()) continue;
      size_t eq = f.find('=');
      flat.emplace_back(f.substr(0, eq));
      if (eq != std::string_view::npos) flat.emplace_back(f.substr(eq + 1));
    }
    auto& entry = (*attrs)[line.substr(0, tab)];
    entry.clear();
    for (size_t i = 0; i < flat.size(); i += 2) {
      entry[flat[i]] = i + 1 < flat.size() ? flat[i + 1] : std::string();
    }
  }
  return true;
}

std::string DefaultTitle(const FlameGraphOptions& options) {
  if (options.flamechart) return "Flame Chart";
  return options.inverted ? "Icicle Graph" : "Flame Graph";
}

void WriteErrorSvg(const FlameGraphOptions& opt, OutputSink* out) {
  WriteHeader(opt, opt.font_size * 5, false, out);
  WriteText(out, "", std::trunc(opt.width / 2.0), opt.font_size * 2,
            "ERROR: No valid input provided to flamesvg.");
  out->Write("</svg>\n");
}

void WriteFlameGraph(const FrameMerger& merged,
                     const FlameGraphOptions& opt, ColorSource* colors,
                     PaletteMap* palette_map, OutputSink* out) {
  Layout l = ComputeLayout(merged, opt);
  WriteHeader(opt, l.height, true, out);
  WriteStyleAndScript(opt, out);
  {
    std::string s = "<rect x=\"0.0\" y=\"0\" width=\"" +
                    Fixed(opt.width, 1) + "\" height=\"" + Fixed(l.height, 1) +
                    "\" fill=\"url(#background)\"/>\n";
    out->Write(s);
  }
  double mid = std::trunc(opt.width / 2.0);
  std::string title = opt.title.empty() ? DefaultTitle(opt) : opt.title;
  WriteText(out, "title", mid, opt.font_size * 2, title);
  if (!opt.subtitle.empty()) {
    WriteText(out, "subtitle", mid, opt.font_size * 4, opt.subtitle);
  }
  double bottom = l.height - l.ypad2 / 2;
  WriteText(out, "details", kXPad, bottom, " ");
  WriteText(out, "unzoom", kXPad, opt.font_size * 2, "Reset Zoom",
            "class=\"hide\"");
  WriteText(out, "search", opt.width - kXPad - 100, opt.font_size * 2,
            "Search");
  WriteText(out, "ignorecase", opt.width - kXPad - 16, opt.font_size * 2,
            "ic");
  WriteText(out, "matched", opt.width - kXPad - 100, bottom, " ");

  // Settings the viewer needs, as attributes (never inside the script).
  std::string s = "<g id=\"frames\" data-nametype=\"";
  AppendXmlEscaped(opt.name_type, &s);
  s += "\" data-fontsize=\"" + Num(opt.font_size) + "\" data-fontwidth=\"" +
       Num(opt.font_width) + "\" data-xpad=\"10\" data-width=\"" +
       std::to_string(opt.width) + "\" data-inverted=\"" +
       (opt.inverted ? "1" : "0") + "\">\n";
  out->Write(s);

  const std::vector<FlameFrame>& frames = merged.frames();
  const std::vector<uint32_t> order = DrawingOrder(frames);
  s.clear();
  const bool by_name = palette_map == nullptr && colors->by_name();
  std::vector<std::string> color_of(by_name ? merged.names().size() : 0);
  for (uint32_t index : order) {
    const size_t frame_at = s.size();
    const FlameFrame& f = frames[index];
    std::string_view name = merged.names().Get(f.name);
    double etime = (name.empty() && f.depth == 0) ? l.time_max : f.etime;
    double x1 = kXPad + f.stime * l.width_per_time;
    double x2 = kXPad + etime * l.width_per_time;
    double y1, y2;
    if (!opt.inverted) {
      y1 = l.height - l.ypad2 - (f.depth + 1.0) * opt.frame_height + kFramePad;
      y2 = l.height - l.ypad2 - f.depth * static_cast<double>(opt.frame_height);
    } else {
      y1 = l.ypad1 + f.depth * static_cast<double>(opt.frame_height);
      y2 = l.ypad1 + (f.depth + 1.0) * opt.frame_height - kFramePad;
    }
    FrameText text = DescribeFrame(f, name, etime, x1, x2, l, opt);
    const std::map<std::string, std::string>* attrs = nullptr;
    auto it = opt.name_attrs.find(name);
    if (it != opt.name_attrs.end()) attrs = &it->second;
    if (attrs != nullptr) {
      auto t = attrs->find("title");
      if (t != attrs->end() && !t->second.empty() && t->second != "0") {
        text.title = t->second;
      }
    }
    OpenFrame(attrs, &s);
    s += "<title>"sv;
    AppendXmlEscaped(text.title, &s);
    // The width from the two x's as printed (flamegraph.pl subtracts the
    // strings).
    s += "</title><rect x=\""sv;
    AppendFixed(x1, 1, &s);
    s += "\" y=\""sv;
    s += Num(y1);
    s += "\" width=\""sv;
    AppendFixed(FixedValue(x2, 1) - FixedValue(x1, 1), 1, &s);
    s += "\" height=\""sv;
    AppendFixed(y2 - y1, 1, &s);
    s += "\" fill=\""sv;
    // A name's colour, but for --random, differential frames, "--", "-"
    // and --cp, depends on the name alone: made once per name.
    if (by_name && !f.has_delta && name != "--" && name != "-") {
      std::string& color = color_of[f.name];
      if (color.empty()) color = colors->Color(opt.palette, name);
      s += color;
    } else {
      s += FrameColor(name, f, merged.max_delta(), opt, colors, palette_map);
    }
    s += "\" rx=\"2\" ry=\"2\"/>"sv;
    // An empty label is left out (flamegraph.pl writes an empty <text>):
    // on big graphs most frames have none, and each element costs the
    // browser layout time. The viewer adds one when a zoom makes room.
    if (!text.label.empty()) {
      s += "<text x=\""sv;
      AppendFixed(x1 + 3, 2, &s);
      s += "\" y=\""sv;
      s += Num(3 + (y1 + y2) / 2);
      s += "\">"sv;
      AppendXmlEscaped(text.label, &s);
      s += "</text>"sv;
    }
    s += (attrs != nullptr && s.compare(frame_at, 2, "<a") == 0) ? "</a>\n"
                                                                  : "</g>\n";
    // Frames go out in blocks larger than the sink's buffer, which it then
    // writes without copying them.
    if (s.size() > kFrameBlock) {
      out->Write(s);
      s.clear();
    }
  }
  out->Write(s);
  out->Write("</g>\n</svg>\n");
}

}  // namespace flamefold
