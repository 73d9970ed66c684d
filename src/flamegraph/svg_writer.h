// Drawing merged frames as flamegraph.pl's SVG, with our own viewer script.
//
// Every number, colour and label of a frame is computed as flamegraph.pl
// computes it (see docs in the .cc), so each frame's title, rectangle, fill
// and text equal its output. Unlike flamegraph.pl, frames come out in a
// fixed order (by depth, then from left to right) and every piece of text
// is escaped, so the same input always gives the same, well-formed file.
#ifndef FLAMEFOLD_FLAMEGRAPH_SVG_WRITER_H_
#define FLAMEFOLD_FLAMEGRAPH_SVG_WRITER_H_

#include <map>
#include <string>
#include <vector>

#include "flamegraph/flamegraph_merge.h"
#include "base/output.h"
#include "flamegraph/palette.h"

namespace flamefold {

/// --nameattr: per-function attributes ("title", "href", "id", "class",
/// "target", "g_extra", "a_extra").
using NameAttrs = std::map<std::string, std::map<std::string, std::string>,
                           std::less<>>;

/// Reads a --nameattr file: "FUNCTION<TAB>key=value<TAB>key=value..." lines.
bool ReadNameAttrs(const std::string& path, NameAttrs* attrs,
                   std::string* err);

/// Everything that changes the picture. Defaults are flamegraph.pl's.
struct FlameGraphOptions {
  std::string title;     // "" picks "Flame Graph", "Icicle Graph" or "Flame Chart"
  std::string subtitle;  // "" for none
  int width = 1200;
  int frame_height = 16;
  double font_size = 12;
  double font_width = 0.59;
  std::string font_type = "Verdana";
  std::string count_name = "samples";
  std::string name_type = "Function:";
  std::string palette = "hot";
  std::string bg_top = "#eeeeee";     // resolved --bgcolors
  std::string bg_bottom = "#eeeeb0";
  bool inverted = false;
  bool flamechart = false;
  bool negate = false;
  std::string notes;
  std::string encoding;  // "" for none
  double factor = 1;
  MinWidth min_width;
  NameAttrs name_attrs;
};

/// The title shown when --title is not given.
std::string DefaultTitle(const FlameGraphOptions& options);

/// Writes the flame graph of `merged` (after Finish()). Colours come from
/// `palette_map` when it is not null (--cp), else from `colors`.
void WriteFlameGraph(const FrameMerger& merged,
                     const FlameGraphOptions& options, ColorSource* colors,
                     PaletteMap* palette_map, OutputSink* out);

/// The small SVG written when the input holds no counts.
void WriteErrorSvg(const FlameGraphOptions& options, OutputSink* out);

/// The viewer script embedded in every graph (src/flamegraph_viewer.js).
std::string_view ViewerScript();

}  // namespace flamefold

#endif  // FLAMEFOLD_FLAMEGRAPH_SVG_WRITER_H_
