// FrameResolver: the symbol look-up of the replay. Each frame is named once
// per (DSO, address) as perf script prints it, "<addr> <sym+off> (<dso>)"
// (with its source line for --srcline), or once per (DSO, symbol) for a
// reader that ignores the address (Style::by_symbol), and so is each
// unwound user frame with the frames inlined there: the cost follows the
// distinct addresses or symbols, not the samples. Frames without a symbol
// are counted by DSO.
#ifndef FLAMEFOLD_PERFDATA_FRAME_RESOLVER_H_
#define FLAMEFOLD_PERFDATA_FRAME_RESOLVER_H_

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/arena.h"
#include "base/hash_table.h"
#include "collapse/recorded_sample.h"
#include "perfdata/perf_srcline.h"
#include "perfdata/thread_maps.h"
#include "symbols/source_lines.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

/// A frame as perf script prints it, and as the fold takes it.
struct FrameText {
  // "<addr> <sym+off> (<dso>)", held by FrameResolver. With Style::by_symbol
  // the frame stands for every address of its symbol in its DSO (or for
  // every address without a symbol there), and the text is its first's.
  std::string_view made_text;
  uint64_t* no_symbol = nullptr;  // its DSO's counter, when no symbol
  bool nul = false;  // the fold may refuse it (HoldsNul)
  RecordedFrame frame;  // its fields, views into made_text
};

/// The lines of a frame reached by unwinding: the frames inlined at its
/// address, innermost first, else the plain frame.
struct UnwoundText {
  std::string text;  // "\t<frame>\n" each
  std::vector<RecordedFrame> records;  // each line's frame, into `text`
  size_t frames = 0;
  uint64_t* no_symbol = nullptr;
  bool nul = false;  // a line the fold may refuse (as FrameText's)
};

/// Where a frame is: the DSO of its mapping (nullptr: in no mapping), its
/// address there, and the address perf script shows for it, by which it is
/// cached. A value that stays right while the mappings change.
struct FrameKey {
  Dso* dso;
  uint64_t ip, map_ip, shown;
};

class FrameResolver {
 public:
  struct Style {
    /// false: no padding before the address and no "+0x" offset after the
    /// symbol (unless the name itself holds "+0x"): what the Perl script
    /// ignores anyway.
    bool exact = true;
    bool srcline = false;  // each frame followed by "\n  SRCLINE"
    /// Every frame in no mapping is one entry (the first one's address):
    /// for a reader that ignores the address of an "[unknown]" frame.
    bool one_unmapped = false;
    /// The frames of one symbol in one DSO are read alike whatever their
    /// address (the fold without --addrs: its name for a frame depends on
    /// the symbol without its offset and on the module): one frame stands
    /// for all of them, named after the first address met, so that frames
    /// are made, and the fold names a frame, once per symbol, not once per
    /// address. On a build host
    /// most frames are distinct addresses of a symbol met before, or without
    /// a symbol in a DSO met before (a stripped cc1plus): nearly every sample
    /// meets a new address, of far fewer symbols.
    bool by_symbol = false;
  };
  /// Names come from `symbols`, which must outlive this.
  FrameResolver(SymbolResolver* symbols, Style style);
  FrameResolver(const FrameResolver&) = delete;
  FrameResolver& operator=(const FrameResolver&) = delete;

  /// The key of the frame at `ip` in `map` (nullptr: none). Inline: a
  /// call returned the key through memory, a stall at every frame.
  static FrameKey KeyOf(const Map* map, uint64_t ip) {
    uint64_t map_ip = map ? map->MapIp(ip) : ip;
    uint64_t shown = map && map->dso->kind == DsoKind::kModule
                         ? ip - map->start
                         : map_ip;
    return {map ? map->dso : nullptr, ip, map_ip, shown};
  }
  /// Whether a frame's text made so far holds a NUL byte (FrameText::nul,
  /// UnwoundText::nul): the replay looks at each frame only then.
  bool any_nul() const { return any_nul_; }
  /// Fetches the cache slot of `k` into the CPU's cache ahead of Frame().
  void Prefetch(const FrameKey& k) const {
    if (style_.by_symbol) {
      __builtin_prefetch(&recent_[RecentSet(k)]);
    } else {
      table_.Prefetch(Hash(k.dso, k.shown));
    }
  }
  /// The frame at `k` (by_symbol: of its symbol); the pointer stays valid
  /// while this lives.
  FrameText* Frame(const FrameKey& k);
  /// The text of `f`, one of this one's frames.
  std::string_view Text(const FrameText* f) const { return f->made_text; }
  /// The frame at `k` (which has a DSO) after unwinding, as perf's
  /// append_inlines prints it; the pointer stays valid while this lives.
  UnwoundText* Unwound(const FrameKey& k);

