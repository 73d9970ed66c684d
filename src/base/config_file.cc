#include "base/config_file.h"

#include <algorithm>
#include <cstdlib>

#include <boost/program_options/detail/config_file.hpp>

#include "base/diag.h"

namespace flamefold {
namespace {

std::string At(const std::string& path, int line) {
  return path + ":" + std::to_string(line) + ": ";
}

// Boost's parser takes a '#' anywhere for the start of a comment, which
// would cut `bgcolors = #eeeeee` to an empty value. Here only a line whose
// first non-blank character is '#' is a comment; a '#' elsewhere reaches
// Boost as kHash, a control character no line may hold, and is given back
// by Restored.
constexpr char kHash = '\x1f';

std::string Restored(std::string text) {
  std::replace(text.begin(), text.end(), kHash, '#');
  return text;
}

// parse_config_file's own parser, handed the file one line at a time (its
// getline hook), so that each setting and each error has its line number.
// A line holding a control character ends the reading, with the line kept
// in `*bad` for the message.
class NumberedLines : public po::detail::common_config_file_iterator {
 public:
  NumberedLines(std::istream& in, int* line, std::string* bad)
      : common_config_file_iterator({}, /*allow_unregistered=*/true),
        in_(in),
        line_(line),
        bad_(bad) {
    get();
  }

 protected:
  bool getline(std::string& text) override {
    if (!bad_->empty() || !std::getline(in_, text)) return false;
    ++*line_;
    if (!text.empty() && text.back() == '\r') text.pop_back();  // CRLF files
    for (char c : text) {
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) {
        *bad_ = text;
        return false;
      }
    }
    size_t first = text.find_first_not_of(" \t");
    if (first != std::string::npos && text[first] == '#') {
      text.clear();
    } else {
      std::replace(text.begin(), text.end(), '#', kHash);
    }
    return true;
  }

 private:
  std::istream& in_;
  int* line_;
  std::string* bad_;
};

// Sorts a setting Boost read ("flamesvg.colors = java": its section's name
// is the key's prefix) into `out` when it is the tool's; false with `*err`
// when it is in no tool's section.
bool Sort(const po::option& setting, int line, const std::string& path,
          std::string_view tool, std::span<const std::string_view> tools,
          ConfigSection* out, std::string* err) {
  const std::string& name = setting.string_key;
  size_t dot = name.find('.');
  if (dot == std::string::npos) {
    *err = At(path, line) + "'" + Printable(Restored(name)) +
           "' is not under a [tool] section";
    return false;
  }
  std::string_view section = std::string_view(name).substr(0, dot);
  if (std::find(tools.begin(), tools.end(), section) == tools.end()) {
    *err = At(path, line) + "[" + Printable(Restored(std::string(section))) +
           "] names no tool (";
    for (size_t i = 0; i < tools.size(); ++i) {
      *err += std::string(i > 0 ? ", " : "") + std::string(tools[i]);
    }
    *err += ")";
    return false;
  }
  if (section == tool) {
    out->settings.push_back(
        {line, Restored(name.substr(dot + 1)), Restored(setting.value[0])});
  }
  return true;
}

// Stores `setting` alone, for its line in a message should Boost refuse
// its value.
bool CheckValue(const po::options_description& options,
                const po::option& setting, const std::string& where,
                std::string* err) {
  po::parsed_options alone(&options);
  alone.options.push_back(setting);
  po::variables_map scratch;
  try {
    po::store(alone, scratch);
  } catch (const po::error& e) {
    *err = where + GetoptMessage(e);
    return false;
  }
  return true;
}

}  // namespace

std::string DefaultConfigPath() {
  // XDG: an unset, empty or relative XDG_CONFIG_HOME means ~/.config.
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && xdg[0] == '/') {
    return std::string(xdg) + "/flamefold/config";
  }
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] != '\0') {
    return std::string(home) + "/.config/flamefold/config";
  }
  return "";
}

bool ReadConfigSection(std::istream& in, const std::string& path,
                       std::string_view tool,
                       std::span<const std::string_view> tools,
                       ConfigSection* out, std::string* err) {
  out->path = path;
  out->tool = std::string(tool);
  int line = 0;
  std::string bad;
  try {
    const po::detail::common_config_file_iterator end;
    for (NumberedLines lines(in, &line, &bad); lines != end; ++lines) {
      if (!Sort(*lines, line, path, tool, tools, out, err)) return false;
    }
  } catch (const po::invalid_config_file_syntax& e) {
    *err = At(path, line) + "'" + Printable(Restored(e.tokens())) +
           "' is neither KEY = VALUE nor [SECTION]";
    return false;
  }
  if (!bad.empty()) {
    *err = At(path, line) + "'" + Printable(bad) +
           "' holds a control character";
    return false;
  }
  return true;
}

bool StoreConfigSettings(const ConfigSection& section,
                         const po::options_description& options,
                         std::span<const std::string_view> command_line_only,
                         ParsedOptions* out,
                         std::vector<ConfigSetting>* unknown,
                         std::string* err) {
  po::parsed_options parsed(&options);
  for (const ConfigSetting& s : section.settings) {
    std::string where = At(section.path, s.line);
    const po::option_description* option =
        s.key.size() > 1 ? options.find_nothrow(s.key, false, false, false)
                         : nullptr;
    if (option == nullptr) {
      if (unknown != nullptr) {
        unknown->push_back(s);
        continue;
      }
      *err = where + "unknown option '" + Printable(s.key) + "' in [" +
             section.tool + "]";
      return false;
    }
    const std::string& name = option->key("");
    if (std::find(command_line_only.begin(), command_line_only.end(), name) !=
        command_line_only.end()) {
      *err = where + name + " cannot be set in a configuration file";
      return false;
    }
    po::option setting(name, {s.value});
    setting.original_tokens = {s.key, s.value};
    if (!CheckValue(options, setting, where, err)) return false;
    parsed.options.push_back(setting);
    out->NoteFileSetting(*option, s.value);
  }
  try {
    po::store(parsed, out->values());
  } catch (const po::error& e) {
    *err = section.path + ": " + GetoptMessage(e);
    return false;
  }
  return true;
}

}  // namespace flamefold
