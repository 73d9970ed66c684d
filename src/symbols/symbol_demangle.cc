#include <cxxabi.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <memory>
#include <vector>

#include "symbols/symbol_demangle.h"

#include "base/hex.h"

namespace flamefold {
namespace {

constexpr std::string_view kAnon = "(anonymous namespace)";
constexpr std::string_view kOperatorChars = "+-*/%^&|~!=<>,()[]";

constexpr bool IsIdent(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

// At `i` starts the keyword "operator" (not inside another identifier).
// The first letter is tested alone first: this runs for every character
// of every demangled name.
bool OperatorAt(std::string_view s, size_t i) {
  return s[i] == 'o' && s.substr(i, 8) == "operator" &&
         (i == 0 || !IsIdent(s[i - 1])) &&
         (i + 8 >= s.size() || !IsIdent(s[i + 8]));
}

// Walks `s` at bracket depth 0 and reports, through the callbacks, each
// '(' that opens a parameter list and each space, skipping the punctuation
// of operator names and "(anonymous namespace)".
// Letters, digits, '_' and ':' matter to none of the steps below unless
// they start "operator"; they are skipped through a table (this runs over
// every character of every demangled name).
constexpr bool Plain(char c) {
  return c != 'o' && (IsIdent(c) || c == ':');
}
struct PlainTable {
  bool plain[256] = {};
  constexpr PlainTable() {
    for (int c = 0; c < 256; ++c) plain[c] = Plain(static_cast<char>(c));
  }
};
constexpr PlainTable kPlain;

template <typename OnParen, typename OnSpace>
void Scan(std::string_view s, OnParen on_paren, OnSpace on_space) {
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (kPlain.plain[static_cast<unsigned char>(s[i])]) continue;
    if (s[i] == '(' && s.substr(i, kAnon.size()) == kAnon) {
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

// Legacy Rust names ("_ZN" + length-prefixed identifiers + "17h" + 16 hex
// digits + "E", maybe a ".suffix" after), printed as libiberty prints them
// without its verbose flag, which is what perf script prints: it tries Rust
// before C++ on every "_ZN" name. Returns false for a name that is not one
// by libiberty's rules, which then goes to the C++ demangler.
class RustLegacy {
 public:
  explicit RustLegacy(std::string_view s) : s_(s) {}

  bool Demangle(std::string* out) {
    if (s_.substr(0, 3) != "_ZN") return false;
    std::string_view body = s_.substr(3);
    for (char c : body) {
      if (!IsIdent(c) && c != '$' && c != '.' && c != ':' && c != '@') {
        return false;
      }
    }
    // The names end in 'E', perhaps followed by ".suffix": the last 'E'
    // that ends the text or is followed by a '.'.
    size_t n = body.size();
    while (n > 0 && !(body[n - 1] == 'E' && (n == body.size() ||
                                             body[n] == '.'))) {
      --n;
    }
    if (n == 0) return false;
    body = body.substr(0, n - 1);
    if (body.size() <= 19 || body.substr(body.size() - 19, 3) != "17h") {
      return false;
    }
    std::vector<std::string_view> idents;
    for (size_t at = 0; at < body.size();) {
      std::string_view ident;
      if (!NextIdent(body, &at, &ident)) return false;
      idents.push_back(ident);
    }
    if (!IsHash(idents.back())) return false;
    idents.pop_back();  // the hash is not printed
    for (size_t i = 0; i < idents.size(); ++i) {
      if (i > 0) *out += "::";
      Print(idents[i], out);
    }
    return true;
  }

 private:
  // A decimal length (no leading zero but "0" itself) and that many bytes.
  static bool NextIdent(std::string_view body, size_t* at,
                        std::string_view* ident) {
    size_t i = *at;
    if (i >= body.size() || body[i] < '0' || body[i] > '9') return false;
    size_t len = body[i++] - '0';
    if (len != 0) {
      while (i < body.size() && body[i] >= '0' && body[i] <= '9') {
        if (len > body.size()) return false;
        len = len * 10 + (body[i++] - '0');
      }
    }
    if (len == 0 || len > body.size() - i) return false;
    *ident = body.substr(i, len);
    *at = i + len;
    return true;
  }

  // A lower-case hex digit's value, else -1 (libiberty takes no others).
  static int LowerHex(char c) {
    if (c >= 'A' && c <= 'F') return -1;
    return kHexDigits[static_cast<unsigned char>(c)];
  }

  // "h" and 16 lower-case hex digits, at least 5 of them distinct: a path
  // segment that only looks like a hash is kept.
  static bool IsHash(std::string_view ident) {
    if (ident.size() != 17 || ident[0] != 'h') return false;
    unsigned seen = 0;
    for (char c : ident.substr(1)) {
      int d = LowerHex(c);
      if (d < 0) return false;
      seen |= 1u << d;
    }
    return std::popcount(seen) >= 5;
  }

  // "$LT$", "$u20$" and the like at the front of `e`: the byte, and in
  // `*len` the escape's length; 0 when there is none.
  static char Escape(std::string_view e, size_t* len) {
    if (e.size() < 3 || e[0] != '$') return 0;
    std::string_view in = e.substr(1);
    char c = 0;
    size_t n = 0;
    if (in[0] == 'C') {
      c = ',';
      n = 1;
    } else if (in.size() > 2) {
      n = 2;
      static constexpr std::pair<std::string_view, char> kTwo[] = {
          {"SP", '@'}, {"BP", '*'}, {"RF", '&'}, {"LT", '<'},
          {"GT", '>'}, {"LP", '('}, {"RP", ')'}};
      for (const auto& [code, byte] : kTwo) {
        if (in.substr(0, 2) == code) c = byte;
      }
      if (c == 0 && in[0] == 'u' && in.size() > 3) {
        n = 3;
        int hi = LowerHex(in[1]), lo = LowerHex(in[2]);
        if (hi < 0 || lo < 0 || hi > 7) return 0;
        c = static_cast<char>(hi << 4 | lo);
        if (c < 0x20) return 0;
      }
    }
    if (c == 0 || in.size() <= n || in[n] != '$') return 0;
    *len = n + 2;
    return c;
  }

  // An identifier's escapes undone: a leading '_' before an escape goes
  // (the mangler adds it), ".." is "::", an unknown escape and what
  // follows it are printed as they are.
  static void Print(std::string_view ident, std::string* out) {
    if (ident.size() >= 2 && ident[0] == '_' && ident[1] == '$') {
      ident.remove_prefix(1);
    }
    while (!ident.empty()) {
      size_t len = 1;
      if (ident[0] == '$') {
        char c = Escape(ident, &len);
        if (c == 0) {
          *out += ident;
          return;
        }
        *out += c;
      } else if (ident[0] == '.') {
        len = ident.size() >= 2 && ident[1] == '.' ? 2 : 1;
        *out += len == 2 ? "::" : ".";
      } else {
        len = std::min(ident.find_first_of("$."), ident.size());
        *out += ident.substr(0, len);
      }
      ident.remove_prefix(len);
    }
  }

  std::string_view s_;
};

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

// Rust v0 names ("_R..."), printed as libiberty prints them without its
// verbose flag (which is how perf prints them): crate disambiguators and
// impl paths hidden, "<T>::f" for inherent methods, "<T as Trait>::f" for
// trait ones, "for<'a> unsafe extern \"C\" fn(&'a u8) -> i32" for function
// types and "dyn Fn<(u8,), Output = ()> + Send" for trait objects.
// Returns false on anything outside the supported subset (punycode
// identifiers, most constants), and the caller keeps the mangled name.
class RustV0 {
 public:
  explicit RustV0(std::string_view s) : s_(s) {}
  bool Demangle(std::string* out) {
    if (!Path(true, out)) return false;
    return true;  // an instantiating-crate path may follow: not printed
  }

 private:
  bool Peek(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
  bool Eat(char c) {
    if (!Peek(c)) return false;
    ++pos_;
    return true;
  }
  // <base-62-number>: "_" is 0, else digits then "_" is value + 1.
  bool Base62(uint64_t* v) {
    if (Eat('_')) {
      *v = 0;
      return true;
    }
    uint64_t x = 0;
    while (pos_ < s_.size() && s_[pos_] != '_') {
      char c = s_[pos_++];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'z' ? c - 'a' + 10
              : c >= 'A' && c <= 'Z' ? c - 'A' + 36
                                     : -1;
      if (d < 0 || x > (UINT64_MAX - 62) / 62) return false;
      x = x * 62 + static_cast<uint64_t>(d);
    }
    if (!Eat('_')) return false;
    *v = x + 1;
    return true;
  }
  bool Disambiguator() {
    uint64_t v = 0;
    return !Eat('s') || Base62(&v);
  }
  bool Ident(std::string* name) {
    if (Peek('u')) return false;  // punycode
    size_t len = 0, start = pos_;
    if (Eat('0')) {
      // "0" is a whole number: no leading zeros
    } else {
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        len = len * 10 + static_cast<size_t>(s_[pos_++] - '0');
        if (len > s_.size()) return false;
      }
    }
    if (pos_ == start) return false;
    Eat('_');
    if (s_.size() - pos_ < len) return false;
    name->assign(s_.substr(pos_, len));
    pos_ += len;
    return true;
  }
  // Runs `f` at a back-reference's target, then comes back.
  template <typename F>
  bool BackRef(F f) {
    size_t at = pos_ - 1;
    uint64_t target = 0;
    if (!Base62(&target) || target >= at || ++depth_ > 64) return false;
    size_t saved = pos_;
    pos_ = static_cast<size_t>(target);
    bool ok = f();
    pos_ = saved;
    --depth_;
    return ok;
  }
  bool Path(bool in_value, std::string* out) {
    if (pos_ >= s_.size() || ++depth_ > 256) return false;
    char tag = s_[pos_++];
    bool ok = false;
    std::string name, tmp;
    switch (tag) {
      case 'C':
        ok = Disambiguator() && Ident(&name);
        *out += name;
        break;
      case 'N': {
        if (pos_ >= s_.size()) return false;
        char ns = s_[pos_++];
        uint64_t dis = 0;
        ok = Path(in_value, out);
        if (ok && Eat('s')) {
          ok = Base62(&dis);
          ++dis;
        }
        ok = ok && Ident(&name);
        if (!ok) break;
        if (ns >= 'a' && ns <= 'z') {
          if (!name.empty()) *out += "::" + name;
        } else {
          *out += "::{";
          *out += ns == 'C' ? "closure" : ns == 'S' ? "shim" : std::string(1, ns);
          if (!name.empty()) *out += ":" + name;
          // Appended piece by piece: GCC 12 warns (-Wrestrict, a false
          // positive, GCC bug 105329) on "literal" + std::string&&.
          *out += '#';
          *out += std::to_string(dis);
          *out += '}';
        }
        break;
      }
      case 'M':
        ok = Disambiguator() && Path(false, &tmp) && (*out += "<", true) &&
             Type(out);
        *out += ">";
        break;
      case 'X':
        ok = Disambiguator() && Path(false, &tmp) && (*out += "<", true) &&
             Type(out) && (*out += " as ", true) && Path(false, out);
        *out += ">";
        break;
      case 'Y':
        *out += "<";
        ok = Type(out) && (*out += " as ", true) && Path(false, out);
        *out += ">";
        break;
      case 'I':
        ok = Path(in_value, out);
        if (!ok) break;
        *out += in_value ? "::<" : "<";
        for (bool first = true; ok && !Eat('E'); first = false) {
          if (!first) *out += ", ";
          ok = GenericArg(out);
        }
        *out += ">";
        break;
      case 'B':
        ok = BackRef([&] { return Path(in_value, out); });
        break;
      default:
        ok = false;
    }
    --depth_;
    return ok;
  }
  bool GenericArg(std::string* out) {
    if (Eat('L')) {
      uint64_t lt = 0;
      if (!Base62(&lt)) return false;
      Lifetime(lt, out);
      return true;
    }
    if (Eat('K')) return Const(out);
    return Type(out);
  }
  bool Const(std::string* out) {
    if (Eat('p')) {
      *out += "_";
      return true;
    }
    if (Eat('B')) return BackRef([&] { return Const(out); });
    if (pos_ >= s_.size()) return false;
    char type = s_[pos_++];
    if (std::string_view("hmyjtoabilnsx").find(type) == std::string_view::npos) {
      return false;
    }
    bool negative = Eat('n');
    uint64_t v = 0;
    size_t digits = 0;
    while (pos_ < s_.size() && s_[pos_] != '_') {
      char c = s_[pos_++];
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0 || ++digits > 16) return false;
      v = v * 16 + static_cast<uint64_t>(d);
    }
    if (!Eat('_')) return false;
    if (type == 'b') {
      *out += v ? "true" : "false";
    } else {
      if (negative) *out += '-';  // not "-" + string: GCC 12 -Wrestrict, see Path
      *out += std::to_string(v);
    }
    return true;
  }
  bool Type(std::string* out) {
    static constexpr std::string_view kBasic = "abcdefhijlmnostuvxyzp";
    static constexpr const char* kNames[] = {
        "i8",  "bool", "char", "f64", "str",   "f32", "u8",
        "isize", "usize", "i32", "u32", "i128", "u128", "i16",
        "u16", "()",  "...", "i64", "u64", "!",   "_"};
    if (pos_ >= s_.size() || ++depth_ > 256) return false;
    char c = s_[pos_];
    size_t basic = kBasic.find(c);
    bool ok = true;
    if (basic != std::string_view::npos) {
      ++pos_;
      *out += kNames[basic];
    } else if (c == 'R' || c == 'Q') {
      ++pos_;
      uint64_t lt = 0;
      if (Eat('L')) ok = Base62(&lt);
      *out += '&';
      if (ok && lt != 0) {
        Lifetime(lt, out);
        *out += ' ';
      }
      if (c == 'Q') *out += "mut ";
      ok = ok && Type(out);
    } else if (c == 'P' || c == 'O') {
      ++pos_;
      *out += c == 'P' ? "*const " : "*mut ";
      ok = Type(out);
    } else if (c == 'A') {
      ++pos_;
      *out += "[";
      ok = Type(out) && (*out += "; ", true) && Const(out);
      *out += "]";
    } else if (c == 'S') {
      ++pos_;
      *out += "[";
      ok = Type(out);
      *out += "]";
    } else if (c == 'T') {
      ++pos_;
      *out += "(";
      size_t n = 0;
      for (; ok && !Eat('E'); ++n) {
        if (n) *out += ", ";
        ok = Type(out);
      }
      if (n == 1) *out += ",";
      *out += ")";
    } else if (c == 'B') {
      ++pos_;
      ok = BackRef([&] { return Type(out); });
    } else if (c == 'F') {
      ++pos_;
      ok = FnType(out);
    } else if (c == 'D') {
      ++pos_;
      ok = DynType(out);
    } else {
      ok = Path(false, out);
    }
    --depth_;
    return ok;
  }

  // A lifetime by its index: 0 is "'_", else one bound by an enclosing
  // binder, counted from the innermost: "'a", "'b", ... "'z", "'_26", ...
  void Lifetime(uint64_t lt, std::string* out) const {
    *out += '\'';
    if (lt == 0) {
      *out += '_';
      return;
    }
    uint64_t depth = bound_ - lt;  // wraps, as libiberty's does
    if (depth < 26) {
      *out += static_cast<char>('a' + depth);
    } else {
      *out += '_';
      *out += std::to_string(depth);
    }
  }
  // <binder> = "G" <base-62-number>: that many lifetimes + 1, bound here
  // ("for<'a, 'b> "). The caller restores bound_ after the bound type.
  bool Binder(std::string* out) {
    if (!Eat('G')) return true;
    uint64_t n = 0;
    if (!Base62(&n) || n >= 4096) return false;
    *out += "for<";
    for (uint64_t i = 0; i <= n; ++i) {
      if (i > 0) *out += ", ";
      ++bound_;
      Lifetime(1, out);
    }
    *out += "> ";
    return true;
  }
  // "F" [<binder>] ["U"] ["K" <abi>] {<type>} "E" <type>: a function
  // pointer type; a "()" result is not printed, and an ABI's '_' were its
  // '-' (libiberty's walk rejoins the parts with '-' and, after each, looks
  // at the rest from its second byte on).
  bool FnType(std::string* out) {
    uint64_t outer = bound_;
    bool ok = Binder(out);
    if (ok && Eat('U')) *out += "unsafe ";
    if (ok && Eat('K')) {
      std::string abi;
      if (Eat('C')) {
        abi = "C";
      } else {
        ok = Ident(&abi);
      }
      if (ok) {
        *out += "extern \"";
        std::string_view rest = abi;
        for (size_t i = 0; i < rest.size(); ++i) {
          if (rest[i] != '_') continue;
          *out += rest.substr(0, i);
          *out += '-';
          rest.remove_prefix(i + 1);
          i = 0;
        }
        *out += rest;
        *out += "\" ";
      }
    }
    if (ok) *out += "fn(";
    for (size_t i = 0; ok && !Eat('E'); ++i) {
      if (i > 0) *out += ", ";
      ok = Type(out);
    }
    if (ok) {
      *out += ')';
      if (!Eat('u')) {
        *out += " -> ";
        ok = Type(out);
      }
    }
    bound_ = outer;
    return ok;
  }
  // "D" [<binder>] {<dyn-trait>} "E" <lifetime>: a trait object, its
  // traits joined by " + ", then its lifetime unless erased.
  bool DynType(std::string* out) {
    *out += "dyn ";
    uint64_t outer = bound_;
    bool ok = Binder(out);
    for (size_t i = 0; ok && !Eat('E'); ++i) {
      if (i > 0) *out += " + ";
      ok = DynTrait(out);
    }
    bound_ = outer;
    uint64_t lt = 0;
    if (!ok || !Eat('L') || !Base62(&lt)) return false;
    if (lt != 0) {
      *out += " + ";
      Lifetime(lt, out);
    }
    return true;
  }
  // <path> {"p" <undisambiguated-identifier> <type>}: a trait with its
  // associated types bound, printed inside the trait's "<...>".
  bool DynTrait(std::string* out) {
    bool open = false;
    bool ok = TraitPath(out, &open);
    while (ok && Eat('p')) {
      *out += open ? ", " : "<";
      open = true;
      std::string name;
      ok = Ident(&name);
      *out += name;
      *out += " = ";
      ok = ok && Type(out);
    }
    if (open) *out += '>';
    return ok;
  }
  // A dyn trait's path; a generic one leaves its "<..." open (`*open`) for
  // the bindings that may follow.
  bool TraitPath(std::string* out, bool* open) {
    if (Eat('B')) {
      return BackRef([&] { return TraitPath(out, open); });
    }
    if (!Eat('I')) return Path(false, out);
    bool ok = Path(false, out);
    *out += '<';
    *open = true;
    for (size_t i = 0; ok && !Eat('E'); ++i) {
      if (i > 0) *out += ", ";
      ok = GenericArg(out);
    }
    return ok;
  }

  std::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;
  uint64_t bound_ = 0;  // lifetimes bound by the enclosing binders
};

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

// perf's last two demanglers, for a name neither C++ nor Rust: OCaml's
// "caml" + upper-case letter names ("camlStdlib__List__map_270" ->
// "Stdlib.List.map_270": "__" is '.', "$xx" a byte in hex), then Java's
// signatures as JVMTI's jitdump names them, without the return type
// ("Ljava/lang/String;hashCode()I" -> "java.lang.String.hashCode()").
bool DemangleOcaml(std::string_view s, std::string* out) {
  if (s.size() < 5 || s.substr(0, 4) != "caml" || s[4] < 'A' || s[4] > 'Z') {
    return false;
  }
  auto hex = [](char c) { return kHexDigits[static_cast<unsigned char>(c)]; };
  for (size_t i = 4; i < s.size();) {
    if (s[i] == '_' && i + 1 < s.size() && s[i + 1] == '_') {
      *out += '.';
      i += 2;
    } else if (s[i] == '$' && i + 2 < s.size() && hex(s[i + 1]) >= 0 &&
               hex(s[i + 2]) >= 0) {
      char c = static_cast<char>(hex(s[i + 1]) << 4 | hex(s[i + 2]));
      if (c == '\0') break;  // perf's result is a C string
      *out += c;
      i += 3;
    } else {
      *out += s[i++];
    }
  }
  return true;
}

// The signature up to its last ')', walked as perf walks it: "L...;" is a
// class ('/' printed '.', and a '.' after it before a letter), "(...)" the
// parameters (base types by their letters, "[" an array, ", " between
// them). perf's buffer holds three bytes a byte of the name: what goes past
// that is cut. False where perf's walk fails.
bool DemangleJava(std::string_view s, std::string* out) {
  const size_t close = s.rfind(')');
  if (close == std::string_view::npos) return false;
  enum Mode { kPrefix, kClass, kFunc, kType, kClassType } mode = kPrefix;
  const size_t cap = 3 * s.size();
  std::string r;
  auto put = [&](std::string_view t) {
    r += t.substr(0, cap - std::min(cap, r.size()));
  };
  int array = 0, args = 0;
  auto arrays = [&] {
    for (; array > 0; --array) put("[]");
  };
  for (size_t i = 0; i <= close && r.size() < cap; ++i) {
    const char c = s[i];
    switch (c) {
      case 'L':
        if (mode == kPrefix) {
          mode = kClass;
        } else if (mode == kType) {
          if (args++ > 0) put(", ");
          mode = kClassType;
        } else {
          put({&c, 1});
        }
        break;
      case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S':
      case 'Z': case 'V':
        if (mode != kType) {
          put({&c, 1});
          break;
        }
        if (c != 'V' && args++ > 0) put(", ");
        put(c == 'B' ? "byte" : c == 'C' ? "char" : c == 'D' ? "double"
            : c == 'F' ? "float" : c == 'I' ? "int" : c == 'J' ? "long"
            : c == 'S' ? "short" : c == 'Z' ? "boolean" : "void");
        arrays();
        break;
      case '[':
        if (mode != kType) return false;
        ++array;
        break;
      case '(':
        if (mode != kFunc) return false;
        put("(");
        mode = kType;
        break;
      case ')':
        if (mode != kType) return false;
        put(")");
        args = 0;
        break;
      case ';':
        if (mode != kClass && mode != kClassType) return false;
        if (mode == kClass && i + 1 < s.size() &&
            ((s[i + 1] >= 'a' && s[i + 1] <= 'z') ||
             (s[i + 1] >= 'A' && s[i + 1] <= 'Z'))) {
          put(".");
        }
        mode = mode == kClass ? kFunc : kType;
        break;
      case '/':
        if (mode != kClass && mode != kClassType) return false;
        put(".");
        break;
      default:
        put({&c, 1});
    }
  }
  *out = std::move(r);
  return true;
}

bool DemangleRust(std::string_view mangled, std::string* out) {
  out->clear();
  if (mangled.substr(0, 2) == "_R") {
    std::string_view body = mangled.substr(2, mangled.find('.') - 2);
    return RustV0(body).Demangle(out);
  }
  return mangled.substr(0, 2) == "_Z" && RustLegacy(mangled).Demangle(out);
}

std::string DemangleSymbol(std::string_view mangled) {
  if (mangled.substr(0, 2) == "_R") {
    std::string out;
    if (DemangleRust(mangled, &out)) return out;
    return std::string(mangled);
  }
  if (mangled.substr(0, 2) != "_Z") {
    std::string other;
    if (DemangleOcaml(mangled, &other) || DemangleJava(mangled, &other)) {
      return other;
    }
    return std::string(mangled);
  }
  std::string rust;
  if (RustLegacy(mangled).Demangle(&rust)) return rust;
  // Clone suffixes (".cold", ".isra.0", ...) are not printed by perf.
  std::string base(mangled.substr(0, mangled.find('.')));
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(base.c_str(), nullptr, nullptr, &status),
      &std::free);
  if ((status != 0 || !out) && base.size() < mangled.size()) {
    // Not a clone suffix but a '.' inside an identifier (a legacy Rust
    // name whose hash libiberty's Rust rules reject): the whole name.
    out.reset(abi::__cxa_demangle(std::string(mangled).c_str(), nullptr,
                                  nullptr, &status));
  }
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
  // A mangled name that is not a function ("_ZN3foo3barE", a variable or a
  // vtable) has no parameter list to strip.
  return StripFunctionType(full);
}

}  // namespace flamefold
