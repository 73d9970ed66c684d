// DiffTable: two folded profiles side by side, as difffolded.pl pairs them.
//
// difffolded.pl reads each file with /^(.*)\s+?(\d+(?:\.\d*)?)$/, sums the
// counts per stack into column 1 (first file) or 2 (second file), and prints
// "STACK COUNT1 COUNT2" for every stack seen in either file, 0 for a missing
// column. It prints them in Perl's hash order; we print them sorted by stack
// (bytewise), so the same inputs always give the same output.
#ifndef FLAMEFOLD_DIFFERENTIAL_DIFF_TABLE_H_
#define FLAMEFOLD_DIFFERENTIAL_DIFF_TABLE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/output.h"
#include "base/perl_number.h"
#include "base/string_interner.h"

namespace flamefold {

/// difffolded.pl -s: every "0x" followed by hex digits becomes "0x...", so
/// "f+0x1a2b;g 5" and "f+0x99;g 3" become the same stack.
std::string StripHexAddresses(std::string_view stack);

/// Perl's numeric `==` on two counts: exact on integers, double otherwise.
bool PerlNumbersEqual(const PerlNumber& a, const PerlNumber& b);

/// difffolded.pl -n: int(count1 * total2 / total1) with Perl's arithmetic
/// (an integer product while it fits in 64 bits, an exact quotient when the
/// division is exact, a double division otherwise, then truncation).
/// `total1` must not be zero.
PerlNumber ScaleCount(const PerlNumber& count1, const PerlNumber& total2,
                      const PerlNumber& total1);

class DiffTable {
 public:
  /// Adds `count` to `stack` in column `side` (0: before, 1: after).
  void Add(int side, std::string_view stack, const PerlNumber& count);

  const PerlNumber& total(int side) const { return total_[side]; }
  /// Calls `visit(stack, counts)` for every stack, in no particular order;
  /// `counts` points to the two columns.
  void Visit(const std::function<void(std::string_view, const PerlNumber*)>&
                 visit) const;
  size_t size() const { return rows_.size(); }

  /// Writes "STACK COUNT1 COUNT2\n" for every stack, sorted by stack. With
  /// `normalize` (-n), column 1 is scaled to column 2's total when the
  /// totals differ. Returns false (nothing written) when normalising needs
  /// to divide by a zero first total, which makes difffolded.pl die.
  bool Write(bool normalize, OutputSink* out) const;

 private:
  struct Row {
    PerlNumber count[2];
  };
  // Each stack once, by id (its bytes stored once, no string of its own), and
  // its row at that id: a line allocates nothing unless its stack is new. The
  // output's order comes from SortedStrings, which sorts the distinct stacks
  // 8 bytes at a time rather than comparing whole stacks.
  StringInterner stacks_;
  std::vector<Row> rows_;
  PerlNumber total_[2];
};

}  // namespace flamefold

#endif  // FLAMEFOLD_DIFFERENTIAL_DIFF_TABLE_H_
