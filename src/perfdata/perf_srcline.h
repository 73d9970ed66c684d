// PerfSrcline: the source line `perf script -F+srcline` prints after each
// frame, for the perf.data replay. perf 6.1 (Debian's, without libbfd)
// asks a long-running `addr2line -e FILE -i -f` (GNU binutils) per DSO;
// SourceLines gives the same answers in-process, cached per (file,
// address), so the cost follows the distinct addresses.
//
// What perf prints, seen with strace on perf 6.1.187 (the rules are in
// docs' terms: `perf script -F+srcline` output, frame then "  SRCLINE"):
//
//   * A frame from addr2line's inline records (a --call-graph dwarf user
//     frame whose symbol is known and whose address addr2line finds): the
//     record's own line, always printed, "??:0" included:
//         |              ab1a (anonymous namespace)::Fib+0x1a (/tmp/ffdw/dwarf)
//         |   dwarf.cc:28
//         |              abac operator()+0x2c
//         |   dwarf.cc:38 (inlined)
//         |              aa30 _start+0x20 (/tmp/ffdw/dwarf)
//         |   ??:0
//   * Any other frame with a map: the first record of the address,
//     printed unless it is "??:0" (a known function without a line):
//         |              1ba4 __libc_start_call_main+0x64 (/tmp/ffrec/work)
//         |   libc-start.o:0
//     and when addr2line cannot answer (the DSO's name starts with "[" or
//     "/tmp/perf-", the file is missing, the address is in no section),
//     the DSO's short name and the address:
//         |   [kernel.kallsyms][ffffffff8225f2d9]
//         |   [JIT] tid 23652[7feca515a006]
//   * A frame without a map ("[unknown] ([unknown])"): nothing.
//
// A record "FILE:LINE" becomes BASENAME:LINE as perf splits it: at the
// first ':' (so a discriminator, " (discriminator 2)", is dropped by
// strtoul), "?" as line 0, the directory removed.
#ifndef FLAMEFOLD_PERFDATA_PERF_SRCLINE_H_
#define FLAMEFOLD_PERFDATA_PERF_SRCLINE_H_

#include <cstdint>
#include <string>
#include <unordered_map>

#include "symbols/source_lines.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

class PerfSrcline {
 public:
  /// Look-ups go through `lines`, shared with the inline records so that
  /// one addr2line state serves both, as perf's one process per DSO does.
  explicit PerfSrcline(SourceLines* lines) : lines_(lines) {}

  /// What perf prints after a frame of `dso` at `map_ip` (the address in
  /// the DSO, as perf script prints it for user code) that does not come
  /// from the inline records; "" for nothing. Cached per (DSO, address).
  const std::string& ForFrame(const Dso* dso, uint64_t map_ip);

  /// The srcline of one of addr2line's records: "dwarf.cc:28" for
  /// "/tmp/ffdw/dwarf.cc:28 (discriminator 2)", "??:0" for "??:?".
  static std::string FromRecord(const SourceRecord& record);

  /// The file perf runs addr2line on for `dso` (its dso__name): the file
  /// its symbol table came from, else the path as recorded (on this host,
  /// not under --symfs); "" when perf does not ask ("[kernel.kallsyms]",
  /// "[vdso]", "/tmp/perf-PID.map").
  static std::string Addr2lineFile(const Dso& dso);

  /// The address perf hands to addr2line for `map_ip` of a user `dso`
  /// (perf's map__rip_2objdump, which perf 6.1 adjusts for every user
  /// DSO): moved by its Dso::text_offset (0 until its symbols are
  /// loaded); other DSOs' `map_ip` as it is.
  static uint64_t ObjdumpAddress(const Dso& dso, uint64_t map_ip);

  /// perf's short name of `dso`: the recorded path's last component,
  /// "[JIT] tid PID" for /tmp/perf-PID.map, "[kernel.kallsyms]".
  static std::string ShortName(const Dso& dso);

 private:
  std::string Compute(const Dso* dso, uint64_t map_ip);

  SourceLines* lines_;
  std::unordered_map<DsoAddress, std::string, DsoAddressHash> cache_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_PERF_SRCLINE_H_
