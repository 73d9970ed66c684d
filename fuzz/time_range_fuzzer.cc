// libFuzzer target for --time-range's parser (collapse/time_range.h), which
// reads a command-line string. Checks what it promises: a range refused
// says why and leaves nothing set; one accepted has spans in order and
// apart, each ending no earlier than it starts, or percent slices within
// the recording; resolved against first and last times taken from the
// input's last 16 bytes, every span lies in order and TimeKept answers.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "collapse/time_range.h"

namespace {

using flamefold::TimeRangeSpec;
using flamefold::TimeSpan;

void CheckSpans(const TimeRangeSpec& spec) {
  const uint64_t open =
      spec.kind == TimeRangeSpec::Kind::kRelative ? TimeRangeSpec::kOpen : 0;
  for (size_t i = 0; i < spec.spans.size(); ++i) {
    const TimeSpan& s = spec.spans[i];
    if (s.start != open && s.end != open && s.end < s.start) abort();
    if (i + 1 < spec.spans.size() &&
        (s.end == open || s.end >= spec.spans[i + 1].start)) {
      abort();
    }
  }
  for (const TimeRangeSpec::Slice& s : spec.slices) {
    if (!(s.start >= 0.0 && s.start <= s.end && s.end <= 1.0)) abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  uint64_t first = 0, last = 0;
  if (in.size() >= 16) {
    std::memcpy(&first, in.data() + in.size() - 16, 8);
    std::memcpy(&last, in.data() + in.size() - 8, 8);
    first >>= 2;  // times a recording may hold, without overflow after +S
    last = first + (last >> 8);
  }
  TimeRangeSpec spec;
  std::string err;
  if (!flamefold::ParseTimeRange(in, &spec, &err)) {
    if (err.empty() || spec.active()) abort();
    return 0;
  }
  if (!spec.active() || spec.text != in) abort();
  CheckSpans(spec);
  std::vector<TimeSpan> spans;
  if (!flamefold::ResolveTimeRange(spec, first, last, &spans, &err)) {
    if (spec.kind != TimeRangeSpec::Kind::kPercent || first * last != 0) {
      abort();
    }
    return 0;
  }
  for (const TimeSpan& s : spans) {
    if (s.end != 0 && s.end < s.start && spec.kind != TimeRangeSpec::Kind::kPercent) {
      abort();
    }
  }
  flamefold::TimeKept(spans, first);
  flamefold::TimeKept(spans, last);
  if (flamefold::SecondsText(first).empty()) abort();
  return 0;
}
