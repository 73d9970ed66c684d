// Held samples made by hand for the tests of what takes them (RecordedSamples,
// FoldThread, SampleHandover): an event, frames made from their text as
// FrameResolver makes them, and a fold into a trie of its own.
#ifndef FLAMEFOLD_TEST_HELD_SAMPLE_FAKES_H_
#define FLAMEFOLD_TEST_HELD_SAMPLE_FAKES_H_

#include <string>
#include <string_view>
#include <vector>

#include "collapse/perf_lines.h"
#include "collapse/sample_fold.h"
#include "perfdata/frame_resolver.h"
#include "perfdata/held_samples.h"
#include "perfdata/perf_data.h"
#include "test_util.h"

namespace flamefold::testing {

inline std::vector<PerfAttr> Events() {
  PerfAttr a;
  a.sample_type = (1u << 1) | (1u << 2);  // tid, time: the event is shown
  a.name = "cpu-clock";
  return {a};
}

// A frame made from its text, "<pc> <symbol> (<module>)", as FrameResolver
// makes it (its fields views into the text).
inline FrameText Made(std::string_view text, uint32_t id,
                      uint64_t* no_symbol = nullptr) {
  FrameText f{text, no_symbol};
  FrameFields fields;
  std::string line = "\t";
  line += text;
  if (MatchFrameLine(line, &fields)) {
    size_t at = fields.pc.data() - line.data() - 1;
    f.frame.pc = text.substr(at, fields.pc.size());
    at = fields.rawfunc.data() - line.data() - 1;
    f.frame.symbol = text.substr(at, fields.rawfunc.size());
    at = fields.mod.data() - line.data() - 1;
    f.frame.module = text.substr(at, fields.mod.size());
  }
  f.frame.id = id;
  return f;
}

// Two frames of a DSO, the second without a symbol.
struct Frames {
  uint64_t no_symbol = 0;
  FrameText leaf = Made("401000 leaf (/bin/app)", 0);
  FrameText unknown = Made("402000 [unknown] (/bin/app)", 1, &no_symbol);
};

// A fold into a trie of its own.
struct Fold {
  Fold() { fold.StartRecording("t.data", 0); }
  std::string Folded() {
    fold.Finish();
    return testing::FoldedText(trie);
  }
  StringInterner names;
  StackTrie trie{&names};
  SampleFold fold{PerfScriptOptions(), &names, &trie};
};

// `n` samples of "app" (by their fields) with the frames leaf and
// [unknown], in `held`.
inline void HoldSamples(HeldSamples* held, Frames* f, int n) {
  for (int i = 0; i < n; ++i) {
    HeaderValues v{2, 0, 42, 42, 0, 1000000000, 1, 0};
    held->Begin(true, &v);
    *held->header() += "app";
    held->AddNamed(&f->leaf);
    held->AddNamed(&f->unknown);
  }
}

}  // namespace flamefold::testing

#endif  // FLAMEFOLD_TEST_HELD_SAMPLE_FAKES_H_
