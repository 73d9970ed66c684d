#include "symbols/kallsyms.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/hex.h"
#include "io/file_source.h"
#include "io/mapped_file.h"
#include "symbols/name_store.h"
#include "symbols/symbol_aliases.h"

namespace flamefold {
namespace {

// The whole of `path`, which `names` keeps: `in_place`, a regular file
// (perf's copy in the build-id cache) mapped, else (/proc/kallsyms has no
// size to ask for) read in big pieces straight into a block of `names`; false
// when it cannot be opened. Reading the copy into fresh memory would fault in
// every page of it while the replay waits for the same address-space lock to
// grow its tables.
bool ReadWhole(const std::string& path, bool in_place, NameStore* names,
               std::string_view* text) {
  std::string err;
  const int fd = OpenFileFd(path, &err);
  if (fd < 0) return false;
  auto source = std::make_shared<FdSource>(fd, true);
  std::unique_ptr<MappedFile> map;
  if (in_place) map = MapSource(*source, 1, path);
  if (map) {
    map->Prefetch(map->bytes().size());  // every line is read at once
    *text = map->bytes();
    // The file stays open while it is mapped.
    names->Keep(std::shared_ptr<const void>(
        map.release(), [source](const void* m) {
          delete static_cast<const MappedFile*>(m);
        }));
    return true;
  }
  size_t cap = 16u << 20, used = 0;
  char* buf = names->Allocate(cap);
  for (;;) {
    if (used == cap) {  // a bigger block; the old one goes with the store
      char* bigger = names->Allocate(cap * 2);
      std::memcpy(bigger, buf, used);
      buf = bigger;
      cap *= 2;
    }
    size_t got = 0;
    if (!source->Read(buf + used, cap - used, &got, &err) || got == 0) break;
    used += got;
  }
  *text = std::string_view(buf, used);
  return true;
}

// Where the line from `p` ends (its '\n', else `end`), and in `*marked`
// whether a '[' or a '\t' (a module's name: "foo\t[mod]") comes before.
// One pass finds both, rather than a memchr call a line and two searches a
// symbol.
const char* KallsymsLineEnd(const char* p, const char* end, bool* marked) {
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i bracket = _mm_set1_epi8('[');
  while (end - p >= 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i hit = _mm_or_si128(
        _mm_cmpeq_epi8(v, nl),
        _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, bracket)));
    if (int mask = _mm_movemask_epi8(hit)) {
      p += __builtin_ctz(static_cast<unsigned>(mask));
      if (*p == '\n') return p;
      break;  // a mark: the rest of the line below
    }
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    if (*p == '\n') return p;
    if (*p == '\t' || *p == '[') {
      *marked = true;
      const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p));
      return nl ? static_cast<const char*>(nl) : end;
    }
  }
  return end;
}

// Calls `visit(addr, name, binding, marked)` for each kept line of
// kallsyms `text` ("ffffffff81000000 T _text", "ffffffffc0a01000 t
// foo\t[mod]"), in order: t, T, w and W lines, as perf keeps them, but for
// empty names and names starting with '$'; `marked`: the name holds '['
// or '\t' (a module's). `visit` returns false to stop.
template <typename Visit>
void ScanKallsyms(std::string_view text, Visit visit) {
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    // Up to the '\n' ParseHex stops at, as it stops at any non-digit.
    uint64_t addr = 0;
    size_t left = static_cast<size_t>(end - p);
    size_t n = ParseHex(std::string_view(p, left), &addr);
    // "ADDR T NAME": a space, the type, one more byte (not the line's end),
    // then the name.
    bool ok = n > 0 && n + 2 < left && p[n] == ' ' && p[n + 2] != '\n';
    char type = ok ? p[n + 1] : '\0';
    char up = type >= 'a' && type <= 'z' ? static_cast<char>(type - 32) : type;
    if (!ok || (up != 'T' && up != 'W')) {
      const void* nl = std::memchr(p, '\n', left);
      p = nl ? static_cast<const char*>(nl) + 1 : end;
      continue;
    }
    const char* name = p + n + 3;
    bool marked = false;
    const char* eol = KallsymsLineEnd(name, end, &marked);
    p = eol + 1;
    if (eol == name || *name == '$') continue;
    SymbolBinding b = up == 'W'     ? SymbolBinding::kWeak
                      : type == 'T' ? SymbolBinding::kGlobal
                                    : SymbolBinding::kLocal;
    if (!visit(addr, std::string_view(name, static_cast<size_t>(eol - name)),
               b, marked)) {
      return;
    }
  }
}

