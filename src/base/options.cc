#include "base/options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace flamefold {
namespace {

// The values options hold (ParsedOptions reads them back). A value given
// again replaces the last one, as in Getopt::Long: Boost's own validators
// for scalars refuse a second value.
struct SwitchSetting {
  bool on = false;
};
struct TextSetting {
  std::string text;
};
struct IntSetting {
  long long value = 0;
};
struct RealSetting {
  double value = 0;
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Getopt::Long's PAT_INT: [-+]?_*[0-9][0-9_]*
bool IsPerlInt(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  while (i < s.size() && s[i] == '_') ++i;
  if (i == s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  for (; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i])) && s[i] != '_') return false;
  }
  return true;
}

// Getopt::Long's PAT_FLOAT:
// [-+]?(?=\.?[0-9])[0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9_]+)?
bool IsPerlFloat(std::string_view s) {
  auto digit = [&](size_t i) {
    return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));
  };
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  if (!(digit(i) || (i < s.size() && s[i] == '.' && digit(i + 1)))) return false;
  while (i < s.size() && (digit(i) || s[i] == '_')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && (digit(i) || s[i] == '_')) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    size_t start = i;
    while (i < s.size() && (digit(i) || s[i] == '_')) ++i;
    if (i == start) return false;
  }
  return i == s.size();
}

std::string WithoutUnderscores(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  return s;
}

// 'Value "abc" invalid for option width (number expected)': store() names
// the option.
class ValueError : public po::error_with_option_name {
 public:
  ValueError(const std::string& value, const char* expected)
      : po::error_with_option_name(
            "Value \"%value%\" invalid for option %option% (%expected%)") {
    set_substitute("value", value);
    set_substitute("expected", expected);
  }
};

// A flag's value in a configuration file: on, off, or neither (nullopt).
std::optional<bool> SwitchWord(std::string_view value) {
  std::string word = Lower(value);
  if (word == "true" || word == "yes" || word == "1") return true;
  if (word == "false" || word == "no" || word == "0") return false;
  return std::nullopt;
}

// What Boost calls (found by argument-dependent lookup) to turn the value
// given, on the command line or in a file, into the option's value.
void validate(boost::any& out, const std::vector<std::string>& tokens,
              SwitchSetting*, int) {
  const std::string& value = po::validators::get_single_string(tokens);
  std::optional<bool> on = SwitchWord(value);
  if (!on) throw ValueError(value, "true, false, yes, no, 1 or 0 expected");
  out = SwitchSetting{*on};
}

void validate(boost::any& out, const std::vector<std::string>& tokens,
              TextSetting*, int) {
  out = TextSetting{po::validators::get_single_string(tokens)};
}

void validate(boost::any& out, const std::vector<std::string>& tokens,
              IntSetting*, int) {
  const std::string& value = po::validators::get_single_string(tokens);
  std::string digits = WithoutUnderscores(value);
  errno = 0;
  long long n = std::strtoll(digits.c_str(), nullptr, 10);
  if (!IsPerlInt(value) || errno == ERANGE) {
    throw ValueError(value, "number expected");
  }
  out = IntSetting{n};
}

void validate(boost::any& out, const std::vector<std::string>& tokens,
              RealSetting*, int) {
  const std::string& value = po::validators::get_single_string(tokens);
  double x = IsPerlFloat(value)
                 ? std::strtod(WithoutUnderscores(value).c_str(), nullptr)
                 : NAN;
  if (!std::isfinite(x)) throw ValueError(value, "real number expected");
  out = RealSetting{x};
}

}  // namespace

const po::value_semantic* SwitchValue() {
  return po::value<SwitchSetting>()->zero_tokens()->implicit_value(
      SwitchSetting{true}, "");
}

const po::value_semantic* TextValue(const char* arg) {
  return po::value<TextSetting>()->value_name(arg);
}

const po::value_semantic* IntValue(const char* arg) {
  return po::value<IntSetting>()->value_name(arg);
}

const po::value_semantic* RealValue(const char* arg) {
  return po::value<RealSetting>()->value_name(arg);
}

const po::value_semantic* ListValue(const char* arg) {
  return po::value<std::vector<std::string>>()->value_name(arg);
}

OptionTable& OptionTable::Add(const po::options_description& options) {
  all_.add(options);
  return *this;
}

