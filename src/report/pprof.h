// flamefold --format=pprof: the stacks as a pprof profile, gzipped
// profile.proto (pprof's, package perftools.profiles; serialized with
// Debian's protobuf library), readable by `pprof -top`, `pprof -http` and
// the tools that read pprof's format.
//
// From folded stacks: one sample type, "samples" in unit "count"; a sample
// per distinct stack, its value the stack's count, its locations leaf
// first; a function and a location per distinct frame name (ids in order
// of first appearance); no mappings (folded stacks hold no addresses).
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
