// The flamesvg engine: folded stacks read (sorted input streamed, the rest
// held), merged and written as flamegraph.pl's SVG. Its command line is
// cli/flamesvg_cli.h.
#ifndef FLAMEFOLD_FLAMEGRAPH_FLAMESVG_H_
#define FLAMEFOLD_FLAMEGRAPH_FLAMESVG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/diag.h"
#include "base/output.h"
#include "collapse/input_kind.h"
#include "collapse/stack_limits.h"
#include "flamegraph/svg_writer.h"

namespace flamefold {

/// Validated flamesvg options.
struct FlameSvgConfig {
  FlameGraphOptions graph;
  ColorMode color_mode = ColorMode::kSeeded;
  bool reverse = false;
  bool use_palette_map = false;              // --cp
  std::string palette_file = "palette.map";  // --palfile
  size_t max_frames = 0;                     // --max-frames; 0 = no limit
  StackLimits limits;  // --max-stack-depth, --max-frame-length
  std::string output;                        // -o FILE; "" is stdout
  bool quiet = false;
  std::vector<std::string> inputs;           // none: stdin
  InputOpener open_input = OpenInput;        // how each of them is opened
};

/// What reading the input did, for tests and --stats style reporting.
struct FlameSvgStats {
  uint64_t lines = 0;
  bool sorted_input = true;  // streamed without holding the lines
};

/// Reads every input, merges it and writes the SVG to `out`. Returns the
/// exit status; messages go through `diag`.
int RunFlameSvg(const FlameSvgConfig& config, OutputSink* out,
                const Diag& diag, FlameSvgStats* stats = nullptr);

}  // namespace flamefold

#endif  // FLAMEFOLD_FLAMEGRAPH_FLAMESVG_H_
