#include "report/speedscope.h"

#include <vector>

#include "base/json.h"
#include "report/stack_frames.h"
#include "flamefold_config.h"

namespace flamefold {

namespace {

constexpr std::string_view kSchema =
    "https://www.speedscope.app/file-format-schema.json";

class SpeedscopeWriter : public StackWriter {
 public:
  SpeedscopeWriter(OutputSink* out, std::string name)
      : out_(out), name_(std::move(name)) {}

  void Add(std::string_view stack, const PerlNumber& weight,
           uint64_t /*samples*/) override {
    if (weights_.empty()) WriteHead();
    buf_.assign(weights_.empty() ? "[" : ",[");
    bool first = true;
    for (SymbolId id : frames_.Intern(stack)) {
      if (!first) buf_ += ',';
      first = false;
      AppendUint(&buf_, id);
    }
    buf_ += ']';
    out_->Write(buf_);
    weights_.push_back(weight);
    total_.Add(weight);
  }

  bool Finish(const Diag& /*diag*/) override {
    if (weights_.empty()) WriteHead();
    buf_.assign("],\"weights\":[");
    for (size_t i = 0; i < weights_.size(); ++i) {
      if (i > 0) buf_ += ',';
      AppendJsonNumber(weights_[i], &buf_);
      Drain();
    }
    buf_ += "],\"endValue\":";
    AppendJsonNumber(total_, &buf_);
    buf_ += "}],\"shared\":{\"frames\":[";
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
  // The members before the samples.
  void WriteHead() {
    buf_.assign("{\"$schema\":");
    AppendJsonString(kSchema, &buf_);
    buf_ += ",\"exporter\":";
    AppendJsonString("flamefold " FLAMEFOLD_VERSION, &buf_);
    buf_ += ",\"name\":";
    AppendJsonString(name_, &buf_);
    buf_ += ",\"activeProfileIndex\":0,\"profiles\":[{\"type\":\"sampled\","
            "\"name\":";
    AppendJsonString(name_, &buf_);
    buf_ += ",\"unit\":\"none\",\"startValue\":0,\"samples\":[";
    out_->Write(buf_);
  }
  // Hands the text built so far to the sink once it is large.
  void Drain() {
    if (buf_.size() < 4096) return;
    out_->Write(buf_);
    buf_.clear();
  }

  OutputSink* out_;
  std::string name_;
  StackFrames frames_;
  std::vector<PerlNumber> weights_;
  PerlNumber total_;
  std::string buf_;
};

}  // namespace

std::unique_ptr<StackWriter> MakeSpeedscopeWriter(OutputSink* out,
                                                  std::string name) {
  return std::make_unique<SpeedscopeWriter>(out, std::move(name));
}

}  // namespace flamefold
