#include "base/options.h"

#include <algorithm>
#include <cctype>

namespace flamefold {
namespace {

std::vector<std::string_view> SplitNames(std::string_view names) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  for (;;) {
    size_t bar = names.find('|', pos);
    out.push_back(names.substr(pos, bar - pos));
    if (bar == std::string_view::npos) break;
    pos = bar + 1;
  }
  return out;
}

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

struct Name {
  std::string name;  // lower case, except one-letter names
  const OptionSpec* spec;
};

// The spec named exactly `body`: names case-insensitively, but one-letter
// names as spelled (-V is --version, -v is not).
const OptionSpec* Exact(const std::vector<Name>& names, std::string_view body) {
  std::string word = Lower(body);
  for (const Name& n : names) {
    if (n.name == (n.name.size() == 1 ? std::string(body) : word)) return n.spec;
  }
  return nullptr;
}

// Resolves an option word to its spec, or sets *err. A one-letter word is
// an abbreviation of the Perl script's names only: a single letter of our
// own is an explicit alias, never the start of a long name ("-v" is not
// --version, as Getopt::Long in the Perl scripts says "Unknown option: v").
const OptionSpec* Resolve(const std::vector<Name>& names,
                          std::string_view body, std::string* err) {
  if (const OptionSpec* spec = Exact(names, body)) return spec;
  std::string word = Lower(body);
  for (bool perl_only : {true, false}) {
    if (!perl_only && word.size() == 1) break;
    std::vector<const Name*> hits;
    for (const Name& n : names) {
      if (perl_only && !n.spec->perl) continue;
      if (n.name.size() > 1 && n.name.compare(0, word.size(), word) == 0) {
        hits.push_back(&n);
      }
    }
    if (hits.empty()) continue;
    const OptionSpec* spec = hits[0]->spec;
    bool same = std::all_of(hits.begin(), hits.end(),
                            [&](const Name* n) { return n->spec == spec; });
    if (same) return spec;
    std::string list;
    for (const Name* n : hits) {
      if (!list.empty()) list += ", ";
      list += n->name;
    }
    *err = "Option " + word + " is ambiguous (" + list + ")";
    return nullptr;
  }
  *err = word.empty() ? "Missing option after -" : "Unknown option: " + word;
  return nullptr;
}

// The option with the one-letter name `c`, if any, that is a flag (`flag`)
// or takes a value (!`flag`).
const OptionSpec* OneLetter(const std::vector<Name>& names, char c, bool flag) {
  for (const Name& n : names) {
    if (n.name.size() == 1 && n.name[0] == c &&
        (n.spec->type == OptType::kFlag) == flag) {
      return n.spec;
    }
  }
  return nullptr;
}

}  // namespace

std::string ParsedOptions::Get(std::string_view name, std::string_view def) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::string(def);
  return it->second.back();
}

const std::vector<std::string>& ParsedOptions::All(std::string_view name) const {
  static const std::vector<std::string> kEmpty;
  auto it = values_.find(name);
  return it == values_.end() ? kEmpty : it->second;
}

