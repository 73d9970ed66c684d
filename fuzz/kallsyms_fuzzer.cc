// libFuzzer target for the kernel's symbol files, which flamefold reads on
// its own (the build-id cache's copy of kallsyms, /proc/modules,
// /sys/kernel/notes) as well as through --kallsyms. The input is cut at its
// first two NUL-free "\n--\n" marks into a kallsyms text, a /proc/modules
// text and a notes blob (parts missing are empty). Checks what each
// promises: LoadKallsyms keeps sorted symbols that end after they start
// (but where perf's own end arithmetic wraps); a build id is no longer
// than the notes; the currency check answers, and says no to an empty
// first page.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "mem_file.h"
#include "symbols/kallsyms.h"
#include "symbols/kallsyms_copy.h"
#include "symbols/symbol_table.h"

namespace {

void CheckTable(const flamefold::SymbolTable& t) {
  const auto& syms = t.symbols();
  for (size_t i = 0; i < syms.size(); ++i) {
    // perf's end of an open-ended symbol, its page rounded up plus a page,
    // wraps in u64 arithmetic in the last two pages; flamefold does as perf.
    if (syms[i].end < syms[i].start && syms[i].start < UINT64_MAX - 8191) {
      abort();
    }
    if (i > 0 && syms[i].start < syms[i - 1].start) abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string_view parts[3];
  for (int k = 0; k < 3; ++k) {
    size_t mark = k < 2 ? in.find("\n--\n") : std::string_view::npos;
    parts[k] = in.substr(0, mark);
    if (mark == std::string_view::npos) break;
    in.remove_prefix(mark + 4);
  }
  const std::string_view kallsyms = parts[0], modules = parts[1],
                         notes = parts[2];

  MemFile file(kallsyms);
  flamefold::SymbolTable core;
  std::vector<flamefold::KallsymsModule> mods;
  std::string err;
  if (!flamefold::LoadKallsyms(file.path(), &core, &mods, &err)) abort();
  CheckTable(core);
  for (const flamefold::KallsymsModule& m : mods) CheckTable(m.table);

  if (flamefold::BuildIdFromNotes(notes).size() > notes.size()) abort();

  std::string_view head = kallsyms.substr(0, 4096);
  bool current =
      flamefold::KallsymsCopyIsCurrent(kallsyms, mods, head, modules);
  if (head.empty() && current) abort();
  return 0;
}
