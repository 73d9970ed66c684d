// The flamediff command line: difffolded.pl's options, ours (--report,
// --threshold) and flamefold's, validated into a DiffConfig; its help.
// The run is differential/flamediff.h.
#ifndef FLAMEFOLD_CLI_FLAMEDIFF_CLI_H_
#define FLAMEFOLD_CLI_FLAMEDIFF_CLI_H_

#include <string>

#include "cli/tool_args.h"
#include "differential/flamediff.h"

namespace flamefold {

/// Parses the command line as difffolded.pl's Getopt::Std getopts('ns')
/// does: single letters, bundled ("-ns"), "--" ends the options. Our own
/// options are long ("--report", "--threshold=P" or "--threshold P",
/// "--top N", flamefold's "--modern", "--symfs DIR", ...); -h is --help,
/// -V --version. Options may follow the files, as in every other tool.
/// Then the configuration file's [flamediff] section.
ArgsResult ParseDiffArgs(int argc, char** argv, DiffConfig* config,
                         std::string* err);

/// The text of `flamediff --help`.
std::string DiffHelp();

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMEDIFF_CLI_H_
