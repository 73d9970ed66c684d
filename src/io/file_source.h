// Opening a file to read: the one way the tools open what they read, a
// profile named on the command line (or standard input, "-"), a data file
// that goes with it (kallsyms, a JIT's perf map, a palette, a list of
// outputs) or a binary whose symbols a library reads.
//
// Every file is opened by OpenFileFd: read only, close-on-exec, a
// directory refused with "PATH: is a directory". Its bytes are then read
// as a stream from the descriptor (FdSource): a profile through
// OpenFileSource, a small file whole through ReadFile. Where a reader wants
// the bytes in place and its source reads a regular file as it is (not a
// pipe, not decoded), MapSource maps the file instead (MappedFile), so
// that its pages are read where the page cache holds them rather than
// copied. A library that reads a file itself (libelf, libdw, libarchive) is
// given the descriptor.
#ifndef FLAMEFOLD_IO_FILE_SOURCE_H_
#define FLAMEFOLD_IO_FILE_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "io/byte_source.h"
#include "io/mapped_file.h"

namespace flamefold {

enum class OpenFor {
  kReading,      // any file but a directory
  kRegularFile,  // a regular file only, never blocking on a FIFO or device
};

/// Opens `path` to read and returns its descriptor (the caller closes it),
/// or -1 with `*err` "PATH: reason" and `*error_number` (when given) the
/// errno of the failure.
int OpenFileFd(const std::string& path, std::string* err,
               int* error_number = nullptr, OpenFor what = OpenFor::kReading);

/// Opens `path` ("-" is standard input, which stays open) as the stream of
/// its bytes. For standard input that is a regular file, `*stdin_offset`
/// (when given) is the offset it was opened at, so that a caller can read
/// it again from there (lseek); -1 for anything else. A pipe read from is
/// widened to 1 MiB.
bool OpenFileSource(const std::string& path,
                    std::unique_ptr<ByteSource>* source, std::string* err,
                    int64_t* stdin_offset = nullptr);

/// Reads the whole of `path` into `*bytes`; false with `*err` (and
/// `*error_number`) as OpenFileFd says, or on a read error.
bool ReadFile(const std::string& path, std::string* bytes, std::string* err,
              int* error_number = nullptr);

/// The bytes `source` would read next, mapped in place: when it reads a
/// regular file as it is (ByteSource::InFile) and at least `min_bytes` are
/// left. nullptr otherwise, and then the caller reads the source. `name`
/// is the file's name in the message said if it shrinks while mapped.
std::unique_ptr<MappedFile> MapSource(const ByteSource& source,
                                      size_t min_bytes,
                                      const std::string& name);

}  // namespace flamefold

#endif  // FLAMEFOLD_IO_FILE_SOURCE_H_
