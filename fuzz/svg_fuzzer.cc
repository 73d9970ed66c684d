// libFuzzer target for the SVG writer: the input is folded lines (hostile
// names welcome), sorted as flamesvg sorts them, merged and drawn with
// options picked from the first byte. Parsing the SVG as XML is too slow
// here; instead the output is checked for what makes it unsafe or
// ill-formed: invalid UTF-8, control characters other than tab, LF, CR,
// and a '<' or '&' inside a <title> or <text> that does not start an
// entity or the element's end tag.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "flamegraph/svg_writer.h"
#include "flamegraph/flamegraph_merge.h"
#include "base/output.h"
#include "flamegraph/palette.h"
#include "flamegraph/svg_text.h"

namespace {

bool IsEntity(std::string_view s, size_t amp) {
  static const char* const kEntities[] = {"&amp;", "&lt;", "&gt;", "&quot;",
                                          "&apos;", "&#"};
  for (const char* e : kEntities) {
    if (s.substr(amp, std::string_view(e).size()) == e) return true;
  }
  return false;
}

// Every <title>...</title> and <text ...>...</text> content holds no raw
// '<' and only entity '&'s.
void CheckElementText(std::string_view svg, std::string_view open,
                      std::string_view close) {
  size_t pos = 0;
  while ((pos = svg.find(open, pos)) != std::string_view::npos) {
    size_t start = svg.find('>', pos);
    if (start == std::string_view::npos) abort();
    ++start;
    size_t end = svg.find(close, start);
    if (end == std::string_view::npos) abort();
    std::string_view content = svg.substr(start, end - start);
    for (size_t i = 0; i < content.size(); ++i) {
      if (content[i] == '<') abort();
      if (content[i] == '&' && !IsEntity(content, i)) abort();
    }
    pos = end;
  }
}

void CheckSvg(std::string_view svg) {
  if (!flamefold::IsValidUtf8(svg)) abort();
  for (unsigned char c : svg) {
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') abort();
  }
  // The viewer script is ours (its comments name elements, so it is left
  // out of the element checks); nothing from the input may open another.
  std::string rest(svg);
  size_t script = rest.find("<script");
  if (script != std::string::npos) {
    size_t end = rest.find("</script>", script);
    if (end == std::string::npos) abort();
    rest.erase(script, end + 9 - script);
  }
  if (rest.find("<script") != std::string::npos) abort();
  CheckElementText(rest, "<title", "</title>");
  CheckElementText(rest, "<text", "</text>");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t bits = data[0];
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < text.size();) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(std::string_view(text).substr(start, nl - start));
    start = nl + 1;
  }
  const bool flamechart = bits & 1;
  if (!flamechart) std::sort(lines.begin(), lines.end());
  flamefold::FlameGraphOptions options;
  options.flamechart = flamechart;
  options.inverted = bits & 2;
  options.negate = bits & 4;
  static const char* const kPalettes[] = {"hot", "java", "mem", "chain"};
  options.palette = kPalettes[(bits >> 3) & 3];
  options.min_width.value = (bits & 32) ? 0 : 0.1;
  options.title = "t<\x01" "&]]>";
  options.subtitle = (bits & 64) ? "<script>x</script>" : "";
  options.notes = "n\"'<>&";
  flamefold::FrameMerger merger(options.min_width, options.palette == "chain");
  for (std::string_view line : lines) merger.AddLine(line);
  merger.Finish();
  if (bits & 128) merger.LimitFrames(8);
  flamefold::StringSink out;
  if (merger.time() == 0) {
    flamefold::WriteErrorSvg(options, &out);
  } else {
    flamefold::ColorSource colors(flamefold::ColorMode::kHash);
    flamefold::WriteFlameGraph(merger, options, &colors, nullptr, &out);
  }
  CheckSvg(out.str());
  return 0;
}
