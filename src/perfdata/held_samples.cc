#include "perfdata/held_samples.h"

namespace flamefold {

void HeldSamples::Begin(bool chain, const HeaderValues* values) {
  size_t h = headers_.size(), f = frames_.size();
  samples_.push_back({h, h, f, f, chain, values != nullptr,
                      values ? *values : HeaderValues{}});
}

void HeldSamples::End() {
  Entry& e = samples_.back();
  e.header_end = headers_.size();
  e.frames_end = frames_.size();
}

HeldSample HeldSamples::at(size_t i) const {
  const Entry& e = samples_[i];
  std::string_view headers = headers_;
  return {headers.substr(e.header_begin, e.header_end - e.header_begin),
          e.has_values ? &e.values : nullptr, e.chain,
          frames_.data() + e.frames_begin, e.frames_end - e.frames_begin};
}

void HeldSamples::Clear() {
  headers_.clear();
  frames_.clear();
  later_.clear();
  samples_.clear();
  kernel_frames_ = unwound_later_ = named_later_ = false;
}

}  // namespace flamefold
