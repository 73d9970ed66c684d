// FrameInliner: stackcollapse-perf.pl's --inline chain for a frame, its
// fallbacks (nm, then "??") and its cache, and which modules it applies to.
#include <doctest/doctest.h>

#include <string>

#include "symbols/frame_inliner.h"
#include "test_inputs.h"

namespace flamefold {
namespace {

using testing::TestFile;

TEST_CASE("--inline: the Perl script's chain, its fallbacks and its cache") {
  std::string root = TestFile("perf-data/dwarf-shlib/root");
  FrameInliner in(root, false);
  CHECK(in.Expand("102a", "tiny_hash+0x2a", "/tmp/ffdw/libtiny.so") ==
        "tiny_hash;rotl");
  // A missing file: "" (the frame is kept as it is).
  CHECK(in.Expand("102a", "x+0x2a", "/tmp/ffdw/none.so").empty());
  // An address addr2line knows nothing of: nm finds the function and the
  // offset is added to its address.
  CHECK(in.Expand("5000", "tiny_apply+0x10", "/tmp/ffdw/libtiny.so") ==
        "tiny_apply");
  CHECK(in.Expand("5008", "nosuchfunction+0x10", "/tmp/ffdw/libtiny.so") ==
        "??");
  // Cached per (address, module), as the Perl script caches: the symbol
  // is not part of the key.
  CHECK(in.Expand("5000", "nosuchfunction+0x10", "/tmp/ffdw/libtiny.so") ==
        "tiny_apply");
  FrameInliner ctx(root, true);
  CHECK(ctx.Expand("1040", "step", "/tmp/ffdw/shlib") == "step:shlib.c:12");
  CHECK(FrameInliner::Applies("/usr/lib/libc.so.6"));
  CHECK_FALSE(FrameInliner::Applies("[kernel.kallsyms]"));
  CHECK_FALSE(FrameInliner::Applies("[vdso]"));
  CHECK_FALSE(FrameInliner::Applies("/tmp/perf-1234.map"));
  CHECK_FALSE(FrameInliner::Applies("/lib/modules/kernel.ko"));
  CHECK(FrameInliner::Applies("[]"));  // \[[^\]]+\] needs a character
}

}  // namespace
}  // namespace flamefold
