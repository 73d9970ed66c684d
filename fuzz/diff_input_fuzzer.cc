// libFuzzer target for flamediff's reading of one side (its own folded
// reader, as difffolded.pl reads lines, and the perf script / perf.data
// folding behind it), then the sorted two-column output. The bytes are put
// in a memory file and read by path, as flamediff reads its arguments.
// Bits of the first byte pick the side, -s, -n and small stack limits.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "differential/diff_table.h"
#include "differential/diff_input.h"
#include "collapse/fold_config.h"
#include "base/output.h"
#include "base/perl_number.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t bits = data[0];
  int fd = memfd_create("fuzz", 0);
  if (fd < 0) abort();
  for (size_t done = 1; done < size;) {
    ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) abort();
    done += static_cast<size_t>(n);
  }
  lseek(fd, 0, SEEK_SET);
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  flamefold::FoldConfig fold;
  fold.symbols.symfs = "/nonexistent-fuzz";
  fold.symbols.kallsyms = "/nonexistent-fuzz/kallsyms";
  fold.symbols.debug_dir = "/nonexistent-fuzz/.debug";
  fold.quiet = true;
  flamefold::DiffTable table;
  const int side = bits & 1;
  table.Add(1 - side, "other;side", flamefold::PerlNumber::FromUint(3));
  flamefold::DiffSideStats stats;
  // small stack limits too, to reach the cutting
  if (bits & 8) fold.perf.limits.max_depth = 3;
  if (bits & 16) fold.perf.limits.max_frame = 5;
  flamefold::Diag diag("flamediff");
  diag.set_quiet(true);
  std::string err;
  if (flamefold::ReadDiffSide(path, side, bits & 2, fold, diag, &table,
                              &stats, &err)) {
    flamefold::StringSink out;
    table.Write(bits & 4, &out);
  }
  close(fd);
  return 0;
}
