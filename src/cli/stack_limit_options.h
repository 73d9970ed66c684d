// The options that set the stack limits (collapse/stack_limits.h): the
// lines every stack-reading tool puts in its option table, and their
// parsing.
#ifndef FLAMEFOLD_CLI_STACK_LIMIT_OPTIONS_H_
#define FLAMEFOLD_CLI_STACK_LIMIT_OPTIONS_H_

#include <string>
#include <string_view>

#include "base/options.h"
#include "collapse/stack_limits.h"

namespace flamefold {

/// The option lines every stack-reading tool puts in its OptionSpec table.
inline constexpr OptionSpec kMaxStackDepthOption = {
    "max-stack-depth", OptType::kInt, false, false, "N",
    "cut deeper stacks to their N frames nearest the root (default 65536)"};
inline constexpr OptionSpec kMaxLineLengthOption = {
    "max-line-length", OptType::kInt, false, false, "BYTES",
    "skip and count input lines longer than BYTES"};
inline constexpr OptionSpec kMaxFrameLengthOption = {
    "max-frame-length", OptType::kInt, false, false, "BYTES",
    "cut longer frame names at a UTF-8 boundary (default 262144)"};

/// Reads --max-stack-depth, --max-frame-length and --max-line-length from
/// `opts` into `*limits` (unset options keep their values). False with
/// `*err` on a value that is not a whole number in range (depth and line
/// length 1 or more, frame length 4 or more: one UTF-8 character).
bool ParseStackLimits(const ParsedOptions& opts, StackLimits* limits,
                      std::string* err);
/// The same for one option's value, given by name ("max-stack-depth",
/// "max-frame-length" or "max-line-length"), for tools with their own option parser.
bool ParseStackLimit(std::string_view name, const std::string& value,
                     StackLimits* limits, std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_STACK_LIMIT_OPTIONS_H_
