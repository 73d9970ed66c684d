// --time-range RANGES: which samples are folded by their time, in perf
// script --time's syntax, parsed once (ParseTimeRange) and resolved for
// each input against its first and last sample times (ResolveTimeRange):
//   3450.2,3450.9          from START to END, in seconds as perf prints them
//   ,3450.9   3450.2,      either side open
//   1.5,2.0 3.0,4.0        several ranges, in order, apart
//   +0.01,+0.05            seconds after the input's first sample (perf
//                          script --reltime's times)
//   10%/2                  the second tenth of the recording
//   0%-10%,30%-40%         slices of the recording, in percent
//   50%                    its first half
// Percent slices need the first and last sample times a perf.data header
// holds. A sample is kept as perf script --time keeps it (TimeKept).
#ifndef FLAMEFOLD_COLLAPSE_TIME_RANGE_H_
#define FLAMEFOLD_COLLAPSE_TIME_RANGE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace flamefold {

/// A range of sample times in ns; 0 leaves that side open.
struct TimeSpan {
  uint64_t start = 0, end = 0;
};

struct TimeRangeSpec {
  enum class Kind { kNone, kAbsolute, kRelative, kPercent };
  Kind kind = Kind::kNone;
  std::string text;  // as given, for messages
  /// kAbsolute: the spans. kRelative: offsets from the first sample, kOpen
  /// for an open side.
  std::vector<TimeSpan> spans;
  static constexpr uint64_t kOpen = UINT64_MAX;
  /// kPercent: each slice's start and end as fractions of the recording.
  struct Slice {
    double start = 0, end = 0;
  };
  std::vector<Slice> slices;

  bool active() const { return kind != Kind::kNone; }
  /// Whether its spans depend on the input's first sample.
  bool NeedsFirstTime() const {
    return kind == Kind::kRelative || kind == Kind::kPercent;
  }
};

/// Parses RANGES. False with `*err` (naming what is wrong) for a malformed
/// one, ranges that overlap or are out of order, or an end before its start.
bool ParseTimeRange(std::string_view text, TimeRangeSpec* out,
                    std::string* err);

/// The spans of `spec` for an input whose first sample is at `first` and
/// whose last is at `last` (0: not known). False with `*err` for percent
/// slices without both.
bool ResolveTimeRange(const TimeRangeSpec& spec, uint64_t first, uint64_t last,
                      std::vector<TimeSpan>* out, std::string* err);

/// Whether a sample at `t` is kept: always at time 0 (no time); with one
/// span, unless before its start or after its end; with several, when
/// inside one of them.
bool TimeKept(std::span<const TimeSpan> spans, uint64_t t);

/// `ns` in seconds as perf script prints times: 6 decimals, or 9 when the
/// time is not whole microseconds ("3450.247735", "3442.442956415").
std::string SecondsText(uint64_t ns);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_TIME_RANGE_H_