OptionTable& OptionTable::AddPerl(const po::options_description& options) {
  all_.add(options);
  perl_.add(options);
  return *this;
}

const po::variable_value* ParsedOptions::Find(std::string_view name) const {
  auto it = values_.find(std::string(name));
  return it == values_.end() || it->second.empty() ? nullptr : &it->second;
}

bool ParsedOptions::Has(std::string_view name) const {
  return Find(name) != nullptr;
}

bool ParsedOptions::Flag(std::string_view name) const {
  const po::variable_value* v = Find(name);
  return v != nullptr && v->as<SwitchSetting>().on;
}

std::string ParsedOptions::Text(std::string_view name,
                                std::string_view def) const {
  const po::variable_value* v = Find(name);
  return v != nullptr ? v->as<TextSetting>().text : std::string(def);
}

long long ParsedOptions::Int(std::string_view name, long long def) const {
  const po::variable_value* v = Find(name);
  return v != nullptr ? v->as<IntSetting>().value : def;
}

double ParsedOptions::Real(std::string_view name, double def) const {
  const po::variable_value* v = Find(name);
  return v != nullptr ? v->as<RealSetting>().value : def;
}

std::vector<std::string> ParsedOptions::List(std::string_view name) const {
  const po::variable_value* v = Find(name);
  return v != nullptr ? v->as<std::vector<std::string>>()
                      : std::vector<std::string>();
}

void ParsedOptions::NoteFileSetting(const po::option_description& option,
                                    const std::string& value) {
  bool is_flag = option.semantic()->max_tokens() == 0;
  if (is_flag && SwitchWord(value) != true) return;
  file_.push_back({option.key(""), is_flag ? "" : value});
}

std::vector<ParsedOptions::Given> ParsedOptions::InOrder(
    std::span<const std::string_view> names) const {
  auto wanted = [&](const Given& g) {
    return std::find(names.begin(), names.end(), g.name) != names.end();
  };
  auto on_command_line = [&](const Given& g) {
    return std::any_of(command_line_.begin(), command_line_.end(),
                       [&](const Given& c) { return c.name == g.name; });
  };
  std::vector<Given> out;
  for (const Given& g : file_) {
    if (wanted(g) && !on_command_line(g)) out.push_back(g);
  }
  for (const Given& g : command_line_) {
    if (wanted(g)) out.push_back(g);
  }
  return out;
}

namespace {

std::string RequiresArgument(const std::string& name) {
  return "Option " + name + " requires an argument";
}

// An option's name as Getopt::Long writes it: without dashes.
std::string Word(std::string name) {
  name.erase(0, name.find_first_not_of('-'));
  return name;
}

// The option named `word` exactly: case-insensitively, but a one-letter
// name as spelled (-V is --version, -v is not).
const po::option_description* Exact(const po::options_description& options,
                                    const std::string& word) {
  if (word.size() != 1) return options.find_nothrow(word, false, true, false);
  const po::option_description* letter =
      options.find_nothrow(word, false, false, false);  // "o,outdir"
  return letter != nullptr
             ? letter
             : options.find_nothrow("-" + word, false, false, false);
}

bool TakesValue(const po::option_description& option) {
  return option.semantic()->max_tokens() > 0;
}

// Getopt::Long's syntax, as a Boost style parser: command_line_parser hands
// it the arguments left; when the first is an option word it takes it (and
// the value it needs) and returns it under the option's name, or records
// why not; Boost keeps any other argument as an operand. Boost's own long,
// disguised-long and short parsers cannot read these words: with
// allow_guessing the disguised long options make -v --version and -O
// --output; an unknown -nope reaches the short parser and is reported as
// -n; their look-ahead refuses a value that names a short option
// (--title -q); and they have no "+" prefix nor an order among names.
class GetoptSyntax {
 public:
  GetoptSyntax(const OptionTable* table, Syntax syntax,
               std::vector<std::string>* errors)
      : table_(table), syntax_(syntax), errors_(errors) {}

