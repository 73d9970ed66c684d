// Inputs for unit tests: files of testdata/ (found through $TESTDATA, which
// meson sets) and gzip and zstd copies of text made in memory.
#ifndef FLAMEFOLD_TEST_INPUTS_H_
#define FLAMEFOLD_TEST_INPUTS_H_

#include <doctest/doctest.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdlib>
#include <string>

namespace flamefold::testing {

/// The path of `rel` under testdata/.
inline std::string TestFile(const char* rel) {
  const char* dir = std::getenv("TESTDATA");
  REQUIRE_MESSAGE(dir != nullptr, "TESTDATA names testdata/ (meson sets it)");
  return std::string(dir) + "/" + rel;
}

/// `text` as one gzip member.
inline std::string Gzip(const std::string& text) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, text.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

/// `text` as one zstd frame.
inline std::string Zstd(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
  return out;
}

}  // namespace flamefold::testing

#endif  // FLAMEFOLD_TEST_INPUTS_H_
