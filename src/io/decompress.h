// Streaming gzip and zstd decoders as ByteSources.
#ifndef FLAMEFOLD_IO_DECOMPRESS_H_
#define FLAMEFOLD_IO_DECOMPRESS_H_

#include <memory>

#include "io/byte_source.h"

namespace flamefold {

/// Decodes gzip (RFC 1952), including several concatenated members as
/// `gzip -c a b` writes them. A stream that ends inside a member is an error
/// ("truncated gzip stream"), and so is data after the last member that is
/// not another member ("trailing garbage after gzip stream").
std::unique_ptr<ByteSource> NewGzipSource(std::unique_ptr<ByteSource> raw);

/// Decodes zstd, including several frames and skippable frames. A stream
/// that ends inside a frame is an error ("truncated zstd stream").
std::unique_ptr<ByteSource> NewZstdSource(std::unique_ptr<ByteSource> raw);

}  // namespace flamefold

#endif  // FLAMEFOLD_IO_DECOMPRESS_H_
