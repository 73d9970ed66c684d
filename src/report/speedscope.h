// flamefold --format=speedscope: the stacks as a speedscope file, in
// speedscope's published file format (the file-format-schema.json of its
// npm package).
//
// When the fold handed every sample with its time (perf script text with
// times, perf.data; no folded input): a "sampled" profile per thread,
// "comm-tid", the threads in the order of their first sample, each
// thread's samples in time order with their counts as weights (unit
// nanoseconds for cpu-clock and task-clock), each sample's stack shaped
// by the filters and transforms (FoldFacts::shape); the heaviest thread
// is the active profile. The samples are kept until the end.
//
// Otherwise one "sampled" profile whose samples are the distinct stacks,
// each an array of indices into the shared frames (root first), with their
// counts as weights, in the order of the folded lines, written as they
// come: only the weights and the frame names wait for the end (JSON's
// members may come in any order, so "weights", "endValue" and "shared"
// follow "samples").
#ifndef FLAMEFOLD_EXPORT_SPEEDSCOPE_H_
#define FLAMEFOLD_EXPORT_SPEEDSCOPE_H_

#include <memory>
#include <string>

#include "base/output.h"
#include "collapse/stack_writer.h"

namespace flamefold {

/// The speedscope writer of a profile named `name` (speedscope shows it as
/// the title).
std::unique_ptr<StackWriter> MakeSpeedscopeWriter(OutputSink* out,
                                                  std::string name);

}  // namespace flamefold

#endif  // FLAMEFOLD_EXPORT_SPEEDSCOPE_H_
