#include "cli/stack_limit_options.h"

namespace flamefold {

po::options_description StackLimitOptions(
    std::initializer_list<StackLimitOption> which) {
  po::options_description options;
  for (StackLimitOption option : which) {
    switch (option) {
      case StackLimitOption::kMaxStackDepth:
        options.add_options()("max-stack-depth", IntValue("N"),
            "cut deeper stacks to their N frames nearest the root (default "
            "65536)");
        break;
      case StackLimitOption::kMaxLineLength:
        options.add_options()("max-line-length", IntValue("BYTES"),
            "skip and count input lines longer than BYTES");
        break;
      case StackLimitOption::kMaxFrameLength:
        options.add_options()("max-frame-length", IntValue("BYTES"),
            "cut longer frame names at a UTF-8 boundary (default 262144)");
        break;
    }
  }
  return options;
}

bool ParseStackLimit(std::string_view name, long long value,
                     StackLimits* limits, std::string* err) {
  bool depth = name == "max-stack-depth";
  bool line = name == "max-line-length";
  long long min = depth || line ? 1 : 4;
  if (value < min) {
    *err = "--" + std::string(name) + " takes a number of " +
           (depth ? "frames, 1" : line ? "bytes, 1" : "bytes, 4") +
           " or more, not '" + std::to_string(value) + "'";
    return false;
  }
  (depth  ? limits->max_depth
   : line ? limits->max_line
          : limits->max_frame) = static_cast<size_t>(value);
  return true;
}

bool ParseStackLimits(const ParsedOptions& opts, StackLimits* limits,
                      std::string* err) {
  for (std::string_view name :
       {"max-stack-depth", "max-frame-length", "max-line-length"}) {
    if (opts.Has(name) &&
        !ParseStackLimit(name, opts.Int(name), limits, err)) {
      return false;
    }
  }
  return true;
}

}  // namespace flamefold
