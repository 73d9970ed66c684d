// flamefold --format=pprof: the stacks as a pprof profile, gzipped
// profile.proto (pprof's, package perftools.profiles; serialized with
// Debian's protobuf library), readable by `pprof -top`, `pprof -http` and
// the tools that read pprof's format.
//
// The sample types: "samples" in "count"; on perf input whose counts are
// sums of periods, also the event's ("cpu" in "nanoseconds" for cpu-clock
// and task-clock, else the event's name in "count"), each sample giving
// its number of samples and its count. A sample per distinct stack, its
// locations leaf first; a function and a location per distinct frame name
// (ids in order of first appearance). From a recording, each location has
// the address and the mapping (file, build id) its name was first found
// at; folded stacks and perf script text hold neither.
// pprof's values are integers: a fractional count is rounded to the nearest
// and the run warns how many were. pprof's strings are UTF-8: bytes that
// are not become U+FFFD (base/utf8.h).
#ifndef FLAMEFOLD_EXPORT_PPROF_H_
#define FLAMEFOLD_EXPORT_PPROF_H_

#include <memory>

#include "base/output.h"
#include "collapse/stack_writer.h"

namespace flamefold {

std::unique_ptr<StackWriter> MakePprofWriter(OutputSink* out);

}  // namespace flamefold

#endif  // FLAMEFOLD_EXPORT_PPROF_H_
