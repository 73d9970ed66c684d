// Command-line options: described and parsed with Boost.ProgramOptions, in
// the syntax of the Perl scripts' Getopt::Long.
//
// The Perl scripts are called from scripts with abbreviations (`--color=java`
// for --colors, `--k` for --kernel), single dashes (`-pid`) and both
// `--opt=value` and `--opt value`; a drop-in must accept all of them, with
// Getopt::Long's defaults:
//   - a prefix of "--", "-" or "+"; options and operands may be mixed; "--"
//     ends the options; "-" alone is an operand (stdin);
//   - names match case-insensitively, and any unique prefix of a name works;
//     an exact name always wins;
//   - a prefix is first resolved among the Perl script's names (the options
//     a table adds with AddPerl): `--e` stays --event-filter although
//     flamefold also has --exclude, `--j` is --jit although it has --jobs;
//   - one-letter names (-V, -o, -j) match only as spelled, and after a single
//     dash they come first (`-j 2` is --jobs); one letter abbreviates only
//     the Perl script's names ("-v" is not --version: the Perl scripts call
//     it unknown);
//   - a value is attached with '=' or taken from the next argument (a
//     required value takes whatever follows, even "-x"); our one-letter
//     options also take a value glued on ("-j2", "-oFILE");
//   - numbers are Perl's ("1_000", "+5", ".5e3"); a value given again
//     replaces the last one, but a repeatable option keeps them all.
// A tool describes its options with Boost's options_description and the
// value semantics below; Boost's command_line_parser reads the command line,
// with one extra style parser that reads each option word as Getopt::Long
// does; the values are the value semantics' to convert and check (the
// validators in options.cc), and Boost keeps the operands and the
// variables_map. Every error is reported, in the arguments' order, with
// Getopt::Long's message ("Unknown option: x", "Option c is ambiguous
// (colors, countname, cp)", "Option width requires an argument", ...).
#ifndef FLAMEFOLD_BASE_OPTIONS_H_
#define FLAMEFOLD_BASE_OPTIONS_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

namespace flamefold {

namespace po = boost::program_options;

/// Value semantics for options_description::add_options(); `arg` names the
/// value in --help.
///   SwitchValue: a flag, no value (in a configuration file: true, false,
///     yes, no, 1 or 0).
///   TextValue: any text.  IntValue: a whole number, as Getopt::Long's "=i"
///     takes it.  RealValue: a number, as its "=f" takes it.
///   ListValue: text, repeatable: every value is kept, in order.
const po::value_semantic* SwitchValue();
const po::value_semantic* TextValue(const char* arg);
const po::value_semantic* IntValue(const char* arg);
const po::value_semantic* RealValue(const char* arg);
const po::value_semantic* ListValue(const char* arg);

/// A tool's options: Boost's description of them all, in --help's order,
/// and of the Perl script's own among them, which win a shared prefix.
/// Names are Boost's "long,x": "output,o" (--output, -o); "o,outdir" lists
/// the letter first in --help; ",n" is a letter alone.
class OptionTable {
 public:
  /// Appends options of our own.
  OptionTable& Add(const po::options_description& options);
  /// Appends options that the Perl script has too.
  OptionTable& AddPerl(const po::options_description& options);

  const po::options_description& all() const { return all_; }
  const po::options_description& perl() const { return perl_; }

 private:
  po::options_description all_;
  po::options_description perl_;
};

/// How a command line is read.
enum class Syntax {
  /// Getopt::Long's, as above.
  kGetoptLong,
  /// difffolded.pl's Getopt::Std (flamediff): after a single dash each
  /// letter is a one-letter flag ("-ns" is -n -s; anything else is
  /// "Unknown option: x"); long names (abbreviations work) need "--"; "+x"
  /// is an operand.
  kGetoptStd,
  /// For a tool that hands the options it does not know to another parser
  /// (flamebatch passes flamesvg's on): its own options match only when
  /// spelled in full, and every other argument, option or operand, is an
  /// operand, in its original order ("--" and what follows it too).
  kPassThrough,
};

/// What a command line gave, and the configuration file under it: Boost's
/// variables_map, read by option name (an option's first name; ",n" is
/// "-n"), and the operands.
class ParsedOptions {
 public:
  /// Whether the option has a value (a flag: given, or set in a file, even
  /// to false).
  bool Has(std::string_view name) const;
  /// Whether a flag is on.
  bool Flag(std::string_view name) const;
  /// The last value given, or `def`.
  std::string Text(std::string_view name, std::string_view def = "") const;
  long long Int(std::string_view name, long long def = 0) const;
  double Real(std::string_view name, double def) const;
  /// Every value of a repeatable option, in order.
  std::vector<std::string> List(std::string_view name) const;
  const std::vector<std::string>& operands() const { return operands_; }

  /// One option as given: its name and its value ("" for a flag).
  struct Given {
    std::string name;
    std::string value;
    bool operator==(const Given&) const = default;
  };
  /// The options among `names` as they were given, for options that act in
  /// the order given (the stack transforms): the configuration file's first,
  /// in the file's order, but none of an option that the command line gives
  /// (its values replace the file's, as for any option); then the command
  /// line's, in its order. A flag is listed where it is turned on; a flag
  /// set off in the file is not listed.
  std::vector<Given> InOrder(std::span<const std::string_view> names) const;

  /// The values, for storing a configuration file's under them.
  po::variables_map& values() { return values_; }
  /// Notes a setting of the configuration file stored into values(), for
  /// InOrder: `option` set to `value` (a flag's as the file spells it).
  void NoteFileSetting(const po::option_description& option,
                       const std::string& value);

 private:
  friend bool ParseCommandLine(const OptionTable&, Syntax,
                               const std::vector<std::string>&,
                               ParsedOptions*, std::string*);
  const po::variable_value* Find(std::string_view name) const;

  po::variables_map values_;
  std::vector<std::string> operands_;
  std::vector<Given> command_line_;  // every option given there, in order
  std::vector<Given> file_;          // the file's settings, in order
};

/// Parses `args` (the arguments after the program's name) into *out. On a
/// usage error returns false with `*err` set to Getopt::Long's messages, one
/// a line.
bool ParseCommandLine(const OptionTable& table, Syntax syntax,
                      const std::vector<std::string>& args, ParsedOptions* out,
                      std::string* err);

/// A Boost error about an option in Getopt::Long's words ("Option symfs
/// requires an argument", 'Value "x" invalid for option width (number
/// expected)').
std::string GetoptMessage(const po::error& e);

/// The OPTIONS part of --help: one line per option that has a description.
std::string FormatOptionHelp(const po::options_description& options);

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_OPTIONS_H_
