#include "collapse/stack_writer.h"

#include <string>

namespace flamefold {

namespace {

class FoldedWriter : public StackWriter {
 public:
  explicit FoldedWriter(OutputSink* out) : out_(out) {}
  void Add(std::string_view stack, const PerlNumber& weight,
           uint64_t /*samples*/) override {
    out_->Write(stack);
    buf_.assign(1, ' ');
    weight.AppendTo(&buf_);
    buf_ += '\n';
    out_->Write(buf_);
  }
  bool Finish(const Diag& /*diag*/) override { return true; }

 private:
  OutputSink* out_;
  std::string buf_;
};

}  // namespace

bool FoldFacts::bytes() const {
  return weight_field.find("bytes") != std::string::npos;
}

bool ClockEvent(std::string_view event) {
  for (std::string_view clock : {"cpu-clock", "task-clock"}) {
    if (event.starts_with(clock) &&
        (event.size() == clock.size() || event[clock.size()] == ':')) {
      return true;
    }
  }
  return false;
}

bool FoldFacts::nanoseconds() const {
  return periods && weight_field.empty() && ClockEvent(event);
}

std::unique_ptr<StackWriter> MakeFoldedWriter(OutputSink* out) {
  return std::make_unique<FoldedWriter>(out);
}

}  // namespace flamefold
