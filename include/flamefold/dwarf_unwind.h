// DwarfUnwinder: the user-space frames of a `perf record --call-graph
// dwarf` sample, from the registers and the stack copy it carries, with
// elfutils libdwfl's frame API over the .eh_frame/.debug_frame of the
// mapped files, as perf script unwinds them (perf 6.1 with libunwind):
//   - the first frame is the sampled instruction pointer, whatever
//     happens next;
//   - each caller is the return address minus one (so that it falls in
//     the calling instruction), unless the frame below is a signal frame;
//   - memory is read from the stack copy (a word at the copy's very end
//     is refused, as perf refuses it) or else from the file mapped there;
//     anything else ends the walk;
//   - at most `max_frames` frames.
// One unwinder serves one address space and keeps its libdwfl session and
// the modules reported to it, so CFI is parsed once per file, not once per
// sample.
#ifndef FLAMEFOLD_DWARF_UNWIND_H_
#define FLAMEFOLD_DWARF_UNWIND_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace flamefold {

/// How perf's sample registers map to DWARF registers on one architecture.
/// Adding an architecture is adding a row to the table in the .cc.
struct RegisterMap {
  const char* arch;       // as perf.data's arch feature names it
  const char* elf_arch;   // the ELF machine libdw needs, for messages
  int perf_ip, perf_sp;   // perf register numbers of the PC and SP
  int dwarf_nregs;        // DWARF registers libdw tracks for the arch
  struct Pair {
    int8_t perf, dwarf;
  };
  const Pair* pairs;      // terminated by {-1, -1}
};

/// The table row for `arch` ("x86_64", "aarch64"...), nullptr if none.
const RegisterMap* RegisterMapFor(std::string_view arch);

/// The value of perf register `perf_reg` in a sample whose registers were
/// recorded with `mask` (sample_regs_user): registers are stored in the
/// order of the mask's bits. False when it was not recorded.
bool PerfRegister(uint64_t mask, const std::vector<uint64_t>& regs,
                  int perf_reg, uint64_t* value);

/// What the unwinder needs to know of the address space.
struct UnwindMapping {
  uint64_t start = 0, end = 0, pgoff = 0;
  std::string file;  // the file on disk to read; "" when there is none
};
class UnwindMaps {
 public:
  virtual ~UnwindMaps() = default;
  /// The file-backed mapping holding `addr`; false when none.
  virtual bool Find(uint64_t addr, UnwindMapping* out) = 0;
};

/// Bytes of mapped files, read for the unwinder; one per run, shared.
class FileBytes {
 public:
  FileBytes();
  ~FileBytes();
  /// The whole file (mapped once); empty when it cannot be read.
  std::string_view Get(const std::string& path);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct UnwindSample {
  uint64_t regs_mask = 0;
  const std::vector<uint64_t>* regs = nullptr;
  std::string_view stack;
  uint32_t tid = 0;
};

class DwarfUnwinder {
 public:
  DwarfUnwinder(const RegisterMap* arch, UnwindMaps* maps, FileBytes* files);
  ~DwarfUnwinder();
  DwarfUnwinder(const DwarfUnwinder&) = delete;
  DwarfUnwinder& operator=(const DwarfUnwinder&) = delete;

  /// The frames of `sample`, innermost first, into `*ips` (cleared). Empty
  /// when the sample has no PC or SP.
  void Unwind(const UnwindSample& sample, size_t max_frames,
              std::vector<uint64_t>* ips);

  /// Forgets the modules reported so far (the address space changed).
  void Reset();

  /// For the callbacks: a word of the sample's memory.
  bool ReadWord(uint64_t addr, uint64_t* value);
  /// For the callbacks: the initial registers.
  bool SetRegisters(void* thread);
  /// For the callbacks: reports the module holding `pc` if needed.
  void Report(uint64_t pc);

 private:
  struct Session;
  const RegisterMap* arch_;
  UnwindMaps* maps_;
  FileBytes* files_;
  std::unique_ptr<Session> session_;
  const UnwindSample* sample_ = nullptr;
  uint64_t sp_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_DWARF_UNWIND_H_
