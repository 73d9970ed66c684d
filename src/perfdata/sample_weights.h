// --weight FIELD on perf.data: for each event of a recording, the field of
// its tracepoint data whose value a sample counts instead of its period
// (bytes_alloc of kmem:kmalloc, the size argument of a malloc uprobe).
#ifndef FLAMEFOLD_PERFDATA_SAMPLE_WEIGHTS_H_
#define FLAMEFOLD_PERFDATA_SAMPLE_WEIGHTS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdata/perf_data.h"
#include "perfdata/tracepoint_formats.h"

namespace flamefold {

/// The error for a recording none of whose events has what a fold by a
/// tracepoint's fields needs: the damage of its tracing data when there is
/// some (the formats lost may have held it), else `message`.
std::string NoFieldError(const PerfDataInfo& info, std::string message);

class SampleWeights {
 public:
  /// Finds `field` in the format of each tracepoint event of `info` (which
  /// must outlive this), the recording `file`. False with `*err` when the
  /// tracing data is damaged, when no event has the field (the message
  /// lists the fields each event has), or when an event has it but not as
  /// an integer of 1, 2, 4 or 8 bytes.
  bool Init(std::string_view field, const PerfDataInfo& info,
            const std::string& file, std::string* err);

  /// The weight of a sample of attr `attr` with the raw data `raw`: its
  /// field's value. None when its event has no such field, the raw data is
  /// too short for it, or a signed field holds a negative value.
  std::optional<uint64_t> Of(size_t attr, std::string_view raw) const;

 private:
  std::vector<const TracepointField*> fields_;  // by attr; nullptr: none
  bool swapped_ = false;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_SAMPLE_WEIGHTS_H_
