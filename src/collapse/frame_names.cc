#include "collapse/frame_names.h"

#include <algorithm>
#include <cstring>

#include "base/utf8.h"
#include "collapse/perf_lines.h"
#include "collapse/perf_script_lines.h"
#include "collapse/perl_chars.h"
#include "symbols/frame_inliner.h"

namespace flamefold {
namespace {

using namespace perl_chars;

// Perl's split /\->/: fields between "->", trailing empty fields removed.
void SplitArrows(std::string_view s, std::vector<std::string_view>* out) {
  out->clear();
  size_t pos = 0;
  for (;;) {
    size_t at = s.find("->", pos);
    out->push_back(s.substr(pos, at - pos));
    if (at == std::string_view::npos) break;
    pos = at + 2;
  }
  while (!out->empty() && out->back().empty()) out->pop_back();
}

// The offset that perf script appends to symbols since Linux 4.8:
//   7fffb84c9afc cpu_startup_entry+0x800047c022ec ([kernel.kallsyms])
// s/\+0x[\da-f]+$// (lower case only, as Perl does; `upper` also strips
// upper-case digits, for --modern). Returns the length without it.
inline size_t OffsetStart(std::string_view f, bool upper) {
  const char* p = f.data();
  const size_t n = f.size();
  const uint8_t cls = upper ? kClassHex : kClassLowerHex;
  size_t k = n;
  while (k > 0 && HasClass(p[k - 1], cls)) --k;
  if (k == n || k < 3 || p[k - 3] != '+' || p[k - 2] != '0' || p[k - 1] != 'x') {
    return n;
  }
  return k - 3;
}

// m/\.\(.*\)\./: a Go method such as "net/http.(*Client).Do".
bool LooksLikeGoMethod(std::string_view f) {
  size_t open = f.find(".(");
  return open != std::string_view::npos &&
         f.find(").", open + 2) != std::string_view::npos;
}

constexpr std::string_view kAnon = "anonymous namespace)";

// Perl: s/\((?!anonymous namespace\)).*// -- everything from the first '('
// that does not open "(anonymous namespace)".
size_t PerlCut(std::string_view f) {
  for (size_t i = f.find('('); i != std::string_view::npos;
       i = f.find('(', i + 1)) {
    if (f.substr(i + 1, kAnon.size()) != kAnon) return i;
  }
  return std::string_view::npos;
}

// --modern: the parameter list starts at the first '(' outside <>, [] and
// {} that does not open "(anonymous namespace)"; operator names such as
// "operator<<" and "operator()" are skipped.
size_t ModernCut(std::string_view f) {
  int depth = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    char c = f[i];
    if (c == 'o' && f.substr(i, 8) == "operator" &&
        (i == 0 || !IsWord(f[i - 1])) &&
        (i + 8 >= f.size() || !IsWord(f[i + 8]))) {
      i += 8;
      if (f.substr(i, 2) == "()") {
        i += 1;
        continue;
      }
      while (i < f.size() && Contains("<>=!+-*/%^&|~,[]", std::string_view(&f[i], 1))) ++i;
      --i;
      continue;
    }
    if (c == '<' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == '>' || c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == '(' && depth == 0) {
      if (f.substr(i + 1, kAnon.size()) == kAnon) {
        i += kAnon.size();
        continue;
      }
      return i;
    }
  }
  return std::string_view::npos;
}

// More '<' than '>' before the cut: the Perl rule cut a name inside a
// template argument list ("std::function<void (int)>" -> "std::function<void ").
bool CutInsideTemplate(std::string_view kept) {
  // Two counts, which the compiler vectorizes, not a running depth.
  return std::count(kept.begin(), kept.end(), '<') >
         std::count(kept.begin(), kept.end(), '>');
}

bool IsPerfMap(std::string_view mod) {  // m:/tmp/perf-\d+\.map:
  for (size_t at = mod.find("/tmp/perf-"); at != std::string_view::npos;
       at = mod.find("/tmp/perf-", at + 1)) {
    size_t i = at + 10, start = i;
    while (i < mod.size() && IsDigit(mod[i])) ++i;
    if (i > start && mod.substr(i, 4) == ".map") return true;
  }
  return false;
}

bool IsJitdump(std::string_view mod) {  // jitted-PID-N.so from perf inject
  std::string_view base = Basename(mod);
  return StartsWith(base, "jitted-") && EndsWith(base, ".so");
}

bool IsKernelModuleOrVersioned(std::string_view mod) {
  std::string_view base = Basename(mod);
  return EndsWith(mod, ".ko") || StartsWith(base, "vmlinux-");
}

}  // namespace

FrameNames::FrameNames(const PerfScriptOptions& options,
                       StringInterner* names, PerfScriptStats* stats)
    : options_(options), names_(names), stats_(stats) {}

