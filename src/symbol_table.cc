#include "flamefold/symbol_table.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "flamefold/symbol_demangle.h"

namespace flamefold {
namespace {

size_t LeadingUnderscores(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && s[n] == '_') ++n;
  return n;
}

// True when `a` is the one to keep of two symbols at the same address
// (perf's choose_best_symbol).
bool KeepFirst(const Symbol& a, const Symbol& b) {
  bool a_sized = a.end > a.start, b_sized = b.end > b.start;
  if (a_sized != b_sized) return a_sized;
  bool a_weak = a.binding == SymbolBinding::kWeak;
  bool b_weak = b.binding == SymbolBinding::kWeak;
  if (a_weak != b_weak) return b_weak;
  bool a_global = a.binding == SymbolBinding::kGlobal;
  bool b_global = b.binding == SymbolBinding::kGlobal;
  if (a_global != b_global) return a_global;
  size_t ua = LeadingUnderscores(a.name), ub = LeadingUnderscores(b.name);
  if (ua != ub) return ua < ub;
  if (a.name.size() != b.name.size()) return a.name.size() > b.name.size();
  return true;
}

uint64_t RoundUpPage(uint64_t v) { return (v + 4095) & ~uint64_t{4095}; }

bool IsModuleName(const std::string& name) {
  return name.find('[') != std::string::npos;
}

// perf's hex2u64: hex digits up to the first other character.
size_t ParseHex(std::string_view s, uint64_t* v) {
  size_t i = 0;
  *v = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0) break;
    *v = (*v << 4) | static_cast<uint64_t>(d);
  }
  return i;
}

}  // namespace

void SymbolTable::Add(uint64_t start, uint64_t size, std::string name,
                      SymbolBinding binding, bool mangled) {
  syms_.push_back(
      Symbol{start, start + size, std::move(name), binding, mangled});
}

std::string SymbolTable::Display(const Symbol& s) {
  return s.mangled ? DemangleSymbol(s.name) : s.name;
}

namespace {
// perf compares aliases by their demangled names.
void Demangle(Symbol* s) {
  if (!s->mangled) return;
  s->name = DemangleSymbol(s->name);
  s->mangled = false;
}
}  // namespace

void SymbolTable::Finish(bool kallsyms, bool fixups) {
  // Stable: of equal starts, the first added comes first, as in perf's
  // tree, which puts an equal key to the right.
  std::stable_sort(syms_.begin(), syms_.end(),
                   [](const Symbol& a, const Symbol& b) {
                     return a.start < b.start;
                   });
  if (fixups && !syms_.empty()) {
    // Symbols without a size end where the next one starts.
    for (size_t i = 0; i + 1 < syms_.size(); ++i) {
      Symbol& prev = syms_[i];
      const Symbol& curr = syms_[i + 1];
      if (prev.end != prev.start) continue;
      if (kallsyms && IsModuleName(prev.name) != IsModuleName(curr.name)) {
        prev.end = RoundUpPage(prev.end + 4096);
      } else {
        prev.end = curr.start;
      }
    }
    Symbol& last = syms_.back();
    if (last.end == last.start) last.end = RoundUpPage(last.start) + 4096;
    // One symbol per address.
    std::vector<Symbol> kept;
    kept.reserve(syms_.size());
    for (Symbol& s : syms_) {
      if (!kept.empty() && kept.back().start == s.start) {
        Demangle(&kept.back());
        Demangle(&s);
        if (!KeepFirst(kept.back(), s)) kept.back() = std::move(s);
        continue;
      }
      kept.push_back(std::move(s));
    }
    syms_ = std::move(kept);
  }
  max_len_ = 0;
  for (const Symbol& s : syms_) {
    max_len_ = std::max(max_len_, s.end - std::min(s.end, s.start));
  }
}

const Symbol* SymbolTable::Find(uint64_t addr) const {
  auto it = std::upper_bound(
      syms_.begin(), syms_.end(), addr,
      [](uint64_t a, const Symbol& s) { return a < s.start; });
  // Usually the closest symbol below holds the address; an earlier, longer
  // one may overlap it.
  while (it != syms_.begin()) {
    --it;
    if (addr < it->end) return &*it;
    if (addr - it->start >= max_len_) break;
  }
  return nullptr;
}

bool LoadKallsyms(const std::string& path, SymbolTable* core,
                  std::vector<KallsymsModule>* modules, std::string* err) {
  std::ifstream in(path);
  if (!in) {
    *err = path + ": cannot open kallsyms";
    return false;
  }
  // perf fixes the ends over all symbols together (module ones included),
  // then splits the modules off.
  SymbolTable all;
  std::string line;
  while (std::getline(in, line)) {
    // "ffffffff81000000 T _text" or "ffffffffc0a01000 t foo\t[mod]"
    uint64_t addr = 0;
    size_t n = ParseHex(line, &addr);
    if (n == 0 || n + 3 > line.size() || line[n] != ' ') continue;
    char type = line[n + 1];
    char up = static_cast<char>(std::toupper(static_cast<unsigned char>(type)));
    if (up != 'T' && up != 'W') continue;
    std::string name = line.substr(n + 3);
    if (name.empty() || name[0] == '$') continue;
    SymbolBinding b = up == 'W'                 ? SymbolBinding::kWeak
                      : std::isupper(static_cast<unsigned char>(type))
                          ? SymbolBinding::kGlobal
                          : SymbolBinding::kLocal;
    all.Add(addr, 0, std::move(name), b);
  }
  all.Finish(true);
  for (Symbol& s : *all.mutable_symbols()) {
    size_t tab = s.name.find('\t');
    if (tab == std::string::npos) {
      core->mutable_symbols()->push_back(std::move(s));
      continue;
    }
    std::string mod = s.name.substr(tab + 1);
    s.name.resize(tab);
    if (mod.size() >= 2 && mod.front() == '[' && mod.back() == ']') {
      mod = mod.substr(1, mod.size() - 2);
    }
    auto it = std::find_if(modules->begin(), modules->end(),
                           [&](const KallsymsModule& m) { return m.name == mod; });
    if (it == modules->end()) {
      modules->push_back(KallsymsModule{mod, {}});
      it = modules->end() - 1;
    }
    it->table.mutable_symbols()->push_back(std::move(s));
  }
  core->Finish(true, false);
  for (KallsymsModule& m : *modules) m.table.Finish(true, false);
  return true;
}

bool LoadPerfMap(const std::string& path, SymbolTable* table,
                 std::string* err) {
  std::ifstream in(path);
  if (!in) {
    *err = path + ": cannot open JIT map";
    return false;
  }
  std::string line;
  // "7f3a2c001000 40 LambdaForm$MH::invoke": start and size in hex, then
  // the name, which may hold spaces.
  while (std::getline(in, line)) {
    uint64_t start = 0, size = 0;
    size_t len = ParseHex(line, &start) + 1;
    if (len + 2 >= line.size()) continue;
    len += ParseHex(std::string_view(line).substr(len), &size) + 1;
    if (len + 2 >= line.size()) continue;
    table->Add(start, size, line.substr(len), SymbolBinding::kGlobal);
  }
  table->Finish(false, false);
  return true;
}

}  // namespace flamefold