  /// The frames counted without a symbol, by DSO name ("[unknown]": in no
  /// mapping); the counts are those of the frames shown (see
  /// FrameText::no_symbol).
  std::map<std::string, uint64_t> NoSymbolByDso() const;

 private:
  // A slot of the table of frames: a frame by (DSO, shown address).
  struct Slot {
    const Dso* dso;
    uint64_t shown;
    FrameText* frame;  // in frames_; nullptr: a free slot
    bool empty() const { return frame == nullptr; }
  };
  static uint64_t Hash(const Dso* dso, uint64_t shown) {
    uint64_t x = reinterpret_cast<uintptr_t>(dso) * 0x9e3779b97f4a7c15ULL;
    x ^= shown;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    return x ^ (x >> 32);
  }
  // A slot of the table of the frame of each symbol (by_symbol);
  // `sym` nullptr stands for the DSO's frames without a symbol.
  struct SymbolSlot {
    const Dso* dso;
    const Symbol* sym;
    FrameText* frame;  // nullptr: a free slot
    bool empty() const { return frame == nullptr; }
  };
  // Style::by_symbol: the frames of the addresses met last, in sets of two
  // slots (the more recent first), by hash. A whole table of the addresses
  // met would cost more to grow than its hits save where nearly every sample
  // meets new addresses (a build host's recording); a recording of a few busy
  // programs meets a few thousand at most, and then finds nearly all here.
  static constexpr size_t kRecentSets = 4096;
  // The first slot of the set of `k` in recent_.
  static size_t RecentSet(const FrameKey& k) {
    return 2 * (Hash(k.dso, k.shown) & (kRecentSets - 1));
  }
  FrameText* Recent(const FrameKey& k);
  FrameText* Unmapped(uint64_t ip);
  FrameText* OfSymbol(const FrameKey& k);
  FrameText* Made(const FrameKey& k, const Symbol* sym);
  uint64_t* AppendMappedFrame(Dso* dso, uint64_t map_ip, uint64_t shown,
                              const Symbol* sym);
  uint64_t* AppendUnmappedFrame(uint64_t ip);
  size_t AppendInlined(Dso* dso, uint64_t map_ip);
  void AppendSrcline(const std::string& line);
  // Where the pc, symbol and module of the frame being made lie in text_.
  struct FrameSpans {
    size_t pc, pc_end, symbol, symbol_end, module, module_end;
  };
  RecordedFrame FrameAt(std::string_view text, const FrameSpans& at,
                        const Dso* dso, uint64_t address, uint8_t flags);
  void AppendHex16(uint64_t v);

  SymbolResolver* symbols_;
  Style style_;
  std::string text_;  // the text being made
  FrameSpans spans_{};  // of its last frame
  std::vector<FrameSpans> inlined_spans_;  // AppendInlined's, a line each
  uint32_t next_id_ = 0;  // RecordedFrame::id
  Arena texts_;       // FrameText::text
  HashTable<Slot> table_;  // without Style::by_symbol
  std::vector<Slot> recent_;  // Style::by_symbol
  HashTable<SymbolSlot> of_symbol_;  // Style::by_symbol
  std::deque<FrameText> frames_;  // the frames, where they stay
  std::unordered_map<DsoAddress, UnwoundText, DsoAddressHash> unwound_;
  FrameText unmapped_;  // Style::one_unmapped
  bool any_nul_ = false;  // any_nul()
  SourceLines source_lines_;
  PerfSrcline srclines_{&source_lines_};
  // A count of frames without a symbol, on a cache line of its own: the
  // fold thread adds to it at every such frame (RecordedSamples), and must
  // not take the line of what this thread writes.
  struct alignas(64) NoSymbolCount {
    uint64_t n = 0;
  };
  NoSymbolCount no_map_frames_;  // in no mapping: DSO "[unknown]"
  std::unordered_map<const Dso*, NoSymbolCount> no_symbol_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_FRAME_RESOLVER_H_