// The symbol of line `l` of `text`, ending at `end`.
Symbol SymbolOfLine(std::string_view text, const KallsymsLine& l,
                    uint64_t end) {
  return Symbol{l.start, end, text.substr(l.name_at, l.name_size), l.binding,
                false};
}

// Every kept line of kallsyms `text` as a symbol ending where it starts,
// into `syms`: from `lines` when IndexKallsyms made them all, else
// (`lines` null) scanned again.
void LineSymbols(std::string_view text, const BigVector<KallsymsLine>* lines,
                 BigVector<Symbol>* syms) {
  if (lines) {
    syms->reserve(lines->size());
    for (const KallsymsLine& l : *lines) {
      syms->push_back(SymbolOfLine(text, l, l.start));
    }
    return;
  }
  ScanKallsyms(text, [&](uint64_t addr, std::string_view name,
                         SymbolBinding b, bool) {
    syms->push_back(Symbol{addr, addr, name, b, false});
    return true;
  });
}

// Moves the module symbols of `all` ("ext4_iget\t[ext4]") into the tables
// of `modules`, by module name (added where new), without the module in
// their names; the kernel's symbols stay, in their order.
void SplitModules(SymbolTable* all, std::vector<KallsymsModule>* modules) {
  BigVector<Symbol>& syms = *all->mutable_symbols();
  size_t kept = 0;
  for (size_t i = 0; i < syms.size(); ++i) {
    Symbol& s = syms[i];
    size_t tab = s.name.find('\t');
    if (tab == std::string_view::npos) {
      if (kept != i) syms[kept] = s;
      ++kept;
      continue;
    }
    std::string_view mod = s.name.substr(tab + 1);
    s.name = s.name.substr(0, tab);
    if (mod.size() >= 2 && mod.front() == '[' && mod.back() == ']') {
      mod = mod.substr(1, mod.size() - 2);
    }
    auto it = std::find_if(modules->begin(), modules->end(),
                           [&](const KallsymsModule& m) { return m.name == mod; });
    if (it == modules->end()) {
      modules->push_back(KallsymsModule{std::string(mod), {}});
      it = modules->end() - 1;
      it->table.ShareNames(*all);
    }
    it->table.mutable_symbols()->push_back(s);
  }
  syms.resize(kept);
}

}  // namespace

bool IndexKallsyms(std::string_view text, BigVector<KallsymsLine>* lines,
                   bool* marked) {
  if (text.size() > UINT32_MAX) return false;
  lines->reserve(text.size() / 40);
  BigPrefaultCapacity(lines);
  bool fits = true;
  ScanKallsyms(text, [&](uint64_t addr, std::string_view name,
                         SymbolBinding b, bool name_marked) {
    fits = name.size() <= UINT16_MAX;
    *marked |= name_marked;
    if (fits) {
      lines->push_back(
          KallsymsLine{addr, static_cast<uint32_t>(name.data() - text.data()),
                       static_cast<uint16_t>(name.size()), b});
    }
    return fits;
  });
  return fits;
}

KallsymsIndex::KallsymsIndex(std::string_view text,
                             BigVector<KallsymsLine> lines)
    : text_(text), lines_(std::move(lines)) {
  for (size_t i = 0; i < lines_.size(); i += kStride) {
    top_.push_back(lines_[i].start);
  }
}

Symbol KallsymsIndex::LineSymbol(size_t i, uint64_t end) const {
  return SymbolOfLine(text_, lines_[i], end);
}

