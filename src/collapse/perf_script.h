// PerfScriptParser: `perf script` text to samples, as stackcollapse-perf.pl
// reads it, quirks included: the same lines kept or skipped, the same frame
// names cleaned the same way (the README lists what --modern changes).
#ifndef FLAMEFOLD_COLLAPSE_PERF_SCRIPT_H_
#define FLAMEFOLD_COLLAPSE_PERF_SCRIPT_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "base/string_interner.h"
#include "base/big_alloc.h"
#include "collapse/key_table.h"
#include "collapse/line_cache.h"
#include "io/line_reader.h"
#include "base/perl_number.h"
#include "collapse/stack_limits.h"
#include "collapse/stack_trie.h"
#include "collapse/frame_names.h"
#include "collapse/perf_lines.h"
#include "collapse/perf_script_options.h"
#include "collapse/recording_folder.h"
#include "collapse/sample_fold.h"

namespace flamefold {

class PerfScriptParser {
 public:
  /// Names are interned in `names`; samples go to `sink`. Both must outlive
  /// the parser.
  PerfScriptParser(const PerfScriptOptions& options, StringInterner* names,
                   SampleSink* sink);

  /// Parses every line of one input. Like Perl's `<>`, the state carries
  /// over from one input to the next (a sample may continue in the next
  /// file). Returns false on a read error, with `*err` set.
  /// `line_base` is added to line numbers in messages (for a chunk that
  /// starts inside a file).
  bool Feed(LineReader* reader, std::string_view file, std::string* err,
            uint64_t line_base = 0, uint64_t input_index = 0);

  /// Ends the input (SampleFold::Finish).
  void Finish() { fold_.Finish(); }

  /// The fold the parser reads into: a recording's samples go there by
  /// their fields (SampleFold::StartRecording, Add), in the same state.
  SampleFold* fold() { return &fold_; }

  const PerfScriptStats& stats() const { return fold_.stats(); }
  /// The statistics so far, which then start again from nothing: for a
  /// parser kept across inputs whose counts are taken input by input.
  PerfScriptStats TakeStats() { return fold_.TakeStats(); }
  const PerfScriptOptions& options() const { return fold_.options(); }
  /// The event kept, once known ("" before the first event line).
  const std::string& event_filter() const { return fold_.event_filter(); }
  /// One of `parsers` parsers of one input (--jobs): its cache of stack
  /// lines seen before takes a `parsers`-th of the memory a lone
  /// parser's may (LineCache::Share), so that N threads keep the memory
  /// of one. A profile whose lines repeat (a service's hot paths) holds
  /// far fewer distinct lines than even a quarter fits; one of fresh
  /// lines fills any share, mostly with lines that do not come back.
  void ShareLineCache(size_t parsers) { line_cache_.Share(parsers); }

 private:
  bool FastStackLine(std::string_view line, LineReader* reader);
  static bool FastFields(const char* base, size_t n, FrameFields* f);
  void LookAhead(LineReader* reader);
  void CachedLines(LineReader* reader);
  static constexpr uint32_t kCachedFrame = 1u << 31;
  uint32_t CachedValue(uint32_t id) const;
  void PushCached(uint32_t value);

  // The Perl script's per-sample state and line rules, and its naming of
  // frames and statistics (the fold's, used here on the fast paths).
  SampleFold fold_;
  FrameNames& names_;
  PerfScriptStats& stats_;
  uint64_t line_base_ = 0;

  bool fast_lines_ = true;  // FastStackLine may take stack lines
  // Caller lines (all but the first of a sample, which is the sampled
  // address and varies) that FastStackLine took, each with its frame
  // (CachedValue), for CachedLines.
  LineCache line_cache_;
  // The address just past the '\n' of the last line FastStackLine took (0:
  // none): a line starting there is in a run of lines the line cache did
  // not hold, whose frame keys are looked up in FrameNames one after the
  // other (LookAhead).
  uintptr_t fast_next_ = 0;
  // How many frame keys the table holds before LookAhead pays: 64Ki keys
  // take 4 MiB of slots, as much as the stored keys or more.
  static constexpr size_t kLookAheadKeys = 1u << 16;
  // The next line, parsed ahead while its frame key's slot is fetched
  // (LookAhead): where it lay in the reader's buffer as of its `refills`,
  // its fields, and its key and the key's hash (for the java tag).
  struct AheadLine {
    const char* data = nullptr;  // nullptr: none
    size_t size = 0;
    uint64_t refills = 0;
    FrameFields fields;
    KeyTable::Key key;
    uint64_t hash = 0;
  };
  AheadLine ahead_;
};

/// A recording folded into a parser's fold, as the `index`-th input of the
/// run: its samples by their fields, or its text (--srcline, --inline)
/// read as the parser reads any, each part's lines numbered after the
/// last part's.
class ParserRecordingFold : public RecordingFold {
 public:
  ParserRecordingFold(PerfScriptParser* parser, std::string file,
                      uint64_t index);
  const PerfScriptOptions& options() const override {
    return parser_->options();
  }
  RecordedSampleSink* samples() override { return parser_->fold(); }
  bool ReadText(std::string_view text, std::string* err) override;

 private:
  PerfScriptParser* parser_;
  std::string file_;
  uint64_t index_;
  uint64_t lines_ = 0;  // read so far
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_PERF_SCRIPT_H_
