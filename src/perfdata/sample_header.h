// The header line perf script prints for a sample with its default fields
// (comm, tid, [cpu], time, period, event), as its printf calls format them.
#ifndef FLAMEFOLD_PERFDATA_SAMPLE_HEADER_H_
#define FLAMEFOLD_PERFDATA_SAMPLE_HEADER_H_

#include <cstddef>
#include <string>

#include "perfdata/perf_data.h"

namespace flamefold {

struct SampleHeaderStyle {
  size_t name_width = 0;  // of the longest event name: names are padded
  bool pid_tid = false;   // "PID/TID" (perf script -F+pid) instead of "TID"
};

/// Appends to `*out` the header of sample `s` of event `a` in a thread
/// named `comm`, up to the event's ": " (and "[fields]" for a tracepoint,
/// whose fields are not decoded); a sample without a call chain has its
/// frame on the same line, after this.
void AppendSampleHeader(const PerfAttr& a, const PerfSample& s,
                        const std::string& comm, SampleHeaderStyle style,
                        std::string* out);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_SAMPLE_HEADER_H_
