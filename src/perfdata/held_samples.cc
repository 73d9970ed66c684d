#include "perfdata/held_samples.h"

namespace flamefold {

void HeldSamples::Begin(bool chain, const HeaderValues* values) {
  samples_.push_back({values ? *values : HeaderValues{},
                      static_cast<uint32_t>(headers_.size()),
                      static_cast<uint32_t>(frames_.size()), chain,
                      values != nullptr});
}

void HeldSamples::Append(const HeldSample& s) {
  Begin(s.chain, s.values);
  headers_.append(s.header);
  frames_.append(s.frames, s.frame_count);
}

HeldSample HeldSamples::at(size_t i) const {
  const Entry& e = samples_[i];
  bool last = i + 1 == samples_.size();
  size_t header_end = last ? headers_.size() : samples_[i + 1].header_begin;
  size_t frames_end = last ? frames_.size() : samples_[i + 1].frames_begin;
  std::string_view headers = headers_;
  return {headers.substr(e.header_begin, header_end - e.header_begin),
          e.has_values ? &e.values : nullptr, e.chain,
          frames_.data() + e.frames_begin, frames_end - e.frames_begin};
}

void HeldSamples::Clear() {
  headers_.clear();
  frames_.clear();
  samples_.clear();
}

}  // namespace flamefold