bool ParseArgs(std::span<const OptionSpec> specs, int argc, char** argv,
               ParsedOptions* out, std::string* err, ParseMode mode) {
  const bool pass_through = mode == ParseMode::kPassThrough;
  std::vector<Name> names;
  for (const OptionSpec& spec : specs) {
    for (std::string_view n : SplitNames(spec.names)) {
      names.push_back({n.size() == 1 ? std::string(n) : Lower(n), &spec});
    }
  }
  std::sort(names.begin(), names.end(),
            [](const Name& a, const Name& b) { return a.name < b.name; });
  std::vector<std::string> errors;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") {
      if (pass_through) out->operands_.push_back("--");
      for (++i; i < argc; ++i) out->operands_.push_back(argv[i]);
      break;
    }
    size_t prefix = arg.substr(0, 2) == "--" ? 2
                    : (!arg.empty() && (arg[0] == '-' || arg[0] == '+')) ? 1 : 0;
    if (prefix == 0 || arg == "-" ||
        (mode == ParseMode::kBundling && arg[0] == '+')) {
      out->operands_.push_back(std::string(arg));
      continue;
    }
    if (mode == ParseMode::kBundling && prefix == 1) {
      for (char c : arg.substr(1)) {  // Getopt::Std: "-ns" is -n -s
        const OptionSpec* spec = OneLetter(names, c, true);
        if (spec == nullptr) {
          errors.push_back("Unknown option: " + std::string(1, c));
        } else {
          out->values_[std::string(SplitNames(spec->names)[0])] = {"1"};
        }
      }
      continue;
    }
    std::string_view body = arg.substr(prefix);
    std::string value;
    bool has_value = false;
    size_t eq = body.find('=', 1);
    if (eq != std::string_view::npos && eq > 0) {
      value = std::string(body.substr(eq + 1));
      body = body.substr(0, eq);
      has_value = true;
    }
    std::string why;
    const OptionSpec* spec = nullptr;
    if (pass_through) {
      spec = Exact(names, body);
      if (spec == nullptr) {
        out->operands_.push_back(std::string(arg));
        continue;
      }
    } else {
      spec = Resolve(names, body, &why);
    }
    if (spec == nullptr && prefix == 1 && !has_value && body.size() > 1) {
      // "-j2", "-oFILE": a value glued to one of our one-letter options.
      // Getopt::Long would call these unknown, so no Perl call changes.
      spec = OneLetter(names, body[0], false);
      if (spec != nullptr) {
        value = std::string(body.substr(1));
        has_value = true;
      }
    }
    if (spec == nullptr) {
      errors.push_back(why);
      continue;
    }
    std::string canonical(SplitNames(spec->names)[0]);
    if (spec->type == OptType::kFlag) {
      if (has_value) {
        errors.push_back("Option " + Lower(body) + " does not take an argument");
        continue;
      }
      value = "1";
    } else {
      if (!has_value) {
        if (i + 1 >= argc) {
          errors.push_back("Option " + canonical + " requires an argument");
          continue;
        }
        value = argv[++i];
      } else if (value.empty()) {
        errors.push_back("Option " + canonical + " requires an argument");
        continue;
      }
      if (spec->type == OptType::kInt) {
        if (!IsPerlInt(value)) {
          errors.push_back("Value \"" + value + "\" invalid for option " +
                           canonical + " (number expected)");
          continue;
        }
        value.erase(std::remove(value.begin(), value.end(), '_'), value.end());
      } else if (spec->type == OptType::kFloat) {
        if (!IsPerlFloat(value)) {
          errors.push_back("Value \"" + value + "\" invalid for option " +
                           canonical + " (real number expected)");
          continue;
        }
        value.erase(std::remove(value.begin(), value.end(), '_'), value.end());
      }
    }
    auto& slot = out->values_[canonical];
    if (!spec->repeatable) slot.clear();
    slot.push_back(std::move(value));
  }
  if (!errors.empty()) {
    *err = errors[0];
    for (size_t k = 1; k < errors.size(); ++k) *err += "\n" + errors[k];
    return false;
  }
  return true;
}

bool ParseOptions(std::span<const OptionSpec> specs, int argc, char** argv,
                  ParsedOptions* out, std::string* err) {
  return ParseArgs(specs, argc, argv, out, err, ParseMode::kPerl);
}

bool ParseOptionsPassThrough(std::span<const OptionSpec> specs, int argc,
                             char** argv, ParsedOptions* out,
                             std::string* err) {
  return ParseArgs(specs, argc, argv, out, err, ParseMode::kPassThrough);
}

bool ParseOptionsBundling(std::span<const OptionSpec> specs, int argc,
                          char** argv, ParsedOptions* out, std::string* err) {
  return ParseArgs(specs, argc, argv, out, err, ParseMode::kBundling);
}

std::vector<OptionSpec> JoinOptionSpecs(
    std::initializer_list<std::span<const OptionSpec>> parts) {
  std::vector<OptionSpec> out;
  for (std::span<const OptionSpec> part : parts) {
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

std::string FormatOptionHelp(std::span<const OptionSpec> specs) {
  std::string out;
  for (const OptionSpec& spec : specs) {
    if (spec.help.empty()) continue;
    std::string left = "  ";
    bool first = true;
    for (std::string_view n : SplitNames(spec.names)) {
      if (!first) left += ", ";
      left += n.size() == 1 ? "-" : "--";
      left += n;
      first = false;
    }
    if (spec.type != OptType::kFlag) {
      left += ' ';
      left += spec.arg.empty() ? std::string_view("VALUE") : spec.arg;
    }
    if (left.size() < 28) {
      left.resize(28, ' ');
    } else {
      left += "\n" + std::string(28, ' ');
    }
    out += left;
    out += spec.help;
    out += '\n';
  }
  return out;
}

}  // namespace flamefold
