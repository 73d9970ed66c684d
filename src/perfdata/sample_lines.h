// SampleLines: the last step of the replay, a held sample whose frames
// are all named becoming the lines perf script prints for it: given to
// the perf script parser one by one (each stack line by its id, looked up
// once per frame), or written as text. It touches nothing of the replay
// but the frames' texts and their counters of frames without a symbol,
// so it may run on a thread of its own (SampleLinesThread) while the
// replay names the next samples' frames.
#ifndef FLAMEFOLD_PERFDATA_SAMPLE_LINES_H_
#define FLAMEFOLD_PERFDATA_SAMPLE_LINES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "collapse/perf_script.h"
#include "perfdata/frame_texts.h"
#include "perfdata/held_samples.h"
#include "perfdata/perf_data.h"

namespace flamefold {

// Cache-line aligned (so its size is whole lines too): on its thread it
// writes its members at every sample, which must not share a line with
// the replay's.
class alignas(64) SampleLines {
 public:
  /// The lines go to `parser` when set, else into text(). `pid_tid`: the
  /// headers say "comm PID/TID" (see PerfDataText::pid_tid).
  SampleLines(PerfScriptParser* parser, bool pid_tid);

  /// The recording's events, by attr index (copied: a pipe-mode recording
  /// adds events while it is read). Before the first Put, and again when
  /// they change.
  void SetEvents(const std::vector<PerfAttr>& attrs);

  /// The lines of `s`.
  /// False with `*err` once a line was refused (the parser's first error;
  /// the sample's lines are all given first, as perf script's text would
  /// be read to its end).
  bool Put(const HeldSample& s, std::string* err);

  /// The text written (no parser), for the caller to hand on and clear.
  std::string* text() { return &out_; }
  /// The frames shown, counted as each sample's lines are given.
  uint64_t frame_count() const { return frame_count_; }

  /// The parser's id of the stack line of `f` for a process name starting
  /// (`java`) or not with "java", looked up if it was not yet.
  uint32_t LineId(FrameText* f, bool java);
  /// The same for each line of an unwound frame.
  const std::vector<uint32_t>& UnwoundLineIds(UnwoundText* u, bool java);

  /// Whether the parser reads the event of `a`'s samples from their header
  /// line.
  static bool EventShown(const PerfAttr& a);

 private:
  struct Event {
    std::string name;
    bool shown;  // EventShown
  };
  void PutHeader(const HeldSample& s);
  void PutFramesById(const HeldSample& s);
  void PutFrame(const HeldFrame& f);
  void PutFrameLine(FrameText* f);
  void PutUnwoundLines(UnwoundText* u);
  void PutStackLine(uint32_t id, std::string_view text);
  void EndLine();
  void GiveLine(std::string_view line);
  void CountFrame(uint64_t* no_symbol, uint64_t frames = 1);

  PerfScriptParser* lines_;  // nullptr: text
  bool pid_tid_;
  std::vector<Event> events_;
  std::string out_;         // the text not yet handed on (lines_: the line)
  std::string line_;        // a stack line for lines_
  std::string line_error_;  // the first error lines_ gave
  std::vector<uint32_t> ids_;  // PutFramesById's line ids
  uint64_t frame_count_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_SAMPLE_LINES_H_
