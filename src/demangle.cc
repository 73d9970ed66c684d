#include <cxxabi.h>

#include <cstdlib>
#include <memory>

#include "flamefold/symbol_demangle.h"

namespace flamefold {
namespace {

constexpr std::string_view kAnon = "(anonymous namespace)";
constexpr std::string_view kOperatorChars = "+-*/%^&|~!=<>,()[]";

bool IsIdent(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

// At `i` starts the keyword "operator" (not inside another identifier).
bool OperatorAt(std::string_view s, size_t i) {
  return s.substr(i, 8) == "operator" && (i == 0 || !IsIdent(s[i - 1])) &&
         (i + 8 >= s.size() || !IsIdent(s[i + 8]));
}

// Walks `s` at bracket depth 0 and reports, through the callbacks, each
// '(' that opens a parameter list and each space, skipping the punctuation
// of operator names and "(anonymous namespace)".
template <typename OnParen, typename OnSpace>
void Scan(std::string_view s, OnParen on_paren, OnSpace on_space) {
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.substr(i, kAnon.size()) == kAnon) {
      i += kAnon.size() - 1;
      continue;
    }
    if (OperatorAt(s, i)) {
      i += 8;
      if (s.substr(i, 2) == "()" || s.substr(i, 2) == "[]") {
        i += 1;
        continue;
      }
      while (i < s.size() && kOperatorChars.find(s[i]) != std::string_view::npos &&
             s[i] != '(') {
        ++i;
      }
      --i;
      continue;
    }
    char c = s[i];
    if (c == '<' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == '>' || c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == '(') {
      if (depth == 0) on_paren(i);
      ++depth;
    } else if (c == ')' && depth > 0) {
      --depth;
    } else if (c == ' ' && depth == 0) {
      on_space(i);
    }
  }
}

// Legacy Rust names end in "::h" and 16 hex digits; their punctuation is
// escaped ($LT$, $u20$, ..).
bool IsLegacyRust(std::string_view s) {
  if (s.size() < 19 || s.substr(s.size() - 19, 3) != "::h") return false;
  for (char c : s.substr(s.size() - 16)) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string RustUnescape(std::string_view s) {
  static constexpr std::pair<std::string_view, std::string_view> kEsc[] = {
      {"$SP$", "@"}, {"$BP$", "*"}, {"$RF$", "&"}, {"$LT$", "<"},
      {"$GT$", ">"}, {"$LP$", "("}, {"$RP$", ")"}, {"$C$", ","},
      {"$u7e$", "~"}, {"$u20$", " "}, {"$u27$", "'"}, {"$u5b$", "["},
      {"$u5d$", "]"}, {"$u7b$", "{"}, {"$u7d$", "}"}, {"$u3b$", ";"},
      {"$u2b$", "+"}, {"$u22$", "\""}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '$') {
      bool done = false;
      for (const auto& [from, to] : kEsc) {
        if (s.substr(i, from.size()) == from) {
          out += to;
          i += from.size();
          done = true;
          break;
        }
      }
      if (done) continue;
    }
    if (s.substr(i, 2) == "..") {
      out += "::";
      i += 2;
      continue;
    }
    out += s[i++];
  }
  return out;
}

// perf's demangler, not asked for parameters, never reads them, so it
// names functions whose parameter types the full demangler rejects. The
// same name is found here as the longest prefix of the symbol that, ended
// with a "void" parameter list, demangles; "mangled" itself when none does.
std::string NameOnly(const std::string& base, std::string_view mangled) {
  constexpr size_t kMaxTries = 512;
  for (size_t len = base.size() - 1, tries = 0; len > 2 && tries < kMaxTries;
       --len, ++tries) {
    std::string attempt = base.substr(0, len) + "v";
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> out(
        abi::__cxa_demangle(attempt.c_str(), nullptr, nullptr, &status),
        &std::free);
    if (status == 0 && out) return StripFunctionType(out.get());
  }
  return std::string(mangled);
}

}  // namespace

std::string StripFunctionType(std::string_view s) {
  size_t params = std::string_view::npos;
  Scan(s, [&](size_t i) { params = i; }, [](size_t) {});
  std::string_view name = s.substr(0, params);
  // Template functions print a return type first: "int f<int>".
  if (params != std::string_view::npos && !name.empty() &&
      name.back() == '>') {
    size_t space = std::string_view::npos;
    bool seen_operator = false;
    for (size_t i = 0; i < name.size(); ++i) {
      if (OperatorAt(name, i)) {
        seen_operator = true;
        break;
      }
    }
    Scan(name, [](size_t) {},
         [&](size_t i) {
           if (!seen_operator || name.find("operator") > i) space = i;
         });
    if (space != std::string_view::npos) name = name.substr(space + 1);
  }
  return std::string(name);
}

std::string DemangleSymbol(std::string_view mangled) {
  if (mangled.substr(0, 2) != "_Z") return std::string(mangled);
  // Clone suffixes (".cold", ".isra.0", ...) are not printed by perf.
  std::string base(mangled.substr(0, mangled.find('.')));
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(base.c_str(), nullptr, nullptr, &status),
      &std::free);
  if (status != 0 || !out) return NameOnly(base, mangled);
  std::string full = out.get();
  // Special names print the function they stand for in full, parameters
  // included: "non-virtual thunk to A::f(int)".
  for (std::string_view special :
       {"non-virtual thunk to ", "virtual thunk to ",
        "covariant return thunk to ", "transaction clone for ",
        "non-transaction clone for ", "vtable for ", "VTT for ",
        "construction vtable for ", "typeinfo for ", "typeinfo name for ",
        "typeinfo fn for ", "guard variable for ", "TLS init function for ",
        "TLS wrapper function for ", "reference temporary ",
        "hidden alias for "}) {
    if (full.rfind(special, 0) == 0) return full;
  }
  if (IsLegacyRust(full)) {
    return RustUnescape(std::string_view(full).substr(0, full.size() - 19));
  }
  // A mangled name that is not a function ("_ZN3foo3barE", a variable or a
  // vtable) has no parameter list to strip.
  return StripFunctionType(full);
}

}  // namespace flamefold
