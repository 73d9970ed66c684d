#include "cli/stack_limit_options.h"

#include <cerrno>
#include <cstdlib>

namespace flamefold {

bool ParseStackLimit(std::string_view name, const std::string& value,
                     StackLimits* limits, std::string* err) {
  bool depth = name == "max-stack-depth";
  bool line = name == "max-line-length";
  long long min = depth || line ? 1 : 4;
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno != 0 || v < min) {
    *err = "--" + std::string(name) + " takes a number of " +
           (depth ? "frames, 1" : line ? "bytes, 1" : "bytes, 4") +
           " or more, not '" + value +
           "'";
    return false;
  }
  (depth  ? limits->max_depth
   : line ? limits->max_line
          : limits->max_frame) = static_cast<size_t>(v);
  return true;
}

bool ParseStackLimits(const ParsedOptions& opts, StackLimits* limits,
                      std::string* err) {
  for (std::string_view name :
       {"max-stack-depth", "max-frame-length", "max-line-length"}) {
    if (opts.Has(name) &&
        !ParseStackLimit(name, opts.Get(name), limits, err)) {
      return false;
    }
  }
  return true;
}

}  // namespace flamefold
