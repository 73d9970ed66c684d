#include "perfdata/frame_resolver.h"

#include <algorithm>
#include <charconv>

#include "symbols/symbol_demangle.h"

namespace flamefold {
namespace {

// The hex digits of `v` (AppendHex16's, without the padding).
size_t HexDigits(uint64_t v) {
  size_t n = 1;
  while (v >>= 4) ++n;
  return n;
}

}  // namespace

FrameResolver::FrameResolver(SymbolResolver* symbols, Style style)
    : symbols_(symbols), style_(style) {
  if (style_.srcline) style_.exact = true;  // see PerfDataText::srcline
  if (style_.by_symbol) recent_.resize(2 * kRecentSets, Slot{});
}

FrameText* FrameResolver::Frame(const FrameKey& k) {
  if (!k.dso && style_.one_unmapped) return Unmapped(k.ip);
  if (k.dso && style_.by_symbol) return Recent(k);
  Slot* slot = table_.FindOrFree(Hash(k.dso, k.shown), [&](const Slot& s) {
    return s.dso == k.dso && s.shown == k.shown;
  });
  if (!slot->empty()) return slot->frame;
  FrameText* f =
      Made(k, k.dso ? symbols_->SymbolAt(k.dso, k.map_ip) : nullptr);
  *slot = Slot{k.dso, k.shown, f};
  table_.Added([](const Slot& s) { return Hash(s.dso, s.shown); });
  return f;
}

// By symbol: the frame of `k` from the recent addresses' cache, else of
// its symbol (then cached in the place of the least recent of its set).
FrameText* FrameResolver::Recent(const FrameKey& k) {
  Slot* set = &recent_[RecentSet(k)];
  if (set[0].dso == k.dso && set[0].shown == k.shown) return set[0].frame;
  if (set[1].dso == k.dso && set[1].shown == k.shown) {
    std::swap(set[0], set[1]);
    return set[0].frame;
  }
  set[1] = set[0];
  set[0] = Slot{k.dso, k.shown, OfSymbol(k)};
  return set[0].frame;
}

// The frame of the symbol at `k` in its DSO (sym nullptr: of the DSO's
// addresses without a symbol), made at its first address.
FrameText* FrameResolver::OfSymbol(const FrameKey& k) {
  const Symbol* sym = symbols_->SymbolAt(k.dso, k.map_ip);
  uint64_t hash = Hash(k.dso, reinterpret_cast<uintptr_t>(sym));
  SymbolSlot* slot = of_symbol_.FindOrFree(hash, [&](const SymbolSlot& s) {
    return s.dso == k.dso && s.sym == sym;
  });
  if (!slot->empty()) return slot->frame;
  FrameText* f = Made(k, sym);
  *slot = SymbolSlot{k.dso, sym, f};
  // Added may grow the table: `slot` is not read after it.
  of_symbol_.Added([](const SymbolSlot& s) {
    return Hash(s.dso, reinterpret_cast<uintptr_t>(s.sym));
  });
  return f;
}

// A new frame named after `k`, whose symbol is `sym`.
FrameText* FrameResolver::Made(const FrameKey& k, const Symbol* sym) {
  FrameText& f = frames_.emplace_back();
  text_.clear();
  f.no_symbol = k.dso ? AppendMappedFrame(k.dso, k.map_ip, k.shown, sym)
                      : AppendUnmappedFrame(k.ip);
  f.made_text = texts_.Store(text_);
  uint8_t flags = 0;
  if (k.dso && k.dso->kind != DsoKind::kUser &&
      k.dso->kind != DsoKind::kPerfMap) {
    flags |= RecordedFrame::kKernel;
  }
  if (k.dso && k.dso->kind == DsoKind::kPerfMap) {
    flags |= RecordedFrame::kPerfMap;
  }
  f.frame = FrameAt(f.made_text, spans_, k.dso, k.dso ? k.shown : k.ip,
                    flags);
  f.nul = HoldsNul(f.made_text);
  any_nul_ |= f.nul;
  return &f;
}

FrameText* FrameResolver::Unmapped(uint64_t ip) {
  if (unmapped_.made_text.empty()) {
    text_.clear();
    unmapped_.no_symbol = AppendUnmappedFrame(ip);
    unmapped_.made_text = texts_.Store(text_);
    unmapped_.frame = FrameAt(unmapped_.made_text, spans_, nullptr, ip, 0);
    unmapped_.nul = HoldsNul(unmapped_.made_text);
    any_nul_ |= unmapped_.nul;
  }
  return &unmapped_;
}

// A frame's text into text_, `sym` being the symbol at `map_ip` (nullptr:
// none): "<shown> <name>+0x<offset> (<dso>)" as perf script prints it, or
// "[unknown]" for the name. Not exact, the offset is left out unless the
// name holds a "+0x" of its own (the fold strips only the last one).
// Returns the counter of frames without a symbol of the frame's DSO when
// it has none, else nullptr.
uint64_t* FrameResolver::AppendMappedFrame(Dso* dso, uint64_t map_ip,
                                        uint64_t shown, const Symbol* sym) {
  AppendHex16(shown);
  spans_.pc_end = text_.size();
  spans_.pc = spans_.pc_end - HexDigits(shown);
  text_ += ' ';
  spans_.symbol = text_.size();
  if (sym) {
    std::string_view name = symbols_->Shown(dso, sym);
    text_ += name;
    if (style_.exact || name.find("+0x") != std::string_view::npos) {
      char off[24];
      auto r = std::to_chars(off, off + sizeof off, map_ip - sym->start, 16);
      text_ += "+0x";
      text_.append(off, r.ptr);
    }
  } else {
    text_ += "[unknown]";
  }
  spans_.symbol_end = text_.size();
  text_ += " (";
  spans_.module = text_.size();
  text_ += dso->name;
  spans_.module_end = text_.size();
  text_ += ')';
  if (style_.srcline) AppendSrcline(srclines_.ForFrame(dso, map_ip));
  return sym ? nullptr : &no_symbol_[dso].n;
}

uint64_t* FrameResolver::AppendUnmappedFrame(uint64_t ip) {
  AppendHex16(ip);
  size_t end = text_.size();
  spans_ = {end - HexDigits(ip), end, end + 1, end + 10, end + 12, end + 21};
  text_ += " [unknown] ([unknown])";
  return &no_map_frames_.n;
}

// The frame whose fields lie at `at` in `text`.
RecordedFrame FrameResolver::FrameAt(std::string_view text, const FrameSpans& at,
                                  const Dso* dso, uint64_t address,
                                  uint8_t flags) {
  RecordedFrame f;
  f.id = next_id_++;
  f.dso = dso;
  f.address = address;
  f.pc = text.substr(at.pc, at.pc_end - at.pc);
  f.symbol = text.substr(at.symbol, at.symbol_end - at.symbol);
  f.module = text.substr(at.module, at.module_end - at.module);
  f.flags = flags;
  return f;
}

UnwoundText* FrameResolver::Unwound(const FrameKey& k) {
  auto [it, added] = unwound_.try_emplace(DsoAddress{k.dso, k.map_ip});
  UnwoundText& u = it->second;
  if (added) {
    text_.clear();
    inlined_spans_.clear();
    u.frames = AppendInlined(k.dso, k.map_ip);
    if (u.frames == 0) {
      FrameText* f = Frame(k);  // clears text_
      u.text = '\t';
      u.text += Text(f);
      u.text += '\n';
      u.no_symbol = f->no_symbol;
      u.frames = 1;
      u.records.push_back(f->frame);
      u.records.back().flags |= RecordedFrame::kUnwound;
    } else {
      u.text = text_;
      for (const FrameSpans& at : inlined_spans_) {
        u.records.push_back(FrameAt(u.text, at, k.dso, k.map_ip,
                                    RecordedFrame::kUnwound |
                                        RecordedFrame::kInlined));
      }
    }
    u.nul = HoldsNul(u.text);
    any_nul_ |= u.nul;
  }
  return &u;
}

// perf's append_inlines: addr2line's records for the address, each named
// after the symbol when the names agree, else an "(inlined)" frame; with
// --srcline each record's own line goes before " (inlined)":
//   |              abac operator()+0x2c
//   |   dwarf.cc:38 (inlined)
// Returns the frames appended (0: none, the plain frame is printed).
size_t FrameResolver::AppendInlined(Dso* dso, uint64_t map_ip) {
  if (dso->kind != DsoKind::kUser) return 0;
  const std::string& name = symbols_->Name(dso, map_ip);
  size_t off = name.rfind("+0x");
  if (name == "[unknown]" || off == std::string::npos) return 0;
  std::string path = PerfSrcline::Addr2lineFile(*dso);
  if (path.empty()) return 0;
  uint64_t addr = srclines_.ObjdumpAddress(*dso, map_ip);
  const SourceLookup* look = source_lines_.Lookup(path, addr, true);
  if (!look || !look->found || look->records.empty()) return 0;
  std::string_view base(name.data(), off);
  for (const SourceRecord& r : look->records) {
    std::string fn = r.function.empty() ? "??" : DemangleSymbol(r.function);
    text_ += '\t';
    AppendHex16(map_ip);
    FrameSpans at;
    at.pc_end = text_.size();
    at.pc = at.pc_end - HexDigits(map_ip);
    text_ += ' ';
    at.symbol = text_.size();
    bool inlined = fn != base;
    if (inlined) {
      text_ += fn;
      text_.append(name, off, std::string::npos);
      at.symbol_end = text_.size();
    } else {
      text_ += name;
      at.symbol_end = text_.size();
      text_ += " (";
      at.module = text_.size();
      text_ += dso->name;
      at.module_end = text_.size();
      text_ += ')';
    }
    if (style_.srcline) AppendSrcline(PerfSrcline::FromRecord(r));
    text_ += inlined ? " (inlined)\n" : "\n";
    if (inlined) {  // "inlined)\n" ends the text
      at.module = text_.size() - 9;
      at.module_end = at.module + 7;
    }
    inlined_spans_.push_back(at);
  }
  return look->records.size();
}

// perf's "\n  " before a source line; nothing when there is none.
void FrameResolver::AppendSrcline(const std::string& line) {
  if (line.empty()) return;
  text_ += "\n  ";
  text_ += line;
}

// printf's "%16" PRIx64 (without the padding when not exact), in one append
// rather than a character at a time: nearly every frame line of a replay
// holds one.
void FrameResolver::AppendHex16(uint64_t v) {
  char buf[16];
  char* p = buf + sizeof buf;
  do {
    *--p = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  size_t n = static_cast<size_t>(buf + sizeof buf - p);
  if (style_.exact && n < 16) text_.append(16 - n, ' ');
  text_.append(p, n);
}

std::map<std::string, uint64_t> FrameResolver::NoSymbolByDso() const {
  std::map<std::string, uint64_t> by_name;  // two DSOs may share a name
  if (no_map_frames_.n > 0) by_name["[unknown]"] = no_map_frames_.n;
  for (const auto& [dso, count] : no_symbol_) {
    uint64_t n = count.n;
    if (n > 0) by_name[dso->name] += n;
  }
  return by_name;
}

}  // namespace flamefold
