// FileWindows: a regular file shown in mapped windows, one after another,
// so that its text is parsed where the page cache holds it. read() copies
// every byte once more (about a tenth of flamefold's time on a 200 MB
// transcript).
//
// A mapped file that gets shorter while it is read raises SIGBUS where the
// bytes went missing. A handler, installed with the first window, ends the
// process then with "TOOL: error: ..." and exit status 1, the same as a read
// error; a SIGBUS outside the windows goes on to the handler there was
// before.
#ifndef FLAMEFOLD_IO_FILE_WINDOWS_H_
#define FLAMEFOLD_IO_FILE_WINDOWS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace flamefold {

class FileWindows {
 public:
  /// Windows of 4 MiB: small next to peak memory (mapped pages count as
  /// resident while mapped), large enough that mapping costs little.
  static constexpr size_t kWindowBytes = 4u << 20;

  /// The windows of `fd` from its current offset; nullptr when `fd` is not
  /// a regular file with bytes, or when many windows are already open (the
  /// caller reads then). Does not own `fd`.
  static std::unique_ptr<FileWindows> Open(int fd,
                                           size_t window = kWindowBytes);
  ~FileWindows();
  FileWindows(const FileWindows&) = delete;
  FileWindows& operator=(const FileWindows&) = delete;

  /// Unmaps the previous window and sets `*view` to the next bytes (at most
  /// one window); empty at the end of the file. The file's size is taken
  /// anew, so one that grew is read on to its new end and one cut short
  /// ends there, as with read().
  bool Next(std::string_view* view, std::string* err);

 private:
  FileWindows(int fd, uint64_t offset, size_t window, int slot);
  void Unmap();

  int fd_;
  uint64_t offset_;  // of the next window's first byte
  size_t window_;
  int slot_;         // in the SIGBUS handler's table
  void* map_ = nullptr;
  size_t map_bytes_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_IO_FILE_WINDOWS_H_