  std::vector<po::option> operator()(std::vector<std::string>& args) const {
    const std::string arg = args.front();
    if (arg == "--") {  // Boost ends the options, but drops the "--"
      return syntax_ == Syntax::kPassThrough ? Operands(args, args.size())
                                             : std::vector<po::option>();
    }
    size_t prefix = PrefixSize(arg);
    if (prefix == 0) return {};
    if (syntax_ == Syntax::kGetoptStd && prefix == 1) return Letters(args);
    std::string word = arg.substr(prefix);
    std::optional<std::string> value;
    if (size_t eq = word.find('=', 1); eq != std::string::npos) {
      value = word.substr(eq + 1);
      word.resize(eq);
    }
    std::string why;
    const po::option_description* option =
        syntax_ == Syntax::kPassThrough ? Exact(table_->all(), word)
                                        : Resolve(word, prefix == 1, &why);
    if (option == nullptr && prefix == 1 && !value && word.size() > 1 &&
        syntax_ == Syntax::kGetoptLong) {
      option = LetterWithValue(word[0]);  // "-j2", "-oFILE"
      if (option != nullptr) value = word.substr(1);
    }
    if (option == nullptr) {
      if (syntax_ == Syntax::kPassThrough) return Operands(args, 1);
      errors_->push_back(why);
      args.erase(args.begin());
      return {};
    }
    args.erase(args.begin());
    return Given(*option, arg, std::move(value), args);
  }

 private:
  // The length of an option word's prefix ("--", "-" or "+"); 0 for an
  // operand ("-" alone; "+x" for Getopt::Std).
  size_t PrefixSize(const std::string& arg) const {
    if (arg.size() < 2) return 0;
    if (arg[0] == '-') return arg[1] == '-' ? 2 : 1;
    return arg[0] == '+' && syntax_ != Syntax::kGetoptStd ? 1 : 0;
  }

  // The option a word names: an exact name, else a prefix of the Perl
  // script's names, else of any long name. But one letter abbreviates the
  // Perl script's names only, and a one-letter name of ours comes after
  // them unless a single dash precedes it (-j is --jobs, --j is --jit).
  const po::option_description* Resolve(const std::string& word,
                                        bool single_dash,
                                        std::string* why) const {
    const std::string lower = Lower(word);
    *why = "Unknown option: " + lower;
    if (word[0] == '-') return nullptr;  // "---x"
    const po::option_description* exact = Exact(table_->all(), word);
    if (exact != nullptr &&
        (word.size() > 1 || single_dash || IsPerl(*exact))) {
      return exact;
    }
    try {
      const po::option_description* option =
          table_->perl().find_nothrow(lower, true, true, false);
      if (option == nullptr && word.size() > 1) {
        option = table_->all().find_nothrow(lower, true, true, false);
      }
      return option != nullptr ? option : exact;
    } catch (const po::ambiguous_option& e) {
      std::vector<std::string> names = e.alternatives();
      std::sort(names.begin(), names.end());
      *why = "Option " + lower + " is ambiguous (";
      for (size_t i = 0; i < names.size(); ++i) {
        *why += (i > 0 ? ", " : "") + names[i];
      }
      *why += ")";
      return nullptr;
    }
  }

  bool IsPerl(const po::option_description& option) const {
    const auto& perl = table_->perl().options();
    return std::any_of(perl.begin(), perl.end(),
                       [&](const auto& p) { return p.get() == &option; });
  }

  const po::option_description* LetterWithValue(char letter) const {
    const po::option_description* option =
        Exact(table_->all(), std::string(1, letter));
    return option != nullptr && TakesValue(*option) ? option : nullptr;
  }

  // Getopt::Std's "-ns": each letter one of the one-letter flags.
  std::vector<po::option> Letters(std::vector<std::string>& args) const {
    std::vector<po::option> flags;
    for (char letter : args.front().substr(1)) {
      const po::option_description* option =
          Exact(table_->all(), std::string(1, letter));
      if (option != nullptr && !TakesValue(*option)) {
        flags.emplace_back(option->key(""), std::vector<std::string>());
      } else {
        errors_->push_back("Unknown option: " + std::string(1, letter));
      }
    }
    args.erase(args.begin());
    return flags;
  }

  // The first `count` arguments, as operands.
  static std::vector<po::option> Operands(std::vector<std::string>& args,
                                          size_t count) {
    std::vector<po::option> operands;
    for (size_t i = 0; i < count; ++i) {
      operands.emplace_back();
      operands.back().value.push_back(args[i]);
      operands.back().original_tokens.push_back(args[i]);
    }
    args.erase(args.begin(), args.begin() + static_cast<long>(count));
    return operands;
  }

