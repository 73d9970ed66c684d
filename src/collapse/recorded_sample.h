// A recording's samples as the fold takes them: each sample's header fields
// and its frames, resolved by the stage that reads the recording (DSO,
// symbol, address, module), not the text perf script would print for them.
// The fold (SampleFold) names each distinct frame once, by its id.
#ifndef FLAMEFOLD_COLLAPSE_RECORDED_SAMPLE_H_
#define FLAMEFOLD_COLLAPSE_RECORDED_SAMPLE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <cstring>

namespace flamefold {

struct Dso;  // symbols/symbol_resolver.h

/// One distinct frame of a recording; it stays where it is while the
/// recording is folded.
struct RecordedFrame {
  enum Flag : uint8_t {
    kKernel = 1,    // a kernel address
    kPerfMap = 2,   // in a JIT's perf map
    kInlined = 4,   // an inline record of an unwound address
    kUnwound = 8,   // reached by unwinding a --call-graph dwarf stack
  };
  uint32_t id = 0;  // dense in a recording: the fold caches names by it
  const Dso* dso = nullptr;  // nullptr: in no mapping
  uint64_t address = 0;  // as perf script shows it
  /// The address in hex ("pc"), the symbol as perf script prints it (with
  /// its "+0x" offset when it shows one; "[unknown]" when there is none)
  /// and the module ("[kernel.kallsyms]", a path, "inlined"...).
  std::string_view pc, symbol, module;
  uint8_t flags = 0;
};

/// An event of the recording, with the fields perf script's header shows
/// for its samples.
struct RecordedEvent {
  std::string name;
  bool tid = false, cpu = false, time = false;
  bool tracepoint = false;  // no period shown; fields after the name
};

/// The fields of a sched:sched_switch sample that --off-cpu reads.
struct SchedSwitch {
  int32_t prev_pid = 0, next_pid = 0;
  /// prev_state as perf script prints it ("S", "D", "R+", "X"), NUL-padded.
  std::array<char, 8> state{};
  std::string_view state_text() const {
    return std::string_view(state.data(), strnlen(state.data(), state.size()));
  }
};

struct RecordedSample {
  uint64_t ordinal = 0;  // the sample's number in the recording, from 1
  uint64_t offset = 0;   // of its record in the file
  uint64_t time = UINT64_MAX;  // in ns; UINT64_MAX: none
  int32_t pid = 0, tid = 0, cpu = 0;
  uint32_t event = 0;  // its index in the events given (SetEvents)
  uint64_t period = 0;
  /// With --weight: the value of the field in the sample's tracepoint data;
  /// none when its event has no such field (or a negative value there).
  std::optional<uint64_t> weight;
  /// With --off-cpu: the fields of a sched:sched_switch sample.
  std::optional<SchedSwitch> sched;
  std::string_view comm;
  /// false: the sample has no call chain, and perf script prints its one
  /// frame on the header line.
  bool chain = true;
  std::span<const RecordedFrame* const> frames;  // callee first
};

/// Where samples go.
class RecordedSampleSink {
 public:
  virtual ~RecordedSampleSink() = default;
  /// The recording's events; again when they change (a pipe-mode
  /// recording adds events as it is read), before the next sample.
  virtual void SetEvents(std::span<const RecordedEvent> events) = 0;
  /// The first and last sample times the recording's header holds (perf's
  /// HEADER_SAMPLE_TIME), before the first sample; not called without them.
  virtual void SetSampleTimes(uint64_t /*first*/, uint64_t /*last*/) {}
  /// The next sample. False with `*err` on a sample that cannot be read
  /// (a name holding a NUL byte where perf script's text may not).
  virtual bool Add(const RecordedSample& s, std::string* err) = 0;
  /// --off-cpu: thread `tid` was switched in at `time` (a
  /// PERF_RECORD_SWITCH IN), in its place among the samples.
  virtual void SwitchIn(int32_t /*tid*/, uint64_t /*time*/) {}
  /// --off-cpu: the time of the recording's last record, once every
  /// sample was added.
  virtual void RecordEnd(uint64_t /*last_time*/) {}
};

/// Whether `text` holds a NUL byte, which a sample's text may not (Add
/// refuses a sample whose comm, event or frame is read as text and holds
/// one).
inline bool HoldsNul(std::string_view text) {
  return text.find('\0') != std::string_view::npos;
}

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_RECORDED_SAMPLE_H_
