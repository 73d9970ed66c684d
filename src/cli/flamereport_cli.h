// The flamereport command line: its options, their validation into a
// ReportConfig, its help. The run is report/report.h.
#ifndef FLAMEFOLD_CLI_FLAMEREPORT_CLI_H_
#define FLAMEFOLD_CLI_FLAMEREPORT_CLI_H_

#include <string>

#include "cli/tool_args.h"
#include "report/report.h"

namespace flamefold {

/// Parses flamereport's command line (Getopt::Long rules, as every tool)
/// and configuration file.
ArgsResult ParseReportArgs(int argc, char** argv, ReportConfig* config,
                           std::string* err);

/// The text of `flamereport --help`.
std::string ReportHelp();

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMEREPORT_CLI_H_
