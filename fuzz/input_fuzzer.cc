// libFuzzer target for the input layer: the detector of input kinds
// (OpenSource, KindOfHead) on any bytes (gzip, zstd, perf.data magic,
// text), then the decoded stream read to its end. Decoding must end in
// bytes or an error message; a small input must not decode to unbounded
// output without the reader seeing it (reads stop at a cap). The kind must
// not depend on how the bytes arrive (in pieces of any size) nor on their
// being compressed: a zstd copy of plain bytes is of their kind.
#include <zstd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "collapse/input_kind.h"
#include "io/byte_source.h"

namespace {

// Opens `bytes` read in `chunk`-byte pieces; false on an error, which must
// then say what is wrong.
bool Open(const std::string& bytes, size_t chunk, flamefold::Input* in) {
  std::string err;
  auto raw = std::make_unique<flamefold::StringSource>(bytes, chunk);
  if (flamefold::OpenSource("fuzz", std::move(raw), in, &err)) return true;
  if (err.empty()) abort();
  return false;
}

// Reads what `in` decodes to, up to a cap: a decompression bomb is legal
// input.
void ReadToEnd(flamefold::Input* in) {
  char buf[65536];
  size_t total = 0;
  std::string err;
  while (total < (size_t{64} << 20)) {
    size_t got = 0;
    if (!in->source->Read(buf, sizeof buf, &got, &err)) {
      if (err.empty()) abort();  // a failure always says why
      return;
    }
    if (got == 0) return;
    if (got > sizeof buf) abort();
    total += got;
  }
}

std::string ZstdCopy(const std::string& bytes) {
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  size_t n =
      ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 1);
  if (ZSTD_isError(n)) abort();
  out.resize(n);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  flamefold::Input in;
  if (!Open(bytes, 1 + size % 4093, &in)) return 0;
  flamefold::Input whole;
  if (!Open(bytes, SIZE_MAX, &whole) || whole.kind != in.kind ||
      whole.compression != in.compression) {
    abort();  // the pieces the bytes come in changed the answer
  }
  if (in.compression == flamefold::Compression::kNone) {
    // Shorter than the read size, the bytes are all KindOfHead looks at.
    if (size < 64 * 1024 && flamefold::KindOfHead(bytes, true) != in.kind) {
      abort();
    }
    flamefold::Input zstd;
    if (!Open(ZstdCopy(bytes), 1 + size % 509, &zstd) ||
        zstd.compression != flamefold::Compression::kZstd ||
        zstd.kind != in.kind) {
      abort();
    }
  }
  ReadToEnd(&in);
  return 0;
}
