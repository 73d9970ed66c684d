#include "perfdata/sample_handover.h"

#include <thread>
#include <utility>

namespace flamefold {
namespace {

constexpr size_t kEmitBytes = 256u << 10;
// The samples in a batch for the fold thread: enough that handing one
// over costs little, few enough that the thread starts soon.
constexpr size_t kFoldBatch = 256;

}  // namespace

SampleHandover::SampleHandover(const PerfDataInfo& info,
                               const FrameResolver& frames,
                               RecordedSampleSink* sink, const ChunkSink& emit,
                               bool fold_thread)
    : info_(info), frames_(frames), emit_(emit), recorded_(sink),
      fold_thread_allowed_(sink && fold_thread &&
                           std::thread::hardware_concurrency() > 1) {}

void SampleHandover::SyncEvents() {
  if (events_given_ != info_.attrs_changes) {
    recorded_.SetEvents(info_.attrs);
    events_given_ = info_.attrs_changes;
  }
}

bool SampleHandover::BeforeSample(std::string* err) {
  if (fold_thread_ && events_given_ != info_.attrs_changes) {
    SendHeld();
    if (!fold_thread_->Drain(err)) return false;
    SyncEvents();
  }
  return true;
}

bool SampleHandover::AfterSample(bool nul, std::string* err) {
  if (fold_thread_) return PassOn(nul, err);
  return LetGo(err);
}

bool SampleHandover::HoldSwitchIn(int32_t tid, uint64_t time,
                                  std::string* err) {
  if (!BeforeSample(err)) return false;
  HeaderValues v{};
  v.tid = tid;
  v.time = time;
  v.switch_in = true;
  held_.Begin(false, &v);
  return AfterSample(false, err);
}

bool SampleHandover::Finish(std::string* err) {
  if (!fold_thread_ && !LetGo(err)) return false;  // may start the thread
  if (fold_thread_) return StopFoldThread(err);
  return EmitPending(err);
}

// The samples held go to the thread before it stops, at the end or after
// a read error, as each sample delivered goes at once without it.
bool SampleHandover::StopFoldThread(std::string* err) {
  if (!fold_thread_) return true;
  SendHeld();
  bool ok = fold_thread_->Drain(err);
  fold_thread_.reset();
  return ok;
}

// Lets go of the held sample: it goes to the fold (or becomes its text),
// or, where the fold thread may be used, the thread takes it and the
// samples after it (PassOn).
bool SampleHandover::LetGo(std::string* err) {
  if (fold_thread_) return true;  // sent in batches
  if (fold_thread_allowed_) {
    SyncEvents();
    fold_thread_ = std::make_unique<FoldThread>(&recorded_);
    return SendHeldInBatches(err);
  }
  for (size_t i = 0; i < held_.size(); ++i) {
    if (!PutSample(i, err)) {
      held_.Clear();
      return false;
    }
  }
  held_.Clear();
  return true;
}

// The held samples to the fold thread as it starts, a batch at a time.
// One the fold may refuse is waited for (see PassOn).
bool SampleHandover::SendHeldInBatches(std::string* err) {
  std::unique_ptr<HeldSamples> batch = fold_thread_->Empty();
  bool ok = true;
  for (size_t i = 0; ok && i < held_.size(); ++i) {
    HeldSample s = held_.at(i);
    batch->Append(s);
    bool refuse = MayRefuse(s);
    if (refuse || batch->size() >= kFoldBatch) {
      fold_thread_->Send(std::move(batch));
      batch = fold_thread_->Empty();
    }
    if (refuse) ok = fold_thread_->Drain(err);
  }
  if (!batch->empty()) fold_thread_->Send(std::move(batch));
  held_.Clear();
  return ok;
}

// With the fold thread: the sample just held, its frames all named,
// joins the batch, which goes when full. A sample the fold may refuse
// goes at once and the replay waits for it: it stops where it would
// without the thread, no frame after that sample named.
bool SampleHandover::PassOn(bool nul, std::string* err) {
  if (nul) {
    SendHeld();
    return fold_thread_->Drain(err);
  }
  if (held_.size() >= kFoldBatch) SendHeld();
  return true;
}

// The held samples to the fold thread.
void SampleHandover::SendHeld() {
  if (held_.empty()) return;
  std::unique_ptr<HeldSamples> batch = fold_thread_->Empty();
  std::swap(*batch, held_);
  fold_thread_->Send(std::move(batch));
}

// Whether the fold may refuse `s`, whose frames are named: it refuses a
// NUL byte in what it reads as text, which a comm, an event's or a
// symbol's name may hold (RecordedSampleSink::Add).
bool SampleHandover::MayRefuse(const HeldSample& s) const {
  if (HoldsNul(s.header)) return true;
  if (s.values && HoldsNul(info_.attrs[s.values->attr].name)) return true;
  for (size_t j = 0; frames_.any_nul() && j < s.frame_count; ++j) {
    const HeldFrame& f = s.frames[j];
    if (f.kind == HeldFrame::Kind::kNamed ? f.named->nul : f.unwound->nul) {
      return true;
    }
  }
  return false;
}

// The held sample `i` to the fold, or as its text.
bool SampleHandover::PutSample(size_t i, std::string* err) {
  HeldSample s = held_.at(i);
  SyncEvents();
  if (!recorded_.Put(s, err)) return false;
  if (recorded_.text()->size() >= kEmitBytes) return EmitPending(err);
  return true;
}

bool SampleHandover::EmitPending(std::string* err) {
  std::string* text = recorded_.text();
  if (text->empty()) return true;
  if (!emit_(text)) {
    if (err->empty()) *err = "output stopped";
    return false;
  }
  text->clear();
  return true;
}

}  // namespace flamefold
