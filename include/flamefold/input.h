// flamefold's C++ API: an input to fold or to draw, a file or bytes in
// memory. Its format is found from its content as the tools find it: gzip
// and zstd by their magic bytes, then perf.data (PERFILE2), perf script
// text or folded stacks.
#ifndef FLAMEFOLD_API_INPUT_H_
#define FLAMEFOLD_API_INPUT_H_

#include <string>
#include <string_view>
#include <utility>

namespace flamefold::api {

class Input {
 public:
  /// The file at `path`; "-" is standard input.
  static Input File(std::string path) {
    return Input(std::move(path), {}, false);
  }
  /// `bytes`, called `name` in messages. They are not copied: they must
  /// stay valid until the call that reads them returns. Like a file, a
  /// perf.data buffer takes its symbols from a perf archive NAME.tar.bz2
  /// when that file exists.
  static Input Buffer(std::string name, std::string_view bytes) {
    return Input(std::move(name), bytes, true);
  }

  const std::string& name() const { return name_; }
  bool is_buffer() const { return is_buffer_; }
  std::string_view bytes() const { return bytes_; }

 private:
  Input(std::string name, std::string_view bytes, bool is_buffer)
      : name_(std::move(name)), bytes_(bytes), is_buffer_(is_buffer) {}
  std::string name_;
  std::string_view bytes_;
  bool is_buffer_;
};

}  // namespace flamefold::api

#endif  // FLAMEFOLD_API_INPUT_H_
