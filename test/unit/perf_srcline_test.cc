// The source lines perf script -F+srcline prints, as PerfSrcline makes
// them (the whole pipeline is checked against perf in golden-perf-data).
#include "perfdata/perf_srcline.h"

#include <doctest/doctest.h>

namespace flamefold {
namespace {

SourceRecord Record(const std::string& file, uint32_t line,
                    uint32_t discriminator = 0) {
  SourceRecord r;
  r.file = file;
  r.line = line;
  r.discriminator = discriminator;
  return r;
}

TEST_CASE("a record's srcline is perf's split of addr2line's FILE:LINE") {
  // "/tmp/ffdw/dwarf.cc:28 (discriminator 2)": the directory and the
  // discriminator go.
  CHECK(PerfSrcline::FromRecord(Record("/tmp/ffdw/dwarf.cc", 28, 2)) ==
        "dwarf.cc:28");
  CHECK(PerfSrcline::FromRecord(Record("??", 0)) == "??:0");  // "??:?"
  CHECK(PerfSrcline::FromRecord(Record("libc-start.o", 0)) ==
        "libc-start.o:0");
  CHECK(PerfSrcline::FromRecord(Record("", 0)) == ":0");  // clone3.S
  // perf cuts at the first ':', even inside the file name.
  CHECK(PerfSrcline::FromRecord(Record("/src/a:b/x.c", 7)) == "a:0");
  CHECK(PerfSrcline::FromRecord(Record("/src/v:12/x.c", 7)) == "v:12");
}

TEST_CASE("perf's short names and addr2line files of DSOs") {
  Dso user;
  user.path = "/usr/lib/x86_64-linux-gnu/libc.so.6";
  CHECK(PerfSrcline::ShortName(user) == "libc.so.6");
  // No symbol table found: addr2line reads the recorded path itself.
  CHECK(PerfSrcline::Addr2lineFile(user) == user.path);
  user.symtab_file = "root/usr/lib/x86_64-linux-gnu/libc.so.6";
  CHECK(PerfSrcline::Addr2lineFile(user) == user.symtab_file);

  Dso vdso;
  vdso.path = "[vdso]";
  CHECK(PerfSrcline::ShortName(vdso) == "[vdso]");
  CHECK(PerfSrcline::Addr2lineFile(vdso).empty());

  Dso jit;
  jit.kind = DsoKind::kPerfMap;
  jit.path = "/tmp/perf-23652.map";
  CHECK(PerfSrcline::ShortName(jit) == "[JIT] tid 23652");
  CHECK(PerfSrcline::Addr2lineFile(jit).empty());

  Dso kernel;
  kernel.kind = DsoKind::kKernel;
  kernel.name = "[kernel.kallsyms]";
  CHECK(PerfSrcline::ShortName(kernel) == "[kernel.kallsyms]");
  CHECK(PerfSrcline::Addr2lineFile(kernel).empty());
}

TEST_CASE("without an answer, the short name and the address") {
  SourceLines lines;
  PerfSrcline srcline(&lines);
  Dso kernel;
  kernel.kind = DsoKind::kKernel;
  kernel.name = "[kernel.kallsyms]";
  CHECK(srcline.ForFrame(&kernel, 0xffffffff8225f2d9) ==
        "[kernel.kallsyms][ffffffff8225f2d9]");
  Dso jit;
  jit.kind = DsoKind::kPerfMap;
  jit.path = "/tmp/perf-23652.map";
  CHECK(srcline.ForFrame(&jit, 0x7feca515a006) ==
        "[JIT] tid 23652[7feca515a006]");
  Dso missing;
  missing.path = "/nonexistent/lib/libgone.so";
  CHECK(srcline.ForFrame(&missing, 0x1234) == "libgone.so[1234]");
}

}  // namespace
}  // namespace flamefold
