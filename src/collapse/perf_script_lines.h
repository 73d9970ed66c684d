// The lines perf script prints for a recorded sample with its default
// fields: the header (comm, tid, [cpu], time, period, event), as its printf
// calls format them, and a frame's stack line. The fold reads a sample
// through them where stackcollapse-perf.pl's reading is one of lines (an
// odd comm or event, a sample without a call chain); the text a recording
// is rendered to is made of them.
#ifndef FLAMEFOLD_COLLAPSE_PERF_SCRIPT_LINES_H_
#define FLAMEFOLD_COLLAPSE_PERF_SCRIPT_LINES_H_

#include <cstddef>
#include <string>

#include "collapse/perf_script_options.h"
#include "collapse/recorded_sample.h"

namespace flamefold {

struct SampleHeaderStyle {
  size_t name_width = 0;  // of the longest event name: names are padded
  bool pid_tid = false;   // "PID/TID" (perf script -F+pid) instead of "TID"
  /// --weight's field: a tracepoint sample's header shows it as perf script
  /// does, "FIELD=VALUE", when the sample has it (a view: the caller keeps
  /// the name).
  std::string_view weight_field;
  bool ns = false;        // times to the ns, as perf script --ns prints them
};

/// Appends to `*out` the header of sample `s` of event `e`, up to the
/// event's ": " (and "[fields]" for a tracepoint, whose fields are not
/// decoded, but for the weight field); a sample without a call chain has
/// its frame on the same line, after this.
void AppendSampleHeader(const RecordedEvent& e, const RecordedSample& s,
                        SampleHeaderStyle style, std::string* out);

/// Appends the frame `f` as perf script prints it in a stack line, after
/// the indent: "<addr> <symbol> (<module>)".
void AppendFrameText(const RecordedFrame& f, std::string* out);

/// Whether samples should say "comm PID/TID" to the fold with `options`:
/// perf script's default fields give the Perl script no PID ("comm-?");
/// --modern asks for the PID and TID every sample holds, as does --off-cpu,
/// whose text is perf script -F comm,pid,tid,... (it needs the tid).
bool PidTidWanted(const PerfScriptOptions& options);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_PERF_SCRIPT_LINES_H_