// The symbol perf keeps at the start of line `last`, the last line there.
Symbol KallsymsIndex::Kept(size_t last) const {
  uint64_t start = lines_[last].start;
  uint64_t end = last + 1 < lines_.size() ? lines_[last + 1].start
                                          : RoundUpPage(start) + 4096;
  size_t first = last;
  while (first > 0 && lines_[first - 1].start == start) --first;
  NameStore unused;  // kallsyms names are never demangled
  Symbol kept = LineSymbol(first, first == last ? end : start);
  for (size_t i = first + 1; i <= last; ++i) {
    Symbol next = LineSymbol(i, i == last ? end : start);
    if (!KeepFirst(&kept, &next, &unused)) kept = next;
  }
  return kept;
}

const Symbol* KallsymsIndex::Find(uint64_t addr) {
  if (lines_.empty() || addr < lines_.front().start) return nullptr;
  size_t block = static_cast<size_t>(
      std::upper_bound(top_.begin(), top_.end(), addr) - top_.begin() - 1);
  auto from = lines_.begin() + block * kStride;
  auto to = lines_.begin() + std::min(lines_.size(), (block + 1) * kStride);
  auto it = std::upper_bound(
      from, to, addr,
      [](uint64_t a, const KallsymsLine& l) { return a < l.start; });
  size_t last = static_cast<size_t>(it - lines_.begin()) - 1;
  std::lock_guard<std::mutex> lock(mu_);
  auto [at, added] = made_.try_emplace(last);
  if (added) at->second = Kept(last);
  return addr < at->second.end ? &at->second : nullptr;
}

const BigVector<Symbol>& KallsymsIndex::All() {
  std::lock_guard<std::mutex> lock(mu_);
  if (all_made_) return all_;
  SymbolTable t;
  BigVector<Symbol>& syms = *t.mutable_symbols();
  syms.reserve(lines_.size());
  for (size_t i = 0; i < lines_.size(); ++i) {
    const KallsymsLine& l = lines_[i];
    syms.push_back(LineSymbol(i, l.start));
  }
  t.CleanUp(true);
  all_ = std::move(syms);
  all_made_ = true;
  return all_;
}

bool KallsymsIndex::Range(uint64_t* start, uint64_t* end) const {
  if (lines_.empty()) return false;
  // The first symbol starts at the first line; the last one (of those at
  // the last start) ends a page past it.
  *start = lines_.front().start;
  *end = Kept(lines_.size() - 1).end;
  return true;
}

bool LoadKallsyms(const std::string& path, SymbolTable* core,
                  std::vector<KallsymsModule>* modules, std::string* err,
                  bool in_place) {
  // The whole file at once, its lines scanned in place: the names stay where
  // they were read (some 100,000 of them; a string each would cost more than
  // the kernel's own formatting of the file).
  SymbolTable all;
  std::string_view text;
  if (!ReadWhole(path, in_place, all.names(), &text)) {
    *err = path + ": cannot open kallsyms";
    return false;
  }
  auto by_start = [](const KallsymsLine& a, const KallsymsLine& b) {
    return a.start < b.start;
  };
  BigVector<KallsymsLine> lines;
  bool marked = false;
  bool indexed = IndexKallsyms(text, &lines, &marked);
  if (indexed && !marked &&
      std::is_sorted(lines.begin(), lines.end(), by_start)) {
    *core = SymbolTable();
    core->ShareNames(all);
    core->lazy_ = std::make_shared<KallsymsIndex>(text, std::move(lines));
    return true;
  }
  // perf fixes the ends over all symbols together (module ones included),
  // then splits the modules off.
  LineSymbols(text, indexed ? &lines : nullptr, all.mutable_symbols());
  BigVector<KallsymsLine>().swap(lines);  // done with before the clean-up
  all.CleanUp(true);
  SplitModules(&all, modules);
  core->lazy_.reset();
  core->ShareNames(all);
  *core->mutable_symbols() = std::move(*all.mutable_symbols());
  core->Finish(true, false);
  for (KallsymsModule& m : *modules) m.table.Finish(true, false);
  return true;
}

}  // namespace flamefold
