#include "io/decompress.h"

#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace flamefold {
namespace {

constexpr size_t kInChunk = 128 * 1024;

class GzipSource : public ByteSource {
 public:
  explicit GzipSource(std::unique_ptr<ByteSource> raw)
      : raw_(std::move(raw)), in_(kInChunk) {
    std::memset(&zs_, 0, sizeof zs_);
    ok_ = inflateInit2(&zs_, 15 + 16) == Z_OK;
  }
  ~GzipSource() override { inflateEnd(&zs_); }

  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override {
    *got = 0;
    if (!ok_) {
      *err = "cannot initialise the gzip decoder";
      return false;
    }
    if (done_ || cap == 0) return true;
    zs_.next_out = reinterpret_cast<Bytef*>(buf);
    zs_.avail_out = static_cast<uInt>(std::min<size_t>(cap, 1u << 30));
    while (*got == 0) {
      if (zs_.avail_in == 0 && !Refill(err)) return false;
      if (zs_.avail_in == 0) {  // end of the compressed stream
        if (member_started_) {
          *err = "truncated gzip stream at byte " + std::to_string(Offset());
          return false;
        }
        done_ = true;
        return true;
      }
      if (!member_started_ && !StartMember(err)) return false;
      int rc = inflate(&zs_, Z_NO_FLUSH);
      *got = cap - zs_.avail_out;
      if (rc == Z_STREAM_END) {
        member_started_ = false;
        inflateReset(&zs_);
      } else if (rc == Z_BUF_ERROR) {
        // No progress: fine when the input ran dry (refilled above).
        if (zs_.avail_in != 0 && zs_.avail_out != 0) {
          *err = "corrupt gzip stream at byte " + std::to_string(Offset());
          return false;
        }
      } else if (rc != Z_OK) {
        *err = "corrupt gzip stream at byte " + std::to_string(Offset()) +
               ": " + (zs_.msg ? zs_.msg : "inflate failed");
        return false;
      }
    }
    return true;
  }

 private:
  // Bytes of the compressed input consumed so far: where an error is.
  uint64_t Offset() const { return raw_bytes_ - zs_.avail_in; }

  bool Refill(std::string* err) {
    if (eof_) return true;
    size_t n = 0;
    if (!raw_->Read(in_.data(), in_.size(), &n, err)) return false;
    raw_bytes_ += n;
    if (n == 0) eof_ = true;
    zs_.next_in = reinterpret_cast<Bytef*>(in_.data());
    zs_.avail_in = static_cast<uInt>(n);
    return true;
  }

  // Called with input available before a member: it must start with the
  // gzip magic bytes, else the rest is garbage.
  bool StartMember(std::string* err) {
    if (zs_.next_in[0] != 0x1f ||
        (zs_.avail_in >= 2 && zs_.next_in[1] != 0x8b)) {
      *err = "trailing garbage after gzip stream at byte " +
             std::to_string(Offset());
      return false;
    }
    member_started_ = true;
    return true;
  }

  std::unique_ptr<ByteSource> raw_;
  std::vector<char> in_;
  z_stream zs_;
  bool ok_ = false;
  bool eof_ = false;
  bool done_ = false;
  bool member_started_ = false;
  uint64_t raw_bytes_ = 0;  // compressed bytes read
};

class ZstdSource : public ByteSource {
 public:
  explicit ZstdSource(std::unique_ptr<ByteSource> raw)
      : raw_(std::move(raw)), in_(ZSTD_DStreamInSize()),
        dctx_(ZSTD_createDCtx()) {
    input_ = {in_.data(), 0, 0};
  }
  ~ZstdSource() override { ZSTD_freeDCtx(dctx_); }

  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override {
    *got = 0;
    if (dctx_ == nullptr) {
      *err = "cannot initialise the zstd decoder";
      return false;
    }
    ZSTD_outBuffer out = {buf, cap, 0};
    while (out.pos == 0 && cap > 0) {
      if (input_.pos == input_.size) {
        if (eof_) {
          if (last_ != 0) {
            *err = "truncated zstd stream at byte " + std::to_string(Offset());
            return false;
          }
          return true;
        }
        size_t n = 0;
        if (!raw_->Read(in_.data(), in_.size(), &n, err)) return false;
        raw_bytes_ += n;
        if (n == 0) {
          eof_ = true;
          continue;
        }
        input_ = {in_.data(), n, 0};
      }
      size_t rc = ZSTD_decompressStream(dctx_, &out, &input_);
      if (ZSTD_isError(rc)) {
        *err = "corrupt zstd stream at byte " + std::to_string(Offset()) +
               ": " + ZSTD_getErrorName(rc);
        return false;
      }
      last_ = rc;
    }
    *got = out.pos;
    return true;
  }

 private:
  // Bytes of the compressed input consumed so far: where an error is.
  uint64_t Offset() const { return raw_bytes_ - (input_.size - input_.pos); }

  std::unique_ptr<ByteSource> raw_;
  std::vector<char> in_;
  uint64_t raw_bytes_ = 0;  // compressed bytes read
  ZSTD_DCtx* dctx_;
  ZSTD_inBuffer input_;
  size_t last_ = 0;
  bool eof_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> NewGzipSource(std::unique_ptr<ByteSource> raw) {
  return std::make_unique<GzipSource>(std::move(raw));
}

std::unique_ptr<ByteSource> NewZstdSource(std::unique_ptr<ByteSource> raw) {
  return std::make_unique<ZstdSource>(std::move(raw));
}

}  // namespace flamefold
