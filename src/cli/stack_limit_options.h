// The options that set the stack limits (collapse/stack_limits.h): the
// lines every stack-reading tool puts in its option table, and their
// checks.
#ifndef FLAMEFOLD_CLI_STACK_LIMIT_OPTIONS_H_
#define FLAMEFOLD_CLI_STACK_LIMIT_OPTIONS_H_

#include <initializer_list>
#include <string>
#include <string_view>

#include "base/options.h"
#include "collapse/stack_limits.h"

namespace flamefold {

enum class StackLimitOption { kMaxStackDepth, kMaxLineLength, kMaxFrameLength };

/// The option lines of `which`, in that order: --max-stack-depth N,
/// --max-line-length BYTES, --max-frame-length BYTES.
po::options_description StackLimitOptions(
    std::initializer_list<StackLimitOption> which);

/// Reads --max-stack-depth, --max-frame-length and --max-line-length from
/// `opts` into `*limits` (unset options keep their values). False with
/// `*err` on a value that is out of range (depth and line length 1 or more,
/// frame length 4 or more: one UTF-8 character).
bool ParseStackLimits(const ParsedOptions& opts, StackLimits* limits,
                      std::string* err);
/// The same for one option's value, given by name ("max-stack-depth",
/// "max-frame-length" or "max-line-length").
bool ParseStackLimit(std::string_view name, long long value,
                     StackLimits* limits, std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_STACK_LIMIT_OPTIONS_H_
