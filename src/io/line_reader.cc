#include "io/line_reader.h"

#include <cstring>

namespace flamefold {

namespace {
// Read in pieces that stay in the parsing core's cache between the copy
// and the parse.
constexpr size_t kInitialBuffer = 256u << 10;
}

LineReader::LineReader(ByteSource* src, size_t max_line)
    : src_(src), max_line_(max_line),
      data_(nullptr) {
  buf_.resize_for_overwrite(std::min(kInitialBuffer, max_line + 1));
  data_ = buf_.data();
}

LineReader::LineReader(std::string_view text, size_t max_line)
    : src_(nullptr), max_line_(max_line), data_(text.data()),
      end_(text.size()), eof_(true), bytes_read_(text.size()) {}

bool LineReader::Fill() {
  ++refills_;
  if (pos_ > 0) {  // keep the partial line at the front
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    scan_ -= pos_;
    pos_ = 0;
  }
  if (end_ == buf_.size()) {
    size_t grown = std::min(buf_.size() * 2, max_line_ + 1);
    buf_.resize_for_overwrite(grown);
    data_ = buf_.data();
  }
  size_t got = 0;
  if (!src_->Read(buf_.data() + end_, buf_.size() - end_, &got, &error_)) {
    return false;
  }
  if (got == 0) eof_ = true;
  end_ += got;
  bytes_read_ += got;
  return true;
}

LineReader::Result LineReader::NextSlow(std::string_view* line) {
  bool too_long = false;
  for (;;) {
    const char* base = data_;
    const void* nl = scan_ < end_
        ? std::memchr(base + scan_, '\n', end_ - scan_) : nullptr;
    if (nl != nullptr) {
      size_t at = static_cast<const char*>(nl) - base;
      *line = std::string_view(base + pos_, at - pos_);
      pos_ = scan_ = at + 1;
      ++line_number_;
      unterminated_ = false;
      return too_long || line->size() > max_line_ ? kTooLong : kLine;
    }
    scan_ = end_;
    if (eof_) {
      if (pos_ == end_ && !too_long) return kEof;
      *line = std::string_view(base + pos_, end_ - pos_);
      pos_ = scan_ = end_;
      ++line_number_;
      unterminated_ = true;
      return too_long || line->size() > max_line_ ? kTooLong : kLine;
    }
    if (end_ - pos_ > max_line_) {  // drop what we have of an overlong line
      too_long = true;
      pos_ = scan_ = end_;
    }
    if (src_ == nullptr || !Fill()) return kError;
  }
}

}  // namespace flamefold
