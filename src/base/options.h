// Command-line options parsed the way Perl's Getopt::Long parses them.
//
// The Perl scripts are called from scripts with abbreviations (`--color=java`
// for --colors, `--k` for --kernel), single dashes (`-pid`) and both
// `--opt=value` and `--opt value`; a drop-in must accept all of them, with
// Getopt::Long's defaults:
//   - a prefix of "--", "-" or "+"; options and operands may be mixed; "--"
//     ends the options; "-" alone is an operand (stdin);
//   - names match case-insensitively, and any unique prefix of a name works;
//     an exact name always wins; but one-letter names (-V, -o) match only
//     as spelled, and one letter abbreviates only the Perl script's names
//     ("-v" is not --version: the Perl scripts call it unknown);
//   - a value is attached with '=' or taken from the next argument (a
//     required value takes whatever follows, even "-x").
// Our own options are added to the Perl script's set, so a prefix is first
// resolved among the Perl script's names (`perl` in the spec): `--e` stays
// --event-filter even though flamefold also has --exclude.
#ifndef FLAMEFOLD_BASE_OPTIONS_H_
#define FLAMEFOLD_BASE_OPTIONS_H_

#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace flamefold {

enum class OptType { kFlag, kString, kInt, kFloat };

struct OptionSpec {
  std::string_view names;  // "colors|color": the first is the canonical name
  OptType type = OptType::kFlag;
  bool perl = false;        // one of the Perl script's own options
  bool repeatable = false;  // collects every value instead of the last
  std::string_view arg;     // value placeholder in --help, e.g. "REGEX"
  std::string_view help;    // one line; "" hides the option from --help
};

// How arguments are read: as Getopt::Long reads them (kPerl); our own
// names in full, the rest passed on (kPassThrough); or with one-letter
// flags bundled after a single dash and long names after "--" (kBundling).
enum class ParseMode { kPerl, kPassThrough, kBundling };

class ParsedOptions {
 public:
  bool Has(std::string_view name) const { return values_.count(std::string(name)) > 0; }
  /// The last value given (flags: "1"), or `def`.
  std::string Get(std::string_view name, std::string_view def = "") const;
  const std::vector<std::string>& All(std::string_view name) const;
  const std::vector<std::string>& operands() const { return operands_; }

 private:
  friend bool ParseArgs(std::span<const OptionSpec>, int, char**,
                        ParsedOptions*, std::string*, ParseMode);
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
  std::vector<std::string> operands_;
};

/// Parses argv[1..argc). On a usage error returns false with `*err` set to
/// Getopt::Long's message ("Unknown option: x", "Option c is ambiguous
/// (colors, countname, cp)", "Option width requires an argument", ...).
bool ParseOptions(std::span<const OptionSpec> specs, int argc, char** argv,
                  ParsedOptions* out, std::string* err);

/// Like ParseOptions, for a tool that hands the options it does not know to
/// another parser (flamebatch passes flamesvg's options on): its own options
/// match only when spelled in full, and every other argument, option or
/// operand, goes to operands() in its original order.
bool ParseOptionsPassThrough(std::span<const OptionSpec> specs, int argc,
                             char** argv, ParsedOptions* out,
                             std::string* err);

/// Like ParseOptions, for a tool whose Perl script reads its options with
/// Getopt::Std (flamediff): after a single dash each letter is a one-letter
/// flag ("-ns" is -n -s; anything else is "Unknown option: x"), long names
/// (abbreviations work) need "--", and options may follow the operands.
bool ParseOptionsBundling(std::span<const OptionSpec> specs, int argc,
                          char** argv, ParsedOptions* out, std::string* err);

/// One table of options from several: a tool's own and those it shares
/// (the fold options, say), in order.
std::vector<OptionSpec> JoinOptionSpecs(
    std::initializer_list<std::span<const OptionSpec>> parts);

/// The OPTIONS part of --help: one line per visible option.
std::string FormatOptionHelp(std::span<const OptionSpec> specs);

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_OPTIONS_H_