  // `option`, given as `arg`, with its value: the one attached, or the next
  // argument, whatever it is. Its errors are recorded in the order of the
  // arguments, as Getopt::Long warns of each; an option at the end that
  // needs a value is Boost's to refuse (finish_option).
  std::vector<po::option> Given(const po::option_description& option,
                                const std::string& arg,
                                std::optional<std::string> value,
                                std::vector<std::string>& args) const {
    const std::string& name = option.key("");
    po::option given(name, std::vector<std::string>());
    given.original_tokens.push_back(arg);
    if (value && !TakesValue(option)) {
      errors_->push_back("Option " + Word(name) +
                         " does not take an argument");
      return {};
    }
    if (TakesValue(option) && !value && !args.empty()) {
      value = args.front();
      given.original_tokens.push_back(args.front());
      args.erase(args.begin());
    }
    if (value && value->empty()) {  // "--width="
      errors_->push_back(RequiresArgument(Word(name)));
      return {};
    }
    if (value) {
      given.value.push_back(*value);
      if (!Valid(option, given)) return {};
    }
    return {given};
  }

  // Whether Boost's validator takes the value (store() would refuse it
  // only after every option was read).
  bool Valid(const po::option_description& option,
             const po::option& given) const {
    boost::any value;
    try {
      option.semantic()->parse(value, given.value, true);
    } catch (po::error_with_option_name& e) {
      e.add_context(given.string_key, given.original_tokens[0], 0);
      errors_->push_back(e.what());
      return false;
    }
    return true;
  }

  const OptionTable* table_;
  Syntax syntax_;
  std::vector<std::string>* errors_;
};

// Boost's style besides the extra style parser: its finish_option refuses
// an option at the end that lacks its value, and looks names up with
// guessing and case insensitivity, as Resolve does (they arrive whole).
constexpr int kBoostStyle =
    po::command_line_style::allow_long |
    po::command_line_style::long_allow_adjacent |
    po::command_line_style::long_allow_next |
    po::command_line_style::allow_guessing |
    po::command_line_style::long_case_insensitive;

}  // namespace

bool ParseCommandLine(const OptionTable& table, Syntax syntax,
                      const std::vector<std::string>& args, ParsedOptions* out,
                      std::string* err) {
  std::vector<std::string> errors;
  try {
    po::parsed_options parsed =
        po::command_line_parser(args)
            .options(table.all())
            .style(kBoostStyle)
            .extra_style_parser(GetoptSyntax(&table, syntax, &errors))
            .run();
    out->operands_ =
        po::collect_unrecognized(parsed.options, po::include_positional);
    if (errors.empty()) po::store(parsed, out->values_);
    for (const po::option& given : parsed.options) {
      if (given.string_key.empty()) continue;  // an operand
      out->command_line_.push_back(
          {given.string_key, given.value.empty() ? "" : given.value[0]});
    }
  } catch (const po::error& e) {
    errors.push_back(GetoptMessage(e));
  }
  if (errors.empty()) return true;
  *err = errors[0];
  for (size_t i = 1; i < errors.size(); ++i) *err += "\n" + errors[i];
  return false;
}

std::string GetoptMessage(const po::error& e) {
  const auto* syntax = dynamic_cast<const po::invalid_command_line_syntax*>(&e);
  if (syntax != nullptr &&
      syntax->kind() == po::invalid_syntax::missing_parameter) {
    return RequiresArgument(Word(syntax->get_option_name()));
  }
  return e.what();
}

std::string FormatOptionHelp(const po::options_description& options) {
  std::string out;
  for (const auto& option : options.options()) {
    if (option->description().empty()) continue;
    std::string left = "  ";
    auto [long_names, count] = option->long_names();
    for (size_t i = 0; i < count; ++i) {
      left += (i > 0 ? ", " : "");
      left += (long_names[i].size() == 1 ? "-" : "--") + long_names[i];
    }
    std::string letter = option->canonical_display_name(
        po::command_line_style::allow_dash_for_short);
    if (letter.size() == 2 && letter[0] == '-') {
      left += (count > 0 ? ", " : "") + letter;
    }
    if (TakesValue(*option)) left += " " + option->semantic()->name();
    if (left.size() < 28) {
      left.resize(28, ' ');
    } else {
      left += "\n" + std::string(28, ' ');
    }
    out += left + option->description() + "\n";
  }
  return out;
}

}  // namespace flamefold
