// LineReader: splits a ByteSource into lines without copying them.
#ifndef FLAMEFOLD_IO_LINE_READER_H_
#define FLAMEFOLD_IO_LINE_READER_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "base/big_alloc.h"
#include "io/byte_source.h"

namespace flamefold {

class LineReader {
 public:
  enum Result { kLine, kEof, kError, kTooLong };

  /// Lines longer than `max_line` bytes are not kept: Next() skips them and
  /// returns kTooLong, so one hostile line cannot take unbounded memory.
  explicit LineReader(ByteSource* src, size_t max_line = kDefaultMaxLine);
  /// Reads the lines of `text` where they lie, without copying; `text`
  /// must outlive the reader. Lines longer than `max_line` are returned
  /// with kTooLong.
  explicit LineReader(std::string_view text, size_t max_line = SIZE_MAX);

  /// Next line without its '\n' (Perl's chomp: a '\r' stays). The last line
  /// may lack the '\n'. The view is valid until the next call.
  Result Next(std::string_view* line) {
    // The common case, inline: a whole line in the buffer.
    if (scan_ < end_) {
      const char* base = data_;
      const void* nl = std::memchr(base + scan_, '\n', end_ - scan_);
      if (nl != nullptr) {
        size_t at = static_cast<const char*>(nl) - base;
        size_t len = at - pos_;
        *line = std::string_view(base + pos_, len);
        pos_ = scan_ = at + 1;
        ++line_number_;
        unterminated_ = false;
        // (From a ByteSource no line in the buffer is too long; in memory
        // one may be.)
        return len <= max_line_ ? kLine : kTooLong;
      }
    }
    return NextSlow(line);
  }

  /// The bytes read but not yet returned as lines, where they lie; valid
  /// until the next call. For scanners that recognise whole lines in place.
  std::string_view Buffered() const {
    return std::string_view(data_ + pos_, end_ - pos_);
  }
  /// Consumes the first `n` bytes of Buffered(), which are `lines` whole
  /// lines with their '\n', as if Next() had returned them.
  void SkipLines(size_t n, uint64_t lines) {
    pos_ += n;
    if (scan_ < pos_) scan_ = pos_;
    line_number_ += lines;
    unterminated_ = false;
  }

  /// Number of the line last returned (1-based), for diagnostics.
  uint64_t line_number() const { return line_number_; }
  /// Bytes consumed so far, for progress and statistics.
  uint64_t bytes_read() const { return bytes_read_; }
  const std::string& error() const { return error_; }
  /// True when the last line returned had no '\n' at its end.
  bool last_line_unterminated() const { return unterminated_; }
  /// How many times the buffer was refilled (its bytes moved or added):
  /// bytes seen in Buffered() lie unchanged where they were while this
  /// stays the same.
  uint64_t refills() const { return refills_; }

  static constexpr size_t kDefaultMaxLine = 16u << 20;

 private:
  bool Fill();  // reads more; false on error
  Result NextSlow(std::string_view* line);

  ByteSource* src_;
  size_t max_line_;
  BigArray<char> buf_;  // its size is the capacity used
  const char* data_;  // buf_.data(), or the text read in place
  size_t pos_ = 0;   // start of unread data
  size_t end_ = 0;   // end of valid data
  size_t scan_ = 0;  // where to continue looking for '\n'
  bool eof_ = false;
  bool unterminated_ = false;
  uint64_t line_number_ = 0;
  uint64_t bytes_read_ = 0;
  uint64_t refills_ = 0;
  std::string error_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_IO_LINE_READER_H_
