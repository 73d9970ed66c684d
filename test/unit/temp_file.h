// A file of given bytes for a unit test, removed when it goes out of scope.
#ifndef FLAMEFOLD_TEST_TEMP_FILE_H_
#define FLAMEFOLD_TEST_TEMP_FILE_H_

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace flamefold::testing {

struct TempFile {
  explicit TempFile(const std::string& bytes) {
    char name[] = "/tmp/flamefold_testXXXXXX";
    int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, bytes.data(), bytes.size()) ==
            static_cast<ssize_t>(bytes.size()));
    close(fd);
    path = name;
  }
  ~TempFile() { unlink(path.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  std::string path;
};

}  // namespace flamefold::testing

#endif  // FLAMEFOLD_TEST_TEMP_FILE_H_
