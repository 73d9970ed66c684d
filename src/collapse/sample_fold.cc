#include "collapse/sample_fold.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "base/diag.h"
#include "base/hash.h"
#include "collapse/folded.h"
#include "collapse/perl_chars.h"
#include "collapse/stack_writer.h"

namespace flamefold {

using namespace perl_chars;

namespace {

// Where the fields of a header line's sample begin: past its comm and
// pid/tid (MatchHeaderLine's views into it).
size_t HeaderEnd(std::string_view line, const HeaderFields& h) {
  std::string_view last = h.has_tid ? h.tid : h.pid;
  return static_cast<size_t>(last.data() - line.data()) + last.size();
}

// Adds `n` samples skipped of `event` to s->other_events.
void CountOtherEvent(std::string_view event, uint64_t n, PerfScriptStats* s) {
  auto it = s->other_events.find(event);
  if (it != s->other_events.end()) {
    it->second += n;
  } else if (s->other_events.size() < PerfScriptStats::kMaxOtherEvents) {
    s->other_events.emplace(std::string(event), n);
  }
}

}  // namespace

void MergeStats(PerfScriptStats* a, const PerfScriptStats& b) {
  for (const auto& [event, n] : b.other_events) CountOtherEvent(event, n, a);
  if (b.first_unrecognized_at < a->first_unrecognized_at) {
    a->first_unrecognized_at = b.first_unrecognized_at;
    a->first_unrecognized = b.first_unrecognized;
  }
  if (b.first_long_line_at < a->first_long_line_at) {
    a->first_long_line_at = b.first_long_line_at;
    a->first_long_line = b.first_long_line;
  }
  if (b.other_event_at < a->other_event_at) {
    a->other_event_at = b.other_event_at;
    a->other_event = b.other_event;
  }
  a->lines += b.lines;
  a->comment_lines += b.comment_lines;
  a->samples += b.samples;
  a->samples_other_event += b.samples_other_event;
  a->samples_unweighed += b.samples_unweighed;
  a->samples_by_period += b.samples_by_period;
  a->unrecognized_lines += b.unrecognized_lines;
  a->long_lines += b.long_lines;
  a->last_sample_dropped += b.last_sample_dropped;
  a->blank_with_spaces += b.blank_with_spaces;
  a->paren_frames += b.paren_frames;
  a->cut_names += b.cut_names;
  a->one_char_comm += b.one_char_comm;
  a->upper_hex_offsets += b.upper_hex_offsets;
  a->kernel_modules += b.kernel_modules;
  a->jitdump_frames += b.jitdump_frames;
  a->limits.Add(b.limits);
  a->timed_samples += b.timed_samples;
  a->samples_in_range += b.samples_in_range;
  a->first_time = std::min(a->first_time, b.first_time);
  a->last_time = std::max(a->last_time, b.last_time);
  a->off_cpu.Add(b.off_cpu);
}

SampleFold::SampleFold(const PerfScriptOptions& options,
                       StringInterner* names, SampleSink* sink)
    : options_(options), names_(names), sink_(sink),
      event_filter_(options.event_filter),
      frame_names_(options_, names, &stats_),
      off_cpu_(options_.off_cpu, &stats_.off_cpu) {
  if (options_.include_tid) options_.include_pid = true;
  header_style_.pid_tid = PidTidWanted(options_);
  header_style_.weight_field = options_.weight_field;
  read_times_ = options_.time_range.active();
}

void SampleFold::StartRecording(std::string_view file, uint64_t index) {
  recording_ = std::string(file);
  set_input_index(index);
  ClearError();
  frame_names_.ForgetFrames();
  if (origins_ != nullptr) origins_->StartRecording();
  events_.clear();
  events_given_ = false;
  ForgetSampleTimes();
}

void SampleFold::SetSampleTimes(uint64_t first, uint64_t last) {
  recorded_first_ = first;
  recorded_last_ = last;
  time_spans_known_ = false;
}

// A new input: its time spans are resolved again at its first sample.
void SampleFold::ForgetSampleTimes() {
  recorded_first_ = recorded_last_ = 0;
  time_spans_known_ = false;
}

// Whether a sample at `time` (the `lineno`-th line of `file`) is inside
// --time-range. A sample without a time sets error(), as does a range that
// cannot be resolved for this input.
bool SampleFold::InTimeRange(uint64_t time, std::string_view file,
                             uint64_t lineno) {
  const TimeRangeSpec& range = options_.time_range;
  if (time == UINT64_MAX) {
    error_ = Place(file, lineno) + "--time-range '" + range.text +
             "': the samples have no time (perf script -F without time?)";
    return false;
  }
  if (!time_spans_known_) {
    std::string why;
    const uint64_t first = recorded_first_ != 0 ? recorded_first_ : time;
    if (!ResolveTimeRange(range, first, recorded_last_, &time_spans_, &why)) {
      error_ = Place(file, lineno) + "--time-range '" + range.text + "': " +
               why + "; this input has none (perf script text, or perf "
               "record in pipe mode or with -z?)";
      return false;
    }
    time_spans_known_ = true;
  }
  stats_.timed_samples++;
  stats_.first_time = std::min(stats_.first_time, time);
  stats_.last_time = std::max(stats_.last_time, time);
  if (!TimeKept(time_spans_, time)) return false;
  stats_.samples_in_range++;
  return true;
}

// The headers pad event names to the longest of the events known as the
// recording starts, as perf script does.
void SampleFold::SetEvents(std::span<const RecordedEvent> events) {
  events_.clear();
  for (const RecordedEvent& e : events) {
    bool shown = e.time && !e.name.empty() && !e.tracepoint;
    events_.push_back({e, shown});
    if (!events_given_) {
      header_style_.name_width =
          std::max(header_style_.name_width, e.name.size());
    }
  }
  events_given_ = true;
}

bool SampleFold::Add(const RecordedSample& s, std::string* err) {
  sample_ = &s;
  if (options_.off_cpu.enabled) {
    if (s.time == UINT64_MAX) {
      *err = Place(recording_, s.ordinal) +
             "--off-cpu: the samples have no time (perf record without -T?)";
      sample_ = nullptr;
      return false;
    }
    OffCpuHeader(s.tid, s.time, s.sched);
    // A dying thread's last switch-out says tid -1 (its comm unknown):
    // never a wait, and a line the Perl script does not recognise.
    if (s.tid < 0) {
      switch_out_.reset();
      sample_ = nullptr;
      return true;
    }
  }
  if (options_.time_range.active() &&
      !InTimeRange(s.time, recording_, s.ordinal)) {
    sample_ = nullptr;  // as if perf script had not printed it
    switch_out_.reset();
    if (error_.empty()) return true;
    *err = error_;
    return false;
  }
  const Event& e = events_[s.event];
  if (ByFields(s)) {
    AddHeader(s, e);
  } else {
    sample_line_.clear();
    AppendSampleHeader(e.fields, s, header_style_, &sample_line_);
    if (!s.chain) {  // its one frame ends the header line
      sample_line_ += ' ';
      AppendFrameText(*s.frames[0], &sample_line_);
    }
    ReadSampleLine(sample_line_);
  }
  if (s.chain) {
    for (const RecordedFrame* f : s.frames) AddFrame(*f);
    stats_.lines++;  // the blank line that ends the sample
    EndSample();
  }
  sample_ = nullptr;
  if (error_.empty()) return true;
  *err = error_;
  return false;
}

// Whether the header of `s` goes by its fields: the line perf script prints
// for it, "<comm> <tid> [...]" (or "<comm> <pid>/<tid>") up to
// "<period> <event>: ", reads back as them (PlainHeader).
bool SampleFold::ByFields(const RecordedSample& s) const {
  const RecordedEvent& e = events_[s.event].fields;
  if (!s.chain || !e.tid || s.tid < 0) return false;
  if (header_style_.pid_tid && s.pid < 0) return false;  // not digits
  return PlainHeader(s.comm, e.name);
}

// The header line of `s` by its fields; the pid and tid are read only with
// --pid.
void SampleFold::AddHeader(const RecordedSample& s, const Event& e) {
  stats_.lines++;
  char pid[16], tid[16];
  auto decimal = [](int32_t v, char* buf) {
    auto r = std::to_chars(buf, buf + 16, static_cast<uint32_t>(v));
    return std::string_view(buf, static_cast<size_t>(r.ptr - buf));
  };
  HeaderFields h;
  h.comm = s.comm;
  if (options_.include_pid && header_style_.pid_tid) {  // "%5d/%-5d "
    h.pid = decimal(s.pid, pid);
    h.tid = decimal(s.tid, tid);
    h.has_tid = true;
  } else if (options_.include_pid) {  // "%5d "
    h.pid = decimal(s.tid, tid);
  }
  // ": %10" PRIu64 " %s: " after the time; nothing read as an event
  // without the time, or after a tracepoint's fields.
  EventFields ev{{}, e.fields.name, true, s.period};
  header_weight_ = s.weight;
  if (OnHeader(h, e.shown ? &ev : nullptr, Position(s.ordinal)) &&
      timed_sink_) {
    KeepTimed(s.time, s.pid, s.tid, s.comm);
  }
}

// A frame of the sample: its stack line by the frame's id, or read as text
// where it is not a frame's (FrameNames::Of) or holds a NUL byte.
void SampleFold::AddFrame(const RecordedFrame& f) {
  uint32_t id = frame_names_.Of(f, pname_java_);
  if (id == FrameNames::kUnmatched ||
      frame_names_.result(id).kind == FrameNames::kBinary) {
    sample_line_.assign(1, '\t');
    AppendFrameText(f, &sample_line_);
    ReadSampleLine(sample_line_);
    return;
  }
  stats_.lines++;
  leaf_pending_ = false;
  if (!has_pname_) return;  // a sample of another event
  const FrameNames::Result& res = frame_names_.result(id);
  PushLine(res);
  if (origins_ != nullptr && res.kind == FrameNames::kFrame) {
    for (uint32_t i = 0; i < res.count; ++i) {
      origins_->Note(frame_names_.piece(res.first + i), f);
    }
  }
}

void SampleFold::ReadSampleLine(std::string_view line) {
  ReadLine(line, sample_->ordinal, nullptr, recording_);
}

// "FILE:LINE: " for a line of text; "FILE: sample N at SECONDS: " (perf
// script's time) or "FILE: sample N at offset X: " for a recorded sample.
std::string SampleFold::Place(std::string_view file, uint64_t lineno) const {
  if (!sample_) return Where(file, lineno);
  std::string out = std::string(file) + ": sample " +
                    std::to_string(sample_->ordinal);
  if (sample_->time == UINT64_MAX) {
    return out + " at offset " + std::to_string(sample_->offset) + ": ";
  }
  std::string usec = std::to_string(sample_->time % 1000000000 / 1000);
  return out + " at " + std::to_string(sample_->time / 1000000000) + "." +
         std::string(6 - usec.size(), '0') + usec + ": ";
}

void SampleFold::ReadLine(std::string_view line, uint64_t lineno,
                          LineReader* reader, std::string_view file) {
  stats_.lines++;
  if (!line.empty() && line[0] == '#') {  // --header output, comments
    stats_.comment_lines++;
    return;
  }
  if (line.empty()) {
    EndSample();
    return;
  }
  if (!IsSpace(line[0])) {
    if (HasNul(line, lineno, file)) return;
    if (options_.off_cpu.enabled && !sample_ &&
        OffCpuLine(line, lineno, file)) {
      return;
    }
    HeaderFields h;
    if (MatchHeaderLine(line, options_.modern, &h)) {
      if (!options_.modern && IsSpace(line[1])) {
        stats_.one_char_comm++;
      }
      ReadHeaderLine(line, h, lineno, file);
      return;
    }
  } else if (AllSpace(line)) {
    stats_.blank_with_spaces++;
    if (options_.modern) {
      EndSample();
      return;
    }
  }
  ProcessStackLine(line, lineno, file, reader);
}

// A header line whose fields are `h`: a sample begins, unless it is outside
// --time-range (then it is as if perf script had not printed it) or of
// another event.
void SampleFold::ReadHeaderLine(std::string_view line, const HeaderFields& h,
                                uint64_t lineno, std::string_view file) {
  uint64_t time = UINT64_MAX;
  if (read_times_) {
    const std::string_view last = h.has_tid ? h.tid : h.pid;
    time = sample_ ? sample_->time
                   : HeaderTime(line, last.data() + last.size() - line.data());
    // A recording's sample was checked by Add.
    if (!sample_ && options_.time_range.active() &&
        !InTimeRange(time, file, lineno)) {
      has_pname_ = false;
      switch_out_.reset();
      return;
    }
  }
  EventFields ev;
  if (!options_.weight_field.empty()) {
    header_weight_ = MatchTraceField(line.substr(HeaderEnd(line, h)),
                                     options_.weight_field);
  }
  if (!OnHeader(h, MatchEvent(line, &ev) ? &ev : nullptr, Position(lineno)) ||
      !timed_sink_) {
    return;
  }
  if (sample_) {
    KeepTimed(time, sample_->pid, sample_->tid, sample_->comm);
  } else if (h.has_tid) {
    KeepTimed(time, HeaderNumber(h.pid), HeaderNumber(h.tid), h.comm);
  } else {  // "comm TID"
    KeepTimed(time, -1, HeaderNumber(h.pid), h.comm);
  }
}

// A stack line, or a line the Perl script does not recognise.
void SampleFold::ProcessStackLine(std::string_view line, uint64_t lineno,
                                  std::string_view file,
                                  LineReader* reader) {
  const FrameNames::Result* res;
  FrameNames::Result slow;
  FrameFields f;
  if (!MatchFrameLine(line, &f)) {
    if (HasNul(line, lineno, file)) return;
    slow.kind = FrameNames::kUnrecognized;
    res = &slow;
  } else if (options_.srcline || options_.inliner) {
    // Each frame consumes the source line after it, or its result depends
    // on its address: no caching.
    if (has_pname_) slow = frame_names_.Process(f, pname_java_, reader);
    res = &slow;
  } else {
    res = &frame_names_.result(frame_names_.Lookup(f, pname_java_));
  }
  leaf_pending_ = false;
  if (res->kind == FrameNames::kBinary) {
    HasNul(line, lineno, file);
    return;
  }
  if (res->kind == FrameNames::kUnrecognized) {
    if (stats_.unrecognized_lines++ == 0) {
      stats_.first_unrecognized_at = Position(lineno);
      stats_.first_unrecognized = Place(file, lineno) + Printable(line);
    }
    return;
  }
  if (!has_pname_) return;  // a sample of another event
  PushLine(*res);
}

// A stack deeper than the depth limit keeps its frames nearest the root,
// which perf script prints last: whenever the frames read reach twice the
// limit, those past it on the leaf side go, so memory stays bounded (and
// the cost amortised) however long the sample is.
void SampleFold::TrimDeepStack() {
  size_t drop = stack_rev_.size() - options_.limits.max_depth;
  stack_rev_.erase(stack_rev_.begin(), stack_rev_.begin() + drop);
  trimmed_ += drop;
}

bool SampleFold::HasNul(std::string_view line, uint64_t lineno,
                        std::string_view file) {
  const void* nul = std::memchr(line.data(), 0, line.size());
  if (nul == nullptr) return false;
  error_ = Place(file, lineno) + "NUL byte at column " +
           std::to_string(static_cast<const char*>(nul) - line.data() + 1) +
           ": binary data, not perf script text";
  return true;
}

bool SampleFold::PlainHeader(std::string_view comm,
                             std::string_view event) const {
  if (comm.size() < (options_.modern ? 1u : 2u) || comm[0] == '#') {
    return false;  // too short to match, or a comment line
  }
  for (char c : comm) {
    if (IsSpace(c)) return false;
  }
  for (char c : event) {
    if (IsSpace(c)) return false;
  }
  return true;
}

bool SampleFold::OnHeader(const HeaderFields& h, const EventFields* ev,
                          uint64_t at) {
  std::string_view pid = h.pid, tid = h.tid;
  if (!h.has_tid || tid == "0") {  // Perl: if (not $tid)
    tid = h.pid;
    pid = "?";
  }
  std::string_view period;
  if (ev) {
    period = ev->period;
    if (event_filter_.empty()) {
      // By default only the first event seen is kept, as the Perl script
      // does: the samples of two events count unlike things and would not
      // add up to one profile.
      event_filter_ = std::string(ev->event);
    } else if (ev->event != event_filter_) {
      if (stats_.samples_other_event++ == 0) {
        stats_.other_event_at = at;
        stats_.other_event = std::string(ev->event);
      }
      CountOtherEvent(ev->event, 1, &stats_);
      return false;  // Perl's `next`: $pname keeps its previous value
    }
  }
  if (ev && ev->has_value) {  // the digits' value, as below
    period_ = PerlNumber::FromUint(ev->value == 0 ? 1 : ev->value);
    if (ev->value != 0) stats_.samples_by_period++;
  } else if (period.empty() || period == "0") {
    period_ = PerlNumber::FromUint(1);
  } else {
    period_ = PerlNumber::Parse(period);
    stats_.samples_by_period++;
  }
  if (!options_.weight_field.empty()) Weigh();
  CommSlot* slot = nullptr;
  if (!options_.include_pid) {
    // The process name is the comm alone: what it gives is kept per comm.
    slot = &comm_cache_[HashBytes(h.comm) % comm_cache_.size()];
    if (slot->valid && slot->comm == h.comm) {
      has_pname_ = slot->has_pname;
      pname_java_ = slot->java;
      pname_index_ = slot->index;
      leaf_pending_ = true;
      return true;
    }
  }
  std::string& pname = pname_scratch_;
  pname.assign(h.comm);
  if (options_.include_pid) {
    pname += '-';
    pname += pid;
    if (options_.include_tid) {
      pname += '/';
      pname += tid;
    }
  }
  std::replace(pname.begin(), pname.end(), ' ', '_');
  SetPname(pname);
  if (slot != nullptr) {
    slot->valid = true;
    slot->comm.assign(h.comm);
    slot->has_pname = has_pname_;
    slot->java = pname_java_;
    slot->index = pname_index_;
  }
  return true;
}

void SampleFold::SetPname(std::string_view pname) {
  has_pname_ = !(pname.empty() || pname == "0");
  leaf_pending_ = true;
  pname_java_ = StartsWith(pname, "java");
  SymbolId key = pname_keys_.Intern(pname);
  if (key == pname_results_.size()) {
    // A comm may hold ';', which separates frames in the folded line: store
    // such a name as the frames it will read as.
    FrameNames::Result res;
    res.first = static_cast<uint32_t>(pname_pieces_.size());
    StackLimits name_limit = options_.limits;
    name_limit.max_depth = SIZE_MAX;  // AssembleFrames applies the depth
    LimitStats cut;
    InternFrames(LimitFoldedStack(pname, name_limit, &cut, &scratch_), names_,
                 &pname_pieces_);
    if (cut.long_frames > 0) {
      // counted for each sample, as frames are
      res.quirks |= FrameNames::kLongName;
      stats_.limits.longest = std::max(stats_.limits.longest, cut.longest);
    }
    res.count = static_cast<uint32_t>(pname_pieces_.size() - res.first);
    pname_results_.push_back(res);
  }
  pname_index_ = key;
}

// --weight: the sample counts its field's value, 0 without one (counted).
void SampleFold::Weigh() {
  if (!header_weight_) stats_.samples_unweighed++;
  weightless_ = header_weight_.value_or(0) == 0;
  period_ = PerlNumber::FromUint(header_weight_.value_or(0));
  header_weight_.reset();
}

void SampleFold::EndSample() {
  if (!has_pname_) return;  // no sample, or one of another event
  if (options_.off_cpu.enabled) {
    EndOffCpuSample();
    return;
  }
  if (weightless_) {  // --weight: adds nothing to its stack
    stack_rev_.clear();
    trimmed_ = 0;
    has_pname_ = weightless_ = false;
    return;
  }
  AssembleFrames();
  sink_->OnSample(frames_, period_);
  if (timed_sink_) {
    timed_.frames = frames_;
    timed_.weight = period_;
    timed_sink_->OnTimedSample(timed_);
  }
  stats_.samples++;
  stack_rev_.clear();
  has_pname_ = false;
}

// The facts of the sample that begins, for the timed sink.
void SampleFold::KeepTimed(uint64_t time, int32_t pid, int32_t tid,
                           std::string_view comm) {
  timed_.time_ns = time;
  timed_.pid = pid;
  timed_.tid = tid;
  timed_comm_.assign(comm);
  timed_.comm = timed_comm_;
}

void SampleFold::AssembleFrames() {
  const FrameNames::Result& p = pname_results_[pname_index_];
  if (p.quirks & FrameNames::kLongName) stats_.limits.long_frames++;
  frames_.assign(pname_pieces_.begin() + p.first,
                 pname_pieces_.begin() + p.first + p.count);
  frames_.insert(frames_.end(), stack_rev_.rbegin(), stack_rev_.rend());
  uint64_t depth = frames_.size() + trimmed_;
  if (depth > options_.limits.max_depth) {
    stats_.limits.deep_samples++;
    stats_.limits.deepest = std::max(stats_.limits.deepest, depth);
    frames_.resize(options_.limits.max_depth);  // the root side stays
  }
  trimmed_ = 0;
}

void SampleFold::Finish() {
  if (!has_pname_) return;
  stats_.last_sample_dropped++;
  if (options_.modern) {
    EndSample();
  } else {
    stack_rev_.clear();
    trimmed_ = 0;
    has_pname_ = false;
  }
}

// --off-cpu: a sample of thread `tid` at `time` shows that it ran; a
// sched_switch sample (`sched`) also switches its prev_pid out and its
// next_pid in, and the switch-out begins a wait (Opens) whose stack is the
// sample's, read next.
void SampleFold::OffCpuHeader(int32_t tid, uint64_t time,
                              const std::optional<SchedSwitch>& sched) {
  off_cpu_.Saw(time);
  switch_out_.reset();
  other_sample_ = !sched;
  if (sched) off_cpu_.SwitchesOut(sched->prev_pid, time);
  off_cpu_.Ran(tid, time, false);
  if (!sched) return;
  sched_samples_++;
  off_cpu_.Ran(sched->next_pid, time, true);
  if (off_cpu_.Opens(*sched)) {
    switch_out_ = sched;
    switch_out_time_ = time;
  }
}

// --off-cpu on text: a line that does not start with white space, the
// `lineno`-th of `file`. Its time and thread, and a sched_switch sample's
// fields, go to OffCpuHeader; true when the line is taken here and is no
// sample's header:
//   offcpu 24013/24013 [000] 24434.724544763: PERF_RECORD_SWITCH IN
//   offcpu 24013/24013 [000] 24434.704011305: PERF_RECORD_COMM exec: ...
//   :-1 24025/-1    [000] 24437.595966939: sched:sched_switch: prev_comm=...
// (side-band records, and a dying thread's last switch-out, whose tid -1
// the Perl script does not read as a header).
bool SampleFold::OffCpuLine(std::string_view line, uint64_t lineno,
                            std::string_view file) {
  HeaderFields h;
  const bool header = MatchHeaderLine(line, options_.modern, &h);
  size_t after = 0;
  const uint64_t time =
      HeaderTime(line, header ? HeaderEnd(line, h) : 0, &after);
  if (time == UINT64_MAX) {
    if (!header) return false;  // not a header: read as the Perl script does
    error_ = Place(file, lineno) +
             "--off-cpu: the samples have no time (perf script -F without "
             "time?)";
    return true;
  }
  const std::string_view rest = line.substr(after);
  const int32_t tid = !header ? -1
                      : h.has_tid ? HeaderNumber(h.tid)
                                  : HeaderNumber(h.pid);
  size_t word = rest.find_first_not_of(" \t");
  if (word != std::string_view::npos &&
      rest.substr(word).starts_with("PERF_RECORD_")) {
    off_cpu_.Saw(time);
    std::string_view record = rest.substr(word);
    if (record.starts_with("PERF_RECORD_SWITCH IN") ||
        record.starts_with("PERF_RECORD_SWITCH_CPU_WIDE IN")) {
      off_cpu_.Ran(tid, time, true);
    }
    return true;
  }
  SchedSwitch sched;
  switch (MatchSchedSwitch(rest, &sched)) {
    case SchedMatch::kNoFields:
      error_ = Place(file, lineno) +
               "--off-cpu: a sched_switch sample without the field prev_pid, "
               "next_pid or prev_state (perf script -F without trace?)";
      return true;
    case SchedMatch::kSwitch:
      OffCpuHeader(tid, time, sched);
      break;
    case SchedMatch::kOther:
      OffCpuHeader(tid, time, std::nullopt);
      break;
  }
  if (header && tid >= 0) return false;  // ReadHeaderLine goes on
  switch_out_.reset();
  return true;
}

// --off-cpu: the sample read is a switch-out whose wait opens on its
// stack, or a sample of another kind, which is no wait.
void SampleFold::EndOffCpuSample() {
  if (switch_out_) {
    AssembleFrames();
    if (options_.off_cpu.on_off) MarkOffCpu();
    off_cpu_.Open(switch_out_->prev_pid, switch_out_time_, frames_);
    switch_out_.reset();
  } else if (other_sample_ && options_.off_cpu.on_off) {
    AddOnCpuSample();
  } else {
    if (other_sample_) stats_.off_cpu.other_samples++;
    trimmed_ = 0;
  }
  stack_rev_.clear();
  has_pname_ = false;
}

// --on-off: a CPU sample counts its period, in ns for the clock events
// alone (another event's period counts events, not time: an error).
void SampleFold::AddOnCpuSample() {
  if (!ClockEvent(event_filter_)) {
    error_ = (recording_.empty() ? std::string() : recording_ + ": ") +
             "--on-off: the CPU samples are of " +
             (event_filter_.empty() ? std::string("no event named")
                                    : "'" + event_filter_ + "'") +
             ", whose periods are no time: record them with -e cpu-clock "
             "or -e task-clock";
    trimmed_ = 0;
    return;
  }
  AssembleFrames();
  const uint64_t ns = period_.is_integer()
                          ? period_.uint_value()
                          : static_cast<uint64_t>(period_.AsDouble());
  off_cpu_.AddOnCpu(frames_, ns);
}

// --on-off: every frame of a wait's stack, the process frame included,
// named with "_[o]" after it, so that no off-CPU frame merges with an
// on-CPU one.
void SampleFold::MarkOffCpu() {
  for (SymbolId& id : frames_) {
    auto [it, added] = off_cpu_names_.try_emplace(id, 0);
    if (added) {
      std::string marked(names_->Get(id));
      marked += "_[o]";
      it->second = names_->Intern(marked);
    }
    id = it->second;
  }
}

void SampleFold::SwitchIn(int32_t tid, uint64_t time) {
  off_cpu_.Saw(time);
  off_cpu_.Ran(tid, time, true);
}

void SampleFold::RecordEnd(uint64_t last_time) { off_cpu_.Saw(last_time); }

bool SampleFold::EndInput(std::string_view file, std::string* err) {
  if (!options_.off_cpu.enabled) return true;
  // Text whose last sample has no blank line after it: the sample is
  // whole (the Perl script drops it, but its wait is one).
  if (has_pname_ && switch_out_) EndSample();
  const uint64_t switches = std::exchange(sched_samples_, 0);
  off_cpu_.Finish(sink_);
  if (switches > 0) return true;
  *err = std::string(file) +
         ": --off-cpu: no sched:sched_switch samples (perf record -e "
         "sched:sched_switch -g)";
  return false;
}

}  // namespace flamefold
