#include "report/speedscope.h"

#include <algorithm>
#include <map>
#include <vector>

#include "base/json.h"
#include "report/stack_frames.h"
#include "flamefold_config.h"

namespace flamefold {

namespace {

constexpr std::string_view kSchema =
    "https://www.speedscope.app/file-format-schema.json";

// A sample as a thread's profile keeps it: its time, its stack (an index
// into the distinct lines folded) and its weight.
struct ThreadSample {
  uint64_t time;
  SymbolId line;
  PerlNumber weight;
};

// The samples of one thread, in the order folded.
struct ThreadProfile {
  std::string name;  // "comm-tid"
  uint64_t first_time = 0;
  int32_t tid = 0;
  std::vector<ThreadSample> samples;
};

class SpeedscopeWriter : public StackWriter, public TimedSampleSink {
 public:
  SpeedscopeWriter(OutputSink* out, std::string name)
      : out_(out), name_(std::move(name)) {}

  TimedSampleSink* timed_sink(const StringInterner* names) override {
    names_ = names;
    return this;
  }

  // Kept per thread while the samples have times; a sample without one
  // makes the profile one of the distinct stacks (Add).
  void OnTimedSample(const TimedSample& s) override {
    timed_samples_++;
    if (s.time_ns == UINT64_MAX || untimed_) {
      untimed_ = true;
      return;
    }
    line_.clear();
    for (SymbolId id : s.frames) {
      if (!line_.empty()) line_ += ';';
      line_ += names_->Get(id);
    }
    auto [it, added] = threads_.try_emplace(s.tid < 0 ? s.pid : s.tid);
    ThreadProfile& t = it->second;
    if (added) {
      t.name = std::string(s.comm) + '-' + std::to_string(it->first);
      t.first_time = s.time_ns;
      t.tid = it->first;
    }
    t.samples.push_back({s.time_ns, lines_.Intern(line_), s.weight});
  }

  void Begin(const FoldFacts& facts) override {
    unit_ = !facts.off_cpu_unit.empty() ? facts.off_cpu_unit
            : facts.nanoseconds()         ? "nanoseconds"
            : facts.bytes()               ? "bytes"
                                          : "none";
    timed_ = !untimed_ && !facts.folded_input && facts.samples > 0 &&
             timed_samples_ == facts.samples;
    if (!timed_) {
      threads_.clear();
      return;
    }
    ShapeLines(facts);
  }

  void Add(std::string_view stack, const PerlNumber& weight,
           uint64_t /*samples*/) override {
    if (timed_) return;  // the samples stand for the stacks
    if (weights_.empty()) WriteHead(name_, 0);
    buf_.assign(weights_.empty() ? "[" : ",[");
    AppendIds(frames_.Intern(stack));
    buf_ += ']';
    out_->Write(buf_);
    weights_.push_back(weight);
    total_.Add(weight);
  }

  bool Finish(const Diag& /*diag*/) override {
    if (timed_) {
      WriteThreads();
    } else {
      if (weights_.empty()) WriteHead(name_, 0);
      buf_.assign("],\"weights\":[");
      AppendWeights(weights_);
      buf_ += "],\"endValue\":";
      AppendJsonNumber(total_, &buf_);
      buf_ += '}';
    }
    buf_ += "],\"shared\":{\"frames\":[";
    for (size_t id = 0; id < frames_.size(); ++id) {
      buf_ += id > 0 ? ",{\"name\":" : "{\"name\":";
      AppendJsonString(frames_.name(static_cast<SymbolId>(id)), &buf_);
      buf_ += '}';
      Drain();
    }
    buf_ += "]}}\n";
    out_->Write(buf_);
    return true;
  }

 private:
  // The frames of each distinct line once shaped (filters, transforms);
  // kDropped for a line they drop.
  void ShapeLines(const FoldFacts& facts) {
    std::string shaped;
    shaped_.reserve(lines_.size());
    for (size_t i = 0; i < lines_.size(); ++i) {
      const std::string_view line = lines_.Get(static_cast<SymbolId>(i));
      if (facts.shape && !facts.shape(line, &shaped)) {
        shaped_.push_back(kDropped);
        continue;
      }
      const std::span<const SymbolId> ids =
          frames_.Intern(facts.shape ? std::string_view(shaped) : line);
      shaped_.push_back(static_cast<uint32_t>(shaped_ids_.size()));
      shaped_ids_.push_back(static_cast<SymbolId>(ids.size()));
      shaped_ids_.insert(shaped_ids_.end(), ids.begin(), ids.end());
    }
  }

