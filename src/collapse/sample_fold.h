// SampleFold: stackcollapse-perf.pl's per-sample state and its reading of
// one line at a time: the process name a header gives ($pname, kept per
// comm), the event filter, the stack assembled leaf first, the depth limit,
// and the sample folded at the blank line that ends it. The text parser
// (perf_script.h) hands it the lines it does not take on its fast paths; a
// recording's samples come by their fields (RecordedSampleSink), each
// distinct frame named once (FrameNames::Of), or, where the Perl script's
// reading is one of lines (an odd comm or event, a sample without a call
// chain, a frame whose line splits otherwise), as the lines perf script
// prints for them (perf_script_lines.h).
#ifndef FLAMEFOLD_COLLAPSE_SAMPLE_FOLD_H_
#define FLAMEFOLD_COLLAPSE_SAMPLE_FOLD_H_

#include <array>
#include <optional>
#include <span>
#include <cstdint>
#include <string>
#include <string_view>
#include <map>
#include <utility>
#include <vector>

#include "base/perl_number.h"
#include "base/string_interner.h"
#include "collapse/frame_names.h"
#include "collapse/frame_origins.h"
#include "collapse/off_cpu_waits.h"
#include "collapse/perf_lines.h"
#include "collapse/perf_script_lines.h"
#include "collapse/perf_script_options.h"
#include "collapse/recorded_sample.h"
#include "collapse/stack_trie.h"
#include "collapse/timed_sample.h"
#include "io/line_reader.h"

namespace flamefold {

class SampleFold : public RecordedSampleSink {
 public:
  /// Names are interned in `names`; samples go to `sink`. Both must outlive
  /// this.
  SampleFold(const PerfScriptOptions& options, StringInterner* names,
             SampleSink* sink);
  SampleFold(const SampleFold&) = delete;
  SampleFold& operator=(const SampleFold&) = delete;

  const PerfScriptOptions& options() const { return options_; }
  const PerfScriptStats& stats() const { return stats_; }
  PerfScriptStats* mutable_stats() { return &stats_; }
  FrameNames* frame_names() { return &frame_names_; }
  /// The event kept, once known ("" before the first event line).
  const std::string& event_filter() const { return event_filter_; }
  /// Where each sample folded goes too, with its time (nullptr: nowhere,
  /// the default). Must outlive this.
  void set_timed_sink(TimedSampleSink* sink) {
    timed_sink_ = sink;
    read_times_ = timed_sink_ != nullptr || options_.time_range.active();
  }

  /// The input read from now on: the `index`-th of the run, which orders
  /// the "first ..." cases of several inputs (Position).
  void set_input_index(uint64_t index) {
    if (index != input_index_) ForgetSampleTimes();
    input_index_ = index;
  }
  /// Where the `n`-th line (or sample) of the input stands among all.
  uint64_t Position(uint64_t n) const { return (input_index_ << 40) + n; }

  /// One line of perf script text, the `lineno`-th of `file`, read as the
  /// Perl script reads it. `reader` (nullptr: none) gives --srcline its
  /// source lines. A line with a NUL byte sets error().
  void ReadLine(std::string_view line, uint64_t lineno, LineReader* reader,
                std::string_view file);
  /// The last error ReadLine met ("" none), until ClearError.
  const std::string& error() const { return error_; }
  void ClearError() { error_.clear(); }

  /// A header given by its fields (`ev` nullptr: no event), standing at
  /// position `at`: the sample of the event kept begins (true), or one of
  /// another event is skipped (false).
  bool OnHeader(const HeaderFields& h, const EventFields* ev, uint64_t at);
  /// Whether a header line starting "<comm> <digits>" and, when it has an
  /// event, ending ": <digits> <event>: " reads back as exactly those
  /// fields: a comm of two characters or more (one with --modern), not
  /// starting with '#' (a comment line), and an event name, both without
  /// white space (no earlier match inside them).
  bool PlainHeader(std::string_view comm, std::string_view event) const;

  /// Whether a sample is being read ($pname is true).
  bool has_pname() const { return has_pname_; }
  /// Whether the process name starts with "java" (FrameNames' rules for
  /// such frames differ).
  bool java() const { return pname_java_; }
  /// Whether no stack line of the sample was read yet.
  bool leaf_pending() const { return leaf_pending_; }
  void LeafRead() { leaf_pending_ = false; }

  /// A stack line's result: its frames pushed, or a frame the Perl script
  /// drops counted.
  void PushLine(const FrameNames::Result& res) {
    if (res.kind == FrameNames::kFrame) {
      PushFrames(res);
    } else {
      stats_.paren_frames++;
    }
  }
  /// A frame that stands alone (a result of one piece and no quirk).
  void PushFrame(SymbolId frame) {
    stack_rev_.push_back(frame);
    if (stack_rev_.size() / 2 >= options_.limits.max_depth) TrimDeepStack();
  }
  /// Adds a stack line's frames to the sample (leaf first, as read).
  void PushFrames(const FrameNames::Result& res) {
    if (res.quirks != 0) frame_names_.CountQuirks(res.quirks);
    if (res.count == 1) {  // nearly always
      stack_rev_.push_back(frame_names_.piece(res.first));
    } else {
      for (uint32_t i = res.count; i-- > 0;) {
        stack_rev_.push_back(frame_names_.piece(res.first + i));
      }
    }
    if (stack_rev_.size() / 2 >= options_.limits.max_depth) TrimDeepStack();
  }
  /// The blank line after a sample: it is folded.
  void EndSample();
  /// Ends the input. The Perl script drops a sample that is not followed by
  /// a blank line; so do we, counting it, unless --modern.
  void Finish();
  /// Ends an input, the file `file`: with --off-cpu, its waits go to the
  /// sink (OffCpuWaits::Finish). False with `*err` when it held no
  /// sched_switch sample.
  bool EndInput(std::string_view file, std::string* err);
  /// The statistics so far, which then start again from nothing.
  PerfScriptStats TakeStats() { return std::exchange(stats_, {}); }

