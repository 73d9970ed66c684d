// Shared plumbing of the tools' main(): stdout set-up, EPIPE, exceptions.
#ifndef FLAMEFOLD_CLI_TOOL_MAIN_H_
#define FLAMEFOLD_CLI_TOOL_MAIN_H_

#include <functional>
#include <string>

#include "base/diag.h"
#include "base/output.h"

namespace flamefold {

/// Opens `path` for writing ("" or "-" is stdout) and runs `body` with it.
/// Ignores SIGPIPE so that a closed pipe is seen as EPIPE and the tool
/// exits quietly; catches std::bad_alloc and other exceptions, which stop
/// here with "<tool>: error: ..." and exit status 1.
int RunTool(const Diag& diag, const std::string& path,
            const std::function<int(OutputSink*)>& body);

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_TOOL_MAIN_H_