// The result of a stack line depends only on the symbol without its offset,
// the module, whether the process name starts with "java", and (with
// --addrs) the address: the cache key is made of those, so its size follows
// the distinct code locations, not the lines or addresses read.
KeyTable::Key FrameNames::Key(const FrameFields& f, bool java) const {
  KeyTable::Key key;
  key.tag = java ? 'j' : '-';
  key.a = f.rawfunc.substr(0, OffsetStart(f.rawfunc, options_.modern));
  key.b = f.mod;
  if (options_.include_addrs) key.c = f.pc;
  return key;
}

uint32_t FrameNames::LookupKey(const FrameFields& f, const KeyTable::Key& key,
                               uint64_t hash, bool java) {
  bool added = false;
  uint32_t id = keys_.Intern(key, hash, &added);
  if (added) results_.push_back(Process(f, java, nullptr));
  return id;
}

// A recorded frame's stack line, "\t<pc> <symbol> (<module>)", is read by
// MatchFrameLine as those three fields unless the module holds " (" (the
// last one starts the module), the symbol is empty or starts with white
// space (the address's white space takes it) or there is no address.
uint32_t FrameNames::NameFrame(const RecordedFrame& f, bool java) {
  std::vector<uint32_t>& ids = by_frame_[java];
  if (f.id >= ids.size()) {
    ids.resize(std::max<size_t>(f.id + 1, 2 * ids.size()), kNotNamed);
  }
  FrameFields fields{f.pc, f.symbol, f.module};
  uint32_t id;
  if (!f.pc.empty() && !Contains(f.module, " (") && !f.symbol.empty() &&
      !IsSpace(f.symbol[0])) {
    id = Lookup(fields, java);
  } else {
    line_.assign(1, '\t');
    AppendFrameText(f, &line_);
    id = MatchFrameLine(line_, &fields) ? Lookup(fields, java) : kUnmatched;
  }
  ids[f.id] = id;
  return id;
}

void FrameNames::ForgetFrames() {
  by_frame_[0].clear();
  by_frame_[1].clear();
}

void FrameNames::CountQuirks(uint8_t quirks) {
  if (quirks & kCutName) stats_->cut_names++;
  if (quirks & kUpperHex) stats_->upper_hex_offsets++;
  if (quirks & kKernelModule) stats_->kernel_modules++;
  if (quirks & kJitdump) stats_->jitdump_frames++;
  if (quirks & kLongName) stats_->limits.long_frames++;
}

// --inline: the Perl script puts addr2line's chain ("outer;...;inner") in
// place of the frame, untouched (no tidying, no annotation, no srcline
// read), unless addr2line failed.
bool FrameNames::InlineFrame(const FrameFields& f, Result* res) {
  std::string chain = options_.inliner->Expand(f.pc, f.rawfunc, f.mod);
  if (chain.empty() || chain == "??" || chain == "??:??:0") return false;
  res->first = static_cast<uint32_t>(pieces_.size());
  size_t start = 0;
  while (start <= chain.size()) {
    size_t end = chain.find(';', start);
    if (end == std::string::npos) end = chain.size();
    std::string_view func = std::string_view(chain).substr(start, end - start);
    if (func.size() > options_.limits.max_frame) {  // as any frame name
      stats_->limits.longest = std::max<uint64_t>(stats_->limits.longest,
                                                 func.size());
      func = func.substr(0, Utf8CutLength(func, options_.limits.max_frame));
      res->quirks |= kLongName;
    }
    pieces_.push_back(names_->Intern(func));
    res->count++;
    start = end + 1;
  }
  return true;
}

// Turns one stack line into the frames the Perl script pushes for it
// (several for a perf-map-agent inline chain "a->b->c").
FrameNames::Result FrameNames::Process(const FrameFields& f, bool java,
                                       LineReader* reader) {
  Result res;
  if (options_.inliner && FrameInliner::Applies(f.mod) &&
      InlineFrame(f, &res)) {
    return res;
  }
  std::string_view rawfunc = f.rawfunc;
  size_t cut = OffsetStart(rawfunc, options_.modern);
  if (cut == rawfunc.size() && OffsetStart(rawfunc, true) != rawfunc.size()) {
    res.quirks |= kUpperHex;
  }
  rawfunc = rawfunc.substr(0, cut);
  if (std::memchr(rawfunc.data(), 0, rawfunc.size()) != nullptr ||
      std::memchr(f.mod.data(), 0, f.mod.size()) != nullptr) {
    res.kind = kBinary;  // checked once per distinct key, here
    return res;
  }
  if (!rawfunc.empty() && rawfunc[0] == '(' && !options_.modern) {
    res.kind = kDropped;  // Perl: next if $rawfunc =~ /^\(/
    return res;
  }
  std::vector<std::string_view> parts;
  SplitArrows(rawfunc, &parts);
  res.first = static_cast<uint32_t>(pieces_.size());
  bool is_unknown = false;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string& func = scratch_;
    func.assign(parts[i]);
    NamePiece(&func, i, f, java, &is_unknown, &res.quirks);
    if (options_.srcline && !is_unknown && reader != nullptr) {
      AppendSrcline(reader, &func);
    }
    if (func.size() > options_.limits.max_frame) {
      // Counted for each line that has it (CountQuirks), not only here.
      stats_->limits.longest = std::max<uint64_t>(stats_->limits.longest,
                                                  func.size());
      func.resize(Utf8CutLength(func, options_.limits.max_frame));
      res.quirks |= kLongName;
    }
    pieces_.push_back(names_->Intern(func));
    res.count++;
  }
  return res;
}

