// KallsymsCopy: the kernel symbols from the build-id cache's copy of
// /proc/kallsyms, when that copy says what /proc/kallsyms says now.
//
// Why: the kernel formats /proc/kallsyms anew on every read, a page at a
// time, each of its lines through vsnprintf and kallsyms_expand_symbol: dear
// next to the rest of folding a system-wide recording. perf record leaves a
// copy in the build-id cache,
// DEBUG_DIR/[kernel.kallsyms]/<build id>/kallsyms, written when that
// directory was first made (possibly in an earlier boot, before modules came
// or went). Reading it is a plain file read.
//
// When it stands in (all must hold):
//   - the running kernel's build id (/sys/kernel/notes) names the copy;
//   - the first read of /proc/kallsyms (one page of lines, the kernel's
//     first symbols with their addresses) equals the copy's start: the
//     same load address (KASLR) and the same address visibility
//     (kptr_restrict shows zeros to some readers);
//   - the copy's modules are the loaded ones (/proc/modules), each with
//     its text symbols inside the module's memory there, and no module
//     loaded now is missing from the copy.
// The kernel proper's symbols are fixed by its build and load address.
// The "modules" [bpf] and [__builtin__*] (BPF programs, ftrace and kprobe
// trampolines) come and go but are not checked: perf discards their
// symbols, since no module map bears their names, and so does the replay
// (a module DSO only ever takes the table of its own name). Otherwise
// /proc/kallsyms is read, as perf script reads it.
#ifndef FLAMEFOLD_SYMBOLS_KALLSYMS_COPY_H_
#define FLAMEFOLD_SYMBOLS_KALLSYMS_COPY_H_

#include <string>
#include <string_view>
#include <vector>

#include "symbols/kallsyms.h"
#include "symbols/symbol_table.h"

namespace flamefold {

/// The files that describe the running kernel; tests point them elsewhere.
struct KernelFiles {
  std::string kallsyms = "/proc/kallsyms";
  std::string modules = "/proc/modules";
  std::string notes = "/sys/kernel/notes";
};

/// The GNU build id (raw bytes) among ELF notes as /sys/kernel/notes
/// holds them (native byte order, fields 4-byte aligned); "" if none.
std::string BuildIdFromNotes(std::string_view notes);

/// Whether the copy, whose text starts with `copy_head` and whose module
/// tables LoadKallsyms made as `copy_modules`, names what the kernel's
/// file would now: `kallsyms_head` is the first read of that file (not
/// empty), `modules` the text of /proc/modules ("" when the kernel has no
/// modules). See the file comment.
bool KallsymsCopyIsCurrent(std::string_view copy_head,
                           const std::vector<KallsymsModule>& copy_modules,
                           std::string_view kallsyms_head,
                           std::string_view modules);

/// Loads the kernel symbols into `core` and `modules` as LoadKallsyms does
/// from `files.kallsyms`, but from the copy under `debug_dir` when
/// KallsymsCopyIsCurrent; sets `*from_copy` to which. False only when the
/// kernel's file cannot be read either. `in_place`: as LoadKallsyms's.
bool LoadCurrentKallsyms(const KernelFiles& files, const std::string& debug_dir,
                         SymbolTable* core, std::vector<KallsymsModule>* modules,
                         bool* from_copy, std::string* err,
                         bool in_place = false);

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_KALLSYMS_COPY_H_
