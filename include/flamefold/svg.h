// flamefold's C++ API: drawing a flame graph (SVG) from folded stacks, as
// `flamesvg`, and so flamegraph.pl, does.
#ifndef FLAMEFOLD_API_SVG_H_
#define FLAMEFOLD_API_SVG_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flamefold/fold.h"
#include "flamefold/input.h"
#include "flamefold/status.h"

namespace flamefold::api {

/// flamesvg's options, which are flamegraph.pl's (see flamesvg(1)); each
/// field names its option. Unset fields keep flamegraph.pl's defaults.
struct SvgOptions {
  std::string title;                 // --title ("": by kind of graph)
  std::string subtitle;              // --subtitle
  std::optional<int> width;          // --width (1200)
  std::optional<int> height;         // --height: pixels a frame row (16)
  std::string minwidth;              // --minwidth NUM[%] ("0.1")
  std::string fonttype;              // --fonttype ("Verdana")
  std::optional<double> fontsize;    // --fontsize (12)
  std::optional<double> fontwidth;   // --fontwidth (0.59)
  std::string countname;             // --countname ("samples")
  std::string nametype;              // --nametype ("Function:")
  std::string nameattr;              // --nameattr FILE
  std::string total;                 // --total NUM
  std::optional<double> factor;      // --factor (1)
  std::string encoding;              // --encoding
  std::string colors;                // --colors PALETTE ("hot")
  std::string bgcolors;              // --bgcolors ("": by palette)
  bool hash = false;                 // --hash
  bool random = false;               // --random
  bool cp = false;                   // --cp: reads and writes palfile
  std::string palfile;               // --palfile ("palette.map")
  bool reverse = false;              // --reverse
  bool inverted = false;             // --inverted: icicle graph
  bool flamechart = false;           // --flamechart
  bool negate = false;               // --negate
  std::string notes;                 // --notes
  std::optional<uint64_t> max_frames;        // --max-frames N
  std::optional<uint64_t> max_stack_depth;   // --max-stack-depth N
  std::optional<uint64_t> max_line_length;   // --max-line-length BYTES
  std::optional<uint64_t> max_frame_length;  // --max-frame-length BYTES
  bool quiet = false;                // -q: no warnings
  MessageHandler on_message;         // warnings; none: stderr
};

/// Receives the SVG in pieces, in order; returning false stops the
/// drawing with a kDataError ("write error").
using OutputCallback = std::function<bool(std::string_view bytes)>;

/// Draws the flame graph of `stacks` into `*svg`, replacing its content:
/// what `flamefold ... | flamesvg OPTIONS` prints.
Status RenderSvg(const FoldedStacks& stacks, const SvgOptions& options,
                 std::string* svg);
/// The same, handing the SVG to `write`.
Status RenderSvg(const FoldedStacks& stacks, const SvgOptions& options,
                 const OutputCallback& write);

/// Draws the flame graph of folded-stack inputs (none: standard input), as
/// `flamesvg OPTIONS INPUT...` does. When they hold no counts the status is
/// kUsageError and the output the small SVG flamegraph.pl writes then.
Status RenderSvg(const std::vector<Input>& inputs, const SvgOptions& options,
                 std::string* svg);
/// The same, handing the SVG to `write`.
Status RenderSvg(const std::vector<Input>& inputs, const SvgOptions& options,
                 const OutputCallback& write);

}  // namespace flamefold::api

#endif  // FLAMEFOLD_API_SVG_H_
