#include "collapse/off_cpu_waits.h"

#include <algorithm>
#include <string>

#include "base/perl_number.h"

namespace flamefold {

void OffCpuStats::Add(const OffCpuStats& b) {
  switch_outs += b.switch_outs;
  waits += b.waits;
  cut += b.cut;
  cut_ns += b.cut_ns;
  idle += b.idle;
  dying += b.dying;
  other_state += b.other_state;
  short_waits += b.short_waits;
  unopened_switch_ins += b.unopened_switch_ins;
  unseen_switch_ins += b.unseen_switch_ins;
  other_samples += b.other_samples;
  on_cpu_samples += b.on_cpu_samples;
}

namespace {

// --off-cpu-unit's units: in ns, as the option spells them, in words.
struct Unit {
  uint64_t ns;
  const char* abbrev;
  const char* name;
};
constexpr Unit kUnits[] = {{1, "ns", "nanoseconds"},
                           {1000, "us", "microseconds"},
                           {1000000, "ms", "milliseconds"}};

// The unit of `options`, microseconds unless it is another of kUnits.
const Unit& UnitOf(const OffCpuOptions& options) {
  for (const Unit& u : kUnits) {
    if (u.ns == options.unit_ns) return u;
  }
  return kUnits[1];
}

}  // namespace

uint64_t OffCpuUnitNs(std::string_view unit) {
  for (const Unit& u : kUnits) {
    if (unit == u.abbrev) return u.ns;
  }
  return 0;
}

std::string OffCpuUnitAbbrev(const OffCpuOptions& options) {
  return options.enabled ? UnitOf(options).abbrev : "";
}

std::string OffCpuUnitName(const OffCpuOptions& options) {
  return options.enabled ? UnitOf(options).name : "";
}

OffCpuWaits::OffCpuWaits(const OffCpuOptions& options, OffCpuStats* stats)
    : options_(options), stats_(stats) {}

void OffCpuWaits::Ran(int32_t tid, uint64_t time, bool switch_in) {
  if (!Close(tid, time) && switch_in) stats_->unopened_switch_ins++;
}

void OffCpuWaits::SwitchesOut(int32_t tid, uint64_t time) {
  if (Close(tid, time)) stats_->unseen_switch_ins++;
}

// Closes the wait of `tid` at `at`; false when none was open. A wait of no
// time, or shorter than --off-cpu-min-us, adds nothing.
bool OffCpuWaits::Close(int32_t tid, uint64_t at) {
  auto it = open_.find(tid);
  if (it == open_.end()) return false;
  OpenWait& w = it->second;
  if (at > w.start) {
    if (at - w.start < options_.min_ns) {
      stats_->short_waits++;
    } else {
      ns_[std::move(w.frames)] += at - w.start;
      stats_->waits++;
    }
  }
  open_.erase(it);
  return true;
}

bool OffCpuWaits::Opens(const SchedSwitch& s) {
  stats_->switch_outs++;
  std::string_view state = s.state_text();
  if (s.prev_pid == 0) {
    stats_->idle++;
    return false;
  }
  if (!state.empty() && (state[0] == 'X' || state[0] == 'Z')) {
    stats_->dying++;
    return false;
  }
  if (!options_.states.empty()) {
    if (state.ends_with('+')) state.remove_suffix(1);
    if (std::find(options_.states.begin(), options_.states.end(), state) ==
        options_.states.end()) {
      stats_->other_state++;
      return false;
    }
  }
  return true;
}

void OffCpuWaits::Open(int32_t tid, uint64_t time,
                       std::span<const SymbolId> frames) {
  OpenWait& w = open_[tid];
  w.start = time;
  w.frames.assign(frames.begin(), frames.end());
}

void OffCpuWaits::AddOnCpu(std::span<const SymbolId> frames, uint64_t ns) {
  stats_->on_cpu_samples++;
  key_.assign(frames.begin(), frames.end());
  ns_[key_] += ns;
}

void OffCpuWaits::Finish(SampleSink* sink) {
  while (!open_.empty()) {
    const auto& [tid, w] = *open_.begin();
    const uint64_t start = w.start;
    const uint64_t before = stats_->waits;
    Close(tid, end_);
    if (stats_->waits > before) {
      stats_->cut++;
      stats_->cut_ns += end_ - start;
    }
  }
  const uint64_t unit = options_.unit_ns;
  for (const auto& [frames, ns] : ns_) {
    const uint64_t value = (ns + unit / 2) / unit;
    if (value > 0) sink->OnSample(frames, PerlNumber::FromUint(value));
  }
  ns_.clear();
  open_.clear();
  end_ = 0;
}

}  // namespace flamefold
