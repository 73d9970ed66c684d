// libFuzzer target for the perf.data reader and replay: any input must end
// in success or an error message, never a crash, a hang or a huge
// allocation. Symbols are looked up nowhere real (symfs and kallsyms point
// at a missing directory), so the run does not depend on the host. The
// last two bytes choose the path: the text perf script prints (with or
// without source lines), or the samples folded by their fields as
// flamefold does by default (with or without --pid and --kernel, and with
// bit 4 --off-cpu, bit 5 --on-off); there, with bit 3 of the second to
// last byte, the input is a file (a memfd), which the replay maps and
// reads on a thread of its own.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "base/string_interner.h"
#include "collapse/perf_script.h"
#include "collapse/stack_trie.h"
#include "io/byte_source.h"
#include "perfdata/perf_data_folder.h"
#include "perfdata/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  flamefold::StringSource src(
      std::string(reinterpret_cast<const char*>(data), size), 4096);
  flamefold::SymbolOptions options;
  options.symfs = "/nonexistent-fuzz";
  options.kallsyms = "/nonexistent-fuzz/kallsyms";
  options.debug_dir = "/nonexistent-fuzz/.debug";
  flamefold::PerfDataStats stats;
  std::string err;
  uint8_t mode = size > 1 ? data[size - 2] : 0;
  if (mode & 1) {
    flamefold::StringInterner names;
    flamefold::StackTrie trie(&names);
    flamefold::PerfScriptOptions opts;
    opts.include_pid = mode & 2;
    opts.annotate_kernel = mode & 4;
    opts.off_cpu.on_off = mode & 32;
    opts.off_cpu.enabled = mode & (16 | 32);
    flamefold::PerfScriptParser parser(opts, &names, &trie);
    flamefold::ByteSource* in = &src;
    std::unique_ptr<flamefold::FdSource> file;
    int fd = (mode & 8) ? memfd_create("fuzz", 0) : -1;
    if (fd >= 0) {
      file = std::make_unique<flamefold::FdSource>(fd, true);  // closes it
      if (write(fd, data, size) == static_cast<ssize_t>(size) &&
          lseek(fd, 0, SEEK_SET) == 0) {
        in = file.get();
      }
    }
    flamefold::ParserRecordingFold into(&parser, "fuzz", 0);
    if (flamefold::FoldPerfData("fuzz", in, options, &into, &stats, &err)) {
      parser.fold()->EndInput("fuzz", &err);
    }
    parser.Finish();
    return 0;
  }
  size_t text = 0;
  // An odd last byte asks for perf script -F+srcline's source lines too.
  flamefold::PerfDataText style;
  style.srcline = size > 0 && (data[size - 1] & 1);
  flamefold::RenderPerfData(
      "fuzz", &src, options,
      [&](std::string_view t) {
        text += t.size();
        return true;
      },
      &stats, &err, style);
  return 0;
}
