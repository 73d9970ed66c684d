#include "io/line_reader.h"

#include <cstring>

namespace flamefold {

namespace {
// Read in pieces that stay in the parsing core's cache between the copy
// and the parse, and below BigAllocate's mapped size (a 2 MiB huge page).
constexpr size_t kInitialBuffer = 256u << 10;
}

LineReader::LineReader(ByteSource* src, size_t max_line)
    : src_(src), max_line_(max_line), lent_(src->CanLend()),
      data_(nullptr) {
  if (lent_) return;  // data_ is each lent block in turn
  buf_.resize_for_overwrite(std::min(kInitialBuffer, max_line + 1));
  data_ = buf_.data();
}

LineReader::LineReader(std::string_view text, size_t max_line)
    : src_(nullptr), max_line_(max_line), data_(text.data()),
      end_(text.size()), eof_(true), bytes_read_(text.size()) {}

bool LineReader::Fill() {
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
  if (lent_) return NextAcrossBlocks(line);
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

// The block's rest [pos_, end_) holds no '\n': it starts the next line,
// which goes on in the blocks lent next, up to the first '\n' in one of
// them. That line is gathered in carry_ (unless longer than max_line_:
// then it is dropped and reported kTooLong), and the lines after it are
// read in place in the block where it ended. With nothing carried, the
// block's lines are all read in place.
LineReader::Result LineReader::NextAcrossBlocks(std::string_view* line) {
  if (eof_) return kEof;
  carry_.assign(data_ + pos_, end_ - pos_);
  bool too_long = carry_.size() > max_line_;
  if (too_long) carry_.clear();
  for (;;) {
    std::string_view block;
    if (!src_->Lend(&block, &error_)) return kError;
    bytes_read_ += block.size();
    data_ = block.data();
    pos_ = scan_ = 0;
    end_ = block.size();
    if (block.empty()) {
      eof_ = true;
      if (carry_.empty() && !too_long) return kEof;
      *line = carry_;
      ++line_number_;
      unterminated_ = true;
      return too_long ? kTooLong : kLine;
    }
    if (carry_.empty() && !too_long) return Next(line);  // all in place
    const void* nl = std::memchr(block.data(), '\n', block.size());
    const size_t take =
        nl ? static_cast<const char*>(nl) - block.data() : block.size();
    if (!too_long && carry_.size() + take > max_line_) {
      too_long = true;
      carry_.clear();
    }
    if (!too_long) carry_.append(block.data(), take);
    if (nl != nullptr) {
      pos_ = scan_ = take + 1;
      *line = carry_;
      ++line_number_;
      unterminated_ = false;
      return too_long ? kTooLong : kLine;
    }
  }
}

}  // namespace flamefold
