// libFuzzer target for the input layer: OpenSource on any bytes (gzip, zstd,
// perf.data magic, text), then the decoded stream read to its end. Decoding
// must end in bytes or an error message; a small input must not decode to
// unbounded output without the reader seeing it (reads stop at a cap).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "io/byte_source.h"
#include "io/input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto raw = std::make_unique<flamefold::StringSource>(
      std::string(reinterpret_cast<const char*>(data), size),
      1 + size % 4093);
  flamefold::Input in;
  std::string err;
  if (!flamefold::OpenSource("fuzz", std::move(raw), &in, &err)) return 0;
  char buf[65536];
  size_t total = 0;
  // A decompression bomb is legal input; stop reading after 64 MiB.
  while (total < (size_t{64} << 20)) {
    size_t got = 0;
    if (!in.source->Read(buf, sizeof buf, &got, &err)) {
      if (err.empty()) abort();  // a failure always says why
      break;
    }
    if (got == 0) break;
    if (got > sizeof buf) abort();
    total += got;
  }
  return 0;
}
