// FrameNames: stackcollapse-perf.pl's rules for one frame (the symbol's
// offset stripped, "a->b" inline chains split, parameters cut, quotes and
// ';' tidied, "[unknown]" named after the module, _[k]/_[j]/_[i] added),
// applied once per distinct frame and kept: the text parser looks a stack
// line's fields up here, and so does the fold of a recording's samples.
#ifndef FLAMEFOLD_COLLAPSE_FRAME_NAMES_H_
#define FLAMEFOLD_COLLAPSE_FRAME_NAMES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/string_interner.h"
#include "collapse/key_table.h"
#include "collapse/perf_script_options.h"
#include "collapse/recorded_sample.h"
#include "io/line_reader.h"

namespace flamefold {

/// A stack line's fields, as MatchFrameLine finds them: the address, the
/// symbol as printed (with its "+0x" offset) and the module.
struct FrameFields {
  std::string_view pc, rawfunc, mod;
};

class FrameNames {
 public:
  /// What a stack line stands for: frames (pieces, leaf side last), a
  /// frame the Perl script drops, a line it does not recognise, or one
  /// holding a NUL byte.
  enum Kind : uint8_t { kFrame, kDropped, kUnrecognized, kBinary };
  enum Quirk : uint8_t {
    kCutName = 1,
    kUpperHex = 2,
    kKernelModule = 4,
    kJitdump = 8,
    kLongName = 16,  // a name cut to the frame-length limit
  };
  struct Result {
    uint32_t first = 0;   // into the pieces
    uint32_t count = 0;
    uint8_t kind = kFrame;
    uint8_t quirks = 0;   // bit set of Quirk
  };

  /// Names are interned in `names`; what the rules find is counted in
  /// `stats`. Both must outlive this.
  FrameNames(const PerfScriptOptions& options, StringInterner* names,
             PerfScriptStats* stats);

  /// The cache key of a stack line: what its frames depend on (the symbol
  /// without its offset, the module, whether the process name starts with
  /// "java", and with --addrs the address).
  KeyTable::Key Key(const FrameFields& f, bool java) const;
  /// The id of the result for `f` (Key's), made on first sight.
  uint32_t Lookup(const FrameFields& f, bool java) {
    KeyTable::Key key = Key(f, java);
    return LookupKey(f, key, KeyTable::Hash(key), java);
  }
  /// Lookup, given the key and its hash.
  uint32_t LookupKey(const FrameFields& f, const KeyTable::Key& key,
                     uint64_t hash, bool java);
  const Result& result(uint32_t id) const { return results_[id]; }
  SymbolId piece(size_t i) const { return pieces_[i]; }
  /// The distinct keys looked up so far.
  size_t size() const { return keys_.size(); }
  void Prefetch(uint64_t hash) const { keys_.Prefetch(hash); }
  void PrefetchKey(uint64_t hash) const { keys_.PrefetchKey(hash); }

  /// The frames of `f`, not cached: for --srcline, where each frame reads
  /// the source line after it from `reader` (nullptr: none), and --inline,
  /// whose result depends on the address.
  Result Process(const FrameFields& f, bool java, LineReader* reader);
  /// The id of the result for the recorded frame `f` in a process whose
  /// name does (`java`) or does not start with "java", looked up once per
  /// frame: by its fields, or, where the Perl script's regular expression
  /// splits its stack line otherwise, by that line's. kUnmatched: the line
  /// is not one of a frame.
  uint32_t Of(const RecordedFrame& f, bool java) {
    const std::vector<uint32_t>& ids = by_frame_[java];
    if (f.id < ids.size() && ids[f.id] != kNotNamed) return ids[f.id];
    return NameFrame(f, java);
  }
  static constexpr uint32_t kUnmatched = UINT32_MAX;
  /// Forgets the recorded frames' ids: the next recording numbers its own.
  void ForgetFrames();

  /// Counts the quirks of a frame pushed onto a sample.
  void CountQuirks(uint8_t quirks);

 private:
  static constexpr uint32_t kNotNamed = UINT32_MAX - 1;
  uint32_t NameFrame(const RecordedFrame& f, bool java);
  bool InlineFrame(const FrameFields& f, Result* res);
  void NamePiece(std::string* func, size_t index, const FrameFields& f,
                 bool java, bool* is_unknown, uint8_t* quirks);
  void AppendSrcline(LineReader* reader, std::string* func);
  void TidyPiece(std::string* func, uint8_t* quirks) const;
  void Annotate(std::string* func, size_t index, std::string_view mod,
                uint8_t* quirks) const;

  const PerfScriptOptions& options_;
  StringInterner* names_;
  PerfScriptStats* stats_;
  KeyTable keys_;
  std::vector<Result> results_;
  std::vector<SymbolId> pieces_;
  std::string scratch_;
  std::string line_;  // NameFrame's stack line
  // Of's result for each recorded frame id, for process names not starting
  // and starting with "java".
  std::vector<uint32_t> by_frame_[2];
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_FRAME_NAMES_H_
