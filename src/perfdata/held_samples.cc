#include "perfdata/held_samples.h"

namespace flamefold {

void HeldSamples::Begin(bool chain) {
  samples_.push_back(
      {headers_.size(), headers_.size(), frames_.size(), frames_.size(), chain});
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
          e.chain, frames_.data() + e.frames_begin,
          e.frames_end - e.frames_begin};
}

void HeldSamples::Clear() {
  headers_.clear();
  frames_.clear();
  later_.clear();
  samples_.clear();
  kernel_frames_ = false;
}

}  // namespace flamefold