// The piece `index` of a frame's "a->b" chain, `*func`, named: "[unknown]"
// after its module (and address, with --addrs), tidied, a Java class's
// leading 'L' dropped, annotated.
void FrameNames::NamePiece(std::string* func, size_t index,
                           const FrameFields& f, bool java, bool* is_unknown,
                           uint8_t* quirks) {
  if (*func == "[unknown]") {
    std::string name;
    if (f.mod != "[unknown]") {
      name = std::string(Basename(f.mod));
    } else {
      name = "unknown";
      *is_unknown = true;
    }
    *func = options_.include_addrs
                ? "[" + name + " <" + std::string(f.pc) + ">]"
                : "[" + name + "]";
  }
  TidyPiece(func, quirks);
  if (java && Contains(*func, "/") && !func->empty() && (*func)[0] == 'L') {
    func->erase(0, 1);
  }
  Annotate(func, index, f.mod, quirks);
}

// --srcline: the line after each frame is its source location, appended
// to the name:
//   |   uniform_int_dist.h:300
//   |   libc-2.33.so[27b25]
void FrameNames::AppendSrcline(LineReader* reader, std::string* func) {
  std::string_view src;
  if (reader->Next(&src) == LineReader::kLine) stats_->lines++;
  else src = {};
  std::string text;
  for (size_t k = 0; k < src.size(); ++k) {  // s/\[.*?\]//g
    if (src[k] == '[') {
      size_t close = src.find(']', k + 1);
      if (close != std::string_view::npos) {
        k = close;
        continue;
      }
    }
    text += src[k];
  }
  size_t a = 0, b = text.size();
  while (a < b && IsSpace(text[a])) ++a;
  while (b > a && IsSpace(text[b - 1])) --b;
  if (b > a) *func += ":" + text.substr(a, b - a);
}

// Perl's tr/;/:/ and s/["']//g. Names seldom hold those bytes: memchr looks
// for them many bytes at a time, where a byte-by-byte pass over a long C++
// name would cost more than the rest of the name's tidying.
void FrameNames::TidyPiece(std::string* func, uint8_t* quirks) const {
  for (char* p = func->data(), *end = p + func->size();
       (p = static_cast<char*>(std::memchr(p, ';', end - p))) != nullptr;) {
    *p++ = ':';
  }
  if (!LooksLikeGoMethod(*func)) {
    size_t cut = options_.modern ? ModernCut(*func) : PerlCut(*func);
    if (cut != std::string::npos) {
      std::string_view kept(func->data(), cut);
      if (!options_.modern && CutInsideTemplate(kept)) *quirks |= kCutName;
      func->resize(cut);
    }
  }
  if (std::memchr(func->data(), '"', func->size()) != nullptr ||
      std::memchr(func->data(), '\'', func->size()) != nullptr) {
    func->erase(std::remove_if(func->begin(), func->end(),
                               [](char c) { return c == '"' || c == '\''; }),
                func->end());
  }
}

void FrameNames::Annotate(std::string* func, size_t index,
                                std::string_view mod, uint8_t* quirks) const {
  if (index > 0) {  // the 2nd and later pieces of "a->b" were inlined
    if (!Contains(*func, "_[i]")) *func += "_[i]";
    return;
  }
  if (options_.annotate_kernel && !Contains(mod, "unknown")) {
    bool perl_kernel = StartsWith(mod, "[") || EndsWith(mod, "vmlinux");
    if (perl_kernel) {
      *func += "_[k]";
      return;
    }
    if (IsKernelModuleOrVersioned(mod)) {
      if (options_.modern) {
        *func += "_[k]";
        return;
      }
      *quirks |= kKernelModule;
    }
  }
  if (options_.annotate_jit) {
    if (IsPerfMap(mod)) {
      if (!Contains(*func, "_[j]")) *func += "_[j]";
    } else if (IsJitdump(mod)) {
      if (options_.modern) {
        if (!Contains(*func, "_[j]")) *func += "_[j]";
      } else {
        *quirks |= kJitdump;
      }
    }
  }
}

}  // namespace flamefold