  /// The recording `file`, the `index`-th input of the run, whose samples
  /// follow (Add). Messages about them name the file and the sample.
  void StartRecording(std::string_view file, uint64_t index);
  /// Notes in `origins` (nullptr: nowhere, the default) where each frame
  /// of a recording's samples came from.
  void set_frame_origins(FrameOrigins* origins) { origins_ = origins; }
  void SetEvents(std::span<const RecordedEvent> events) override;
  void SetSampleTimes(uint64_t first, uint64_t last) override;
  bool Add(const RecordedSample& s, std::string* err) override;
  void SwitchIn(int32_t tid, uint64_t time) override;
  void RecordEnd(uint64_t last_time) override;

 private:
  struct Event {
    RecordedEvent fields;
    bool shown;  // the Perl script reads the event from the header line
  };
  bool ByFields(const RecordedSample& s) const;
  void AddHeader(const RecordedSample& s, const Event& e);
  void AddFrame(const RecordedFrame& f);
  void ReadSampleLine(std::string_view line);
  void ReadHeaderLine(std::string_view line, const HeaderFields& h,
                      uint64_t lineno, std::string_view file);
  std::string Place(std::string_view file, uint64_t lineno) const;
  void ProcessStackLine(std::string_view line, uint64_t lineno,
                        std::string_view file, LineReader* reader);
  bool HasNul(std::string_view line, uint64_t lineno, std::string_view file);
  void SetPname(std::string_view pname);
  void Weigh();
  void AssembleFrames();
  void TrimDeepStack();
  void KeepTimed(uint64_t time, int32_t pid, int32_t tid,
                 std::string_view comm);
  bool InTimeRange(uint64_t time, std::string_view file, uint64_t lineno);
  void ForgetSampleTimes();
  void OffCpuHeader(int32_t tid, uint64_t time,
                    const std::optional<SchedSwitch>& sched);
  bool OffCpuLine(std::string_view line, uint64_t lineno,
                  std::string_view file);
  void EndOffCpuSample();
  void AddOnCpuSample();
  void MarkOffCpu();

  PerfScriptOptions options_;
  StringInterner* names_;
  SampleSink* sink_;
  PerfScriptStats stats_;
  std::string error_;  // set on binary input
  uint64_t input_index_ = 0;
  std::string event_filter_;

  // The sample being read: Perl's $pname, @stack and $m_period.
  bool has_pname_ = false;      // $pname is true
  bool pname_java_ = false;     // $pname =~ /^java/
  bool leaf_pending_ = false;   // no stack line of this sample read yet
  uint32_t pname_index_ = 0;    // into pname_results_
  std::vector<SymbolId> stack_rev_;  // frames, leaf first
  uint64_t trimmed_ = 0;  // leaf-side frames dropped past the depth limit
  PerlNumber period_ = PerlNumber::FromUint(1);
  // --weight: the field's value on the header being read (none: it has
  // no such field), and whether the sample then weighs nothing.
  std::optional<uint64_t> header_weight_;
  bool weightless_ = false;
  std::vector<SymbolId> frames_;     // scratch: root to leaf

  // The frames of each distinct stack line key, and of each distinct
  // process name (its pieces in pname_pieces_).
  FrameNames frame_names_;
  StringInterner pname_keys_;
  std::vector<FrameNames::Result> pname_results_;
  std::vector<SymbolId> pname_pieces_;
  std::string scratch_;
  std::string pname_scratch_;
  // Without --pid, the process state each recent comm gave (SetPname's
  // result), so that a header does not build and intern its name again.
  struct CommSlot {
    bool valid = false;
    bool has_pname = false;
    bool java = false;
    uint32_t index = 0;
    std::string comm;
  };
  std::array<CommSlot, 64> comm_cache_;

  // The recording being read (StartRecording), its events, how its headers
  // are printed, the sample being added (messages name it) and a line of
  // it read as text.
  std::string recording_;
  std::vector<Event> events_;
  SampleHeaderStyle header_style_;
  bool events_given_ = false;
  const RecordedSample* sample_ = nullptr;
  std::string sample_line_;
  FrameOrigins* origins_ = nullptr;

  // The timed sink, whether headers' times are read, and the sample being
  // read as the timed sink gets it (its comm kept in timed_comm_).
  TimedSampleSink* timed_sink_ = nullptr;
  bool read_times_ = false;
  TimedSample timed_;
  std::string timed_comm_;

  // --time-range for the input being read: its spans once known (they may
  // depend on its first sample), and the first and last sample times its
  // recording's header holds (0: none).
  std::vector<TimeSpan> time_spans_;
  bool time_spans_known_ = false;
  uint64_t recorded_first_ = 0, recorded_last_ = 0;

  // --off-cpu: the waits, the switch-out whose sample is being read (none:
  // the sample is no wait) and its time, whether that sample is of another
  // event than sched_switch, and the sched_switch samples of the input.
  OffCpuWaits off_cpu_;
  std::optional<SchedSwitch> switch_out_;
  uint64_t switch_out_time_ = 0;
  bool other_sample_ = false;
  // --on-off: each frame's id and the id of its name marked "_[o]".
  std::map<SymbolId, SymbolId> off_cpu_names_;
  uint64_t sched_samples_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_SAMPLE_FOLD_H_
