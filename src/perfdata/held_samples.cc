#include "perfdata/held_samples.h"

namespace flamefold {

void HeldSamples::Begin(bool chain, const HeaderValues* values) {
  int64_t attr = values && chain ? values->attr : kMixed;
  if (samples_.empty()) {
    plain_attr_ = attr;
  } else if (plain_attr_ != attr) {
    plain_attr_ = kMixed;
  }
  samples_.push_back({values ? *values : HeaderValues{},
                      static_cast<uint32_t>(headers_.size()),
                      static_cast<uint32_t>(frames_.size()), chain,
                      values != nullptr, false});
}

void HeldSamples::Append(const HeldSample& s) {
  Begin(s.chain, s.values);
  if (s.gone) {
    MarkGone(samples_.size() - 1);
    return;
  }
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
          frames_.data() + e.frames_begin, frames_end - e.frames_begin,
          e.gone};
}

void HeldSamples::Clear() {
  headers_.clear();
  frames_.clear();
  later_.clear();
  samples_.clear();
  kernel_frames_ = unwound_later_ = named_later_ = false;
  plain_attr_ = kNone;
  gone_ = 0;
}

}  // namespace flamefold
