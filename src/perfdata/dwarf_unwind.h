// DwarfUnwinder: the user-space frames of a `perf record --call-graph
// dwarf` sample, from the registers and the stack copy it carries, the way
// perf script (6.1, built with libunwind) walks them:
//   - the first frame is the sampled instruction pointer, whatever
//     happens next;
//   - each step applies the CFI of the frame's address (elfutils libdw
//     parses .eh_frame, when the file has .eh_frame_hdr; never
//     .debug_frame, which perf 6.1 as Debian builds it cannot read): the
//     CFA, then the caller's registers and return address; the stack
//     pointer reads as the CFA, as in libunwind;
//   - where the object has CFI that does not cover the address,
//     libunwind's fallbacks on x86-64: at a PLT entry (known by its
//     bytes), the return address at the CFA (then the CFA moves by 8);
//     else the guess, the frame pointer chain, if RBP points a little
//     above the CFA (then the CFA moves by 16); where there is
//     no mapping, no file or no CFI at all, the walk ends;
//   - each caller is the return address minus one (so that it falls in
//     the calling instruction), unless its frame is a signal frame;
//   - memory is read from the stack copy (a word at the copy's very end
//     is refused, as perf refuses it), else from the file mapped there;
//     a read outside every mapping fails and ends the walk, but one inside
//     a mapping whose file cannot give the word (past the copy on the
//     stack, anonymous memory, past the file's end) reads as 0, because
//     perf's access_dso_mem then returns 1, which libunwind takes for
//     success (so perf prints a last frame 0xffffffffffffffff where a
//     return address lay past the stack copy);
//   - at most `max_frames` frames.
// The unwinding rules are cached per (file, address), so the cost of the
// CFI follows the distinct code locations, not the samples.
#ifndef FLAMEFOLD_PERFDATA_DWARF_UNWIND_H_
#define FLAMEFOLD_PERFDATA_DWARF_UNWIND_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace flamefold {

/// How perf's sample registers map to DWARF registers on one architecture.
/// Adding an architecture is adding a row to the table in
/// register_maps.cc.
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
  // The lowest start of all the mappings of the same object in the address
  // space (those left from before an exec included): perf 6.1 places the
  // object's .eh_frame_hdr there (read_unwind_spec_eh_frame), so that when
  // a stale mapping lies lower, its CFI is not found and libunwind guesses.
  uint64_t lowest_start = 0;
  // The object on disk (code, CFI); "" when there is none. A view of a
  // string that outlives the unwinding (the DSO's).
  std::string_view file;
};
class UnwindMaps {
 public:
  virtual ~UnwindMaps() = default;
  /// The mapping holding `addr` (`file` empty when it has none: anonymous
  /// memory, the stack, a JIT map); false when no mapping holds it.
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
  std::string_view Bytes(std::string_view path);

  struct Rule;
  struct File;
  /// The unwinding rule at the run-time address `ip` of the object `m.file`
  /// mapped as `m`: from its .eh_frame (through .eh_frame_hdr), placed as
  /// perf places it (see UnwindMapping::lowest_start); never from
  /// .debug_frame, which perf 6.1 as Debian builds it does not read.
  /// nullptr when that CFI does not cover the address. Cached per file
  /// address. `*has_cfi` says whether the object has .eh_frame_hdr.
  const Rule* RuleAt(const UnwindMapping& m, uint64_t ip, bool* has_cfi);

 private:
  File* Get(std::string_view path);
  File* Open(const std::string& path);
  std::unique_ptr<struct UnwindFilesImpl> impl_;
};

struct UnwindSample {
  uint64_t regs_mask = 0;
  const std::vector<uint64_t>* regs = nullptr;
  std::string_view stack;
};

/// Why a walk ended before the outermost frame (whose return address the
/// CFI marks undefined) or the frame limit. Each is a place where perf's
/// stacks may be short too, but never one to pass over without a word.
enum class UnwindStop : uint8_t {
  kNone,          // the outermost frame, or `max_frames`
  kNoCfi,         // no mapping, no file or no CFI at all there: it ends
  kGuessed,       // CFI that does not cover the address: the frame-pointer
                  // guess was used
  kStackCopy,     // a read past the end of the sample's stack copy
  kUnreadable,    // a register or a word that could not be recovered
  kNoObject,      // no object of the process could be read: perf gives
                  // no user frame at all
};
const char* UnwindStopName(UnwindStop stop);

struct UnwindResult {
  UnwindStop stop = UnwindStop::kNone;
  uint64_t where = 0;  // the address of the frame where it happened
};

class DwarfUnwinder {
 public:
  DwarfUnwinder(const RegisterMap* arch, UnwindMaps* maps,
                UnwindFiles* files);

  /// The frames of `sample`, innermost first, into `*ips` (cleared). Empty
  /// when the sample has no PC or SP. The result says whether the walk ended
  /// early or left the CFI for the frame-pointer guess (the first such
  /// frame).
  UnwindResult Unwind(const UnwindSample& sample, size_t max_frames,
                      std::vector<uint64_t>* ips);

 private:
  struct State;
  bool ReadWord(uint64_t addr, uint64_t* value);
  int Step(State* s);
  const UnwindFiles::Rule* RuleFor(uint64_t look);
  int StepByRule(const UnwindFiles::Rule& rule, State* s);
  int StepWithoutRule(State* s);
  bool AtPltEntry(uint64_t ip);
  int StepByFramePointer(int fp, State* s);

  const RegisterMap* arch_;
  UnwindMaps* maps_;
  UnwindFiles* files_;
  const UnwindSample* sample_ = nullptr;
  uint64_t sp_ = 0;
  bool read_past_copy_ = false;  // the last failed read was above the copy
  bool no_cfi_ = false;   // the last Step found no CFI for its object
  bool guessed_ = false;  // the last Step guessed by the frame pointer
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_DWARF_UNWIND_H_
