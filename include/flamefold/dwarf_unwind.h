// DwarfUnwinder: the user-space frames of a `perf record --call-graph
// dwarf` sample, from the registers and the stack copy it carries, the way
// perf script (6.1, built with libunwind) walks them:
//   - the first frame is the sampled instruction pointer, whatever
//     happens next;
//   - each step applies the CFI of the frame's address (elfutils libdw
//     parses .eh_frame, when the file has .eh_frame_hdr, else
//     .debug_frame): the CFA, then the caller's registers and return
//     address; the stack pointer reads as the CFA, as in libunwind;
//   - without CFI, libunwind's guess on x86-64: the frame pointer chain,
//     if RBP points a little above the CFA (then the CFA moves by 16);
//   - each caller is the return address minus one (so that it falls in
//     the calling instruction), unless its frame is a signal frame;
//   - memory is read from the stack copy (a word at the copy's very end
//     is refused, as perf refuses it), else from the file mapped there;
//     a read that fails ends the walk;
//   - at most `max_frames` frames.
// The unwinding rules are cached per (file, address), so the cost of the
// CFI follows the distinct code locations, not the samples.
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
  int perf_ip, perf_sp;   // perf register numbers of the PC and SP
  int dwarf_sp;           // DWARF number of the stack pointer
  int dwarf_fp;           // of the frame pointer; -1: no frame-chain guess
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

/// Files read for unwinding (their bytes and CFI), with the rules found
/// for each address; one per run, shared by the address spaces.
class UnwindFiles {
 public:
  UnwindFiles();
  ~UnwindFiles();
  UnwindFiles(const UnwindFiles&) = delete;
  UnwindFiles& operator=(const UnwindFiles&) = delete;

  /// The whole file (mapped once); empty when it cannot be read.
  std::string_view Bytes(const std::string& path);

  struct Rule;
  struct File;
  /// The unwinding rule at `addr` (the file's own addresses) of `path`;
  /// nullptr when its CFI does not cover `addr`. Cached.
  const Rule* RuleAt(const std::string& path, uint64_t addr);

 private:
  File* Get(const std::string& path);
  std::unique_ptr<struct UnwindFilesImpl> impl_;
};

struct UnwindSample {
  uint64_t regs_mask = 0;
  const std::vector<uint64_t>* regs = nullptr;
  std::string_view stack;
};

class DwarfUnwinder {
 public:
  DwarfUnwinder(const RegisterMap* arch, UnwindMaps* maps,
                UnwindFiles* files);

  /// The frames of `sample`, innermost first, into `*ips` (cleared). Empty
  /// when the sample has no PC or SP.
  void Unwind(const UnwindSample& sample, size_t max_frames,
              std::vector<uint64_t>* ips);

 private:
  struct State;
  bool ReadWord(uint64_t addr, uint64_t* value);
  int Step(State* s);

  const RegisterMap* arch_;
  UnwindMaps* maps_;
  UnwindFiles* files_;
  const UnwindSample* sample_ = nullptr;
  uint64_t sp_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_DWARF_UNWIND_H_
