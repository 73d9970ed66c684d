// FrameInliner: stackcollapse-perf.pl's --inline and --context. For each
// user frame the Perl script runs
//   addr2line -a PC -e MOD -i -f -s -C
// and puts the functions it prints, outermost first, in place of the
// frame ("main;work;helper"), each followed by ":file:line" with
// --context. We compute addr2line's answer in-process (SourceLines) and
// cache it per (module, address), as the Perl script caches its runs.
#ifndef FLAMEFOLD_SYMBOLS_FRAME_INLINER_H_
#define FLAMEFOLD_SYMBOLS_FRAME_INLINER_H_

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "symbols/source_lines.h"

namespace flamefold {

class FrameInliner {
 public:
  /// `symfs` is put before module paths ("" = none), as perf's --symfs.
  FrameInliner(std::string symfs, bool context);

  /// The Perl script's inline($pc, $rawfunc, $mod): "" when addr2line
  /// fails (no such file), "??" (or "??:??:0" with --context) when it
  /// knows nothing of the address; the caller then keeps the frame as it
  /// is. Thread-safe.
  std::string Expand(std::string_view pc, std::string_view rawfunc,
                     std::string_view mod);

  /// Whether the Perl script tries --inline on frames of `mod` (not the
  /// kernel, perf maps or [bracketed] names).
  static bool Applies(std::string_view mod);

 private:
  std::string Lookup(uint64_t addr, const std::string& path);

  std::string symfs_;
  bool context_;
  std::mutex mu_;
  SourceLines lines_;  // separate debug files under symfs_
  std::map<std::pair<std::string, std::string>, std::string> cache_;
};

/// What `addr2line -i -f -s -C` prints for `look`, in the Perl script's
/// shape: functions outermost first joined by ';', each with
/// ":file:line" when `context`.
std::string InlineChain(const SourceLookup& look, bool context);

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_FRAME_INLINER_H_