  // One sampled profile per thread that keeps a sample, the threads by
  // their first sample, each thread's samples in time order; speedscope
  // opens the heaviest.
  void WriteThreads() {
    std::vector<ThreadProfile*> order;
    for (auto& [tid, t] : threads_) order.push_back(&t);
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
      return a->first_time != b->first_time ? a->first_time < b->first_time
                                            : a->tid < b->tid;
    });
    std::vector<std::pair<const ThreadProfile*, PerlNumber>> kept;
    size_t heaviest = 0;
    for (ThreadProfile* t : order) {
      std::stable_sort(t->samples.begin(), t->samples.end(),
                       [](const ThreadSample& a, const ThreadSample& b) {
                         return a.time < b.time;
                       });
      PerlNumber total;
      bool any = false;
      for (const ThreadSample& s : t->samples) {
        if (shaped_[s.line] == kDropped) continue;
        total.Add(s.weight);
        any = true;
      }
      if (!any) continue;
      if (!kept.empty() &&
          kept[heaviest].second.AsDouble() < total.AsDouble()) {
        heaviest = kept.size();
      }
      kept.emplace_back(t, total);
    }
    WriteHead("", heaviest);
    buf_.clear();
    for (size_t i = 0; i < kept.size(); ++i) {
      WriteThread(*kept[i].first, kept[i].second, i == 0);
    }
  }

  void WriteThread(const ThreadProfile& t, const PerlNumber& total,
                   bool first) {
    buf_ += first ? "{" : ",{";
    AppendProfileHead(t.name);
    std::vector<PerlNumber> weights;
    bool any = false;
    for (const ThreadSample& s : t.samples) {
      const uint32_t at = shaped_[s.line];
      if (at == kDropped) continue;
      buf_ += any ? ",[" : "[";
      any = true;
      AppendIds({shaped_ids_.data() + at + 1, shaped_ids_[at]});
      buf_ += ']';
      weights.push_back(s.weight);
      Drain();
    }
    buf_ += "],\"weights\":[";
    AppendWeights(weights);
    buf_ += "],\"endValue\":";
    AppendJsonNumber(total, &buf_);
    buf_ += '}';
  }

  // The members before the first profile's samples; for the profile of
  // the distinct stacks (`profile` not empty), its head too.
  void WriteHead(std::string_view profile, size_t active) {
    buf_.assign("{\"$schema\":");
    AppendJsonString(kSchema, &buf_);
    buf_ += ",\"exporter\":";
    AppendJsonString("flamefold " FLAMEFOLD_VERSION, &buf_);
    buf_ += ",\"name\":";
    AppendJsonString(name_, &buf_);
    buf_ += ",\"activeProfileIndex\":";
    AppendUint(&buf_, active);
    buf_ += ",\"profiles\":[";
    if (!profile.empty()) {
      buf_ += '{';
      AppendProfileHead(profile);
    }
    out_->Write(buf_);
  }
  void AppendProfileHead(std::string_view name) {
    buf_ += "\"type\":\"sampled\",\"name\":";
    AppendJsonString(name, &buf_);
    buf_ += ",\"unit\":\"";
    buf_ += unit_;
    buf_ += "\",\"startValue\":0,\"samples\":[";
  }
  void AppendIds(std::span<const SymbolId> ids) {
    for (size_t i = 0; i < ids.size(); ++i) {
      if (i > 0) buf_ += ',';
      AppendUint(&buf_, ids[i]);
    }
  }
  void AppendWeights(const std::vector<PerlNumber>& weights) {
    for (size_t i = 0; i < weights.size(); ++i) {
      if (i > 0) buf_ += ',';
      AppendJsonNumber(weights[i], &buf_);
      Drain();
    }
  }
  // Hands the text built so far to the sink once it is large.
  void Drain() {
    if (buf_.size() < 4096) return;
    out_->Write(buf_);
    buf_.clear();
  }

  static constexpr uint32_t kDropped = UINT32_MAX;

  OutputSink* out_;
  std::string name_;
  std::string unit_ = "none";
  StackFrames frames_;
  std::vector<PerlNumber> weights_;
  PerlNumber total_;
  std::string buf_;

  // The timed samples: the fold's names, the distinct lines they make,
  // and each thread's samples (by tid); then each line's shaped frames
  // (shaped_ indexes shaped_ids_: a count, then the ids).
  const StringInterner* names_ = nullptr;
  uint64_t timed_samples_ = 0;
  bool untimed_ = false;
  bool timed_ = false;
  std::string line_;
  StringInterner lines_;
  std::map<int32_t, ThreadProfile> threads_;
  std::vector<uint32_t> shaped_;
  std::vector<SymbolId> shaped_ids_;
};

}  // namespace

std::unique_ptr<StackWriter> MakeSpeedscopeWriter(OutputSink* out,
                                                  std::string name) {
  return std::make_unique<SpeedscopeWriter>(out, std::move(name));
}

}  // namespace flamefold
