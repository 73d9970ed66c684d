#include "perfdata/recorded_samples.h"

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;

RecordedSamples::RecordedSamples(RecordedSampleSink* sink) : sink_(sink) {}

void RecordedSamples::SetEvents(const std::vector<PerfAttr>& attrs) {
  events_.clear();
  for (const PerfAttr& a : attrs) events_.push_back(EventOf(a));
  if (sink_) sink_->SetEvents(events_);
}

RecordedEvent RecordedSamples::EventOf(const PerfAttr& a) {
  uint64_t st = a.sample_type;
  return {a.name, (st & abi::kSampleTid) != 0, (st & abi::kSampleCpu) != 0,
          (st & abi::kSampleTime) != 0, a.type == abi::kTypeTracepoint};
}

bool RecordedSamples::Put(const HeldSample& s, std::string* err) {
  if (s.values && s.values->switch_in) {
    if (sink_) sink_->SwitchIn(s.values->tid, s.values->time);
    return true;
  }
  CountFrames(s);
  if (!sink_) {
    PutText(s);
    return true;
  }
  return sink_->Add(Recorded(s, &frames_), err);
}

RecordedSample RecordedSamples::Recorded(
    const HeldSample& s, std::vector<const RecordedFrame*>* frames) {
  frames->clear();
  for (size_t i = 0; i < s.frame_count; ++i) {
    const HeldFrame& f = s.frames[i];
    if (f.kind == HeldFrame::Kind::kNamed) {
      frames->push_back(&f.named->frame);
    } else {
      for (const RecordedFrame& r : f.unwound->records) frames->push_back(&r);
    }
  }
  RecordedSample r = HeaderOf(*s.values, s.header, s.chain);
  r.frames = *frames;
  return r;
}

RecordedSample RecordedSamples::HeaderOf(const HeaderValues& v,
                                     std::string_view comm, bool chain) {
  RecordedSample r;
  r.ordinal = v.ordinal;
  r.offset = v.offset;
  r.time = v.time;
  r.pid = v.pid;
  r.tid = v.tid;
  r.cpu = v.cpu;
  r.event = v.attr;
  r.period = v.period;
  r.weight = v.weight;
  r.sched = v.sched;
  r.comm = comm;
  r.chain = chain;
  return r;
}

// The lines of `s`: its header line, then its frames' lines and a blank
// line, or, without a call chain, its one frame at the end of the header.
void RecordedSamples::PutText(const HeldSample& s) {
  out_ += s.header;
  if (!s.chain) {
    out_ += ' ';
    out_ += s.frames[0].named->made_text;
    out_ += '\n';
    return;
  }
  out_ += '\n';
  for (size_t i = 0; i < s.frame_count; ++i) {
    const HeldFrame& f = s.frames[i];
    if (f.kind == HeldFrame::Kind::kNamed) {
      out_ += '\t';
      out_ += f.named->made_text;
      out_ += '\n';
    } else {
      out_ += f.unwound->text;
    }
  }
  out_ += '\n';
}

void RecordedSamples::CountFrames(const HeldSample& s) {
  for (size_t i = 0; i < s.frame_count; ++i) {
    const HeldFrame& f = s.frames[i];
    if (f.kind == HeldFrame::Kind::kNamed) {
      CountFrame(f.named->no_symbol);
    } else {
      CountFrame(f.unwound->no_symbol, f.unwound->frames);
    }
  }
}

// Counts `frames` frames shown, and them in `*no_symbol` (FrameText's)
// when they have no symbol.
void RecordedSamples::CountFrame(uint64_t* no_symbol, uint64_t frames) {
  frame_count_ += frames;
  if (no_symbol) ++*no_symbol;
}

}  // namespace flamefold
