#include "differential/diff_table.h"

#include <cmath>
#include <vector>

#include "base/string_sort.h"

namespace flamefold {
namespace {

bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
         (c >= 'A' && c <= 'F');
}

// Perl's int() of a non-negative double: an unsigned integer when it fits,
// the floor as a double beyond 2**64.
PerlNumber PerlInt(double v) {
  if (v < 18446744073709551616.0) {
    return PerlNumber::FromUint(static_cast<uint64_t>(v));
  }
  return PerlNumber::FromDouble(std::floor(v));
}

}  // namespace

std::string StripHexAddresses(std::string_view stack) {
  std::string out;
  out.reserve(stack.size());
  size_t i = 0;
  while (i < stack.size()) {
    if (stack[i] == '0' && i + 2 < stack.size() && stack[i + 1] == 'x' &&
        IsHexDigit(stack[i + 2])) {
      size_t j = i + 2;
      while (j < stack.size() && IsHexDigit(stack[j])) ++j;
      out += "0x...";
      i = j;
      continue;
    }
    out += stack[i++];
  }
  return out;
}

bool PerlNumbersEqual(const PerlNumber& a, const PerlNumber& b) {
  if (a.is_integer() && b.is_integer()) return a.uint_value() == b.uint_value();
  return a.AsDouble() == b.AsDouble();
}

PerlNumber ScaleCount(const PerlNumber& count1, const PerlNumber& total2,
                      const PerlNumber& total1) {
  if (count1.is_integer() && total2.is_integer() && total1.is_integer()) {
    uint64_t product;
    if (!__builtin_mul_overflow(count1.uint_value(), total2.uint_value(),
                                &product)) {
      uint64_t t1 = total1.uint_value();
      // Perl divides integers exactly when the quotient is exact, and in
      // doubles otherwise (where rounding may carry the quotient up).
      if (product % t1 == 0) return PerlNumber::FromUint(product / t1);
      return PerlInt(static_cast<double>(product) / static_cast<double>(t1));
    }
  }
  return PerlInt(count1.AsDouble() * total2.AsDouble() / total1.AsDouble());
}

void DiffTable::Add(int side, std::string_view stack,
                    const PerlNumber& count) {
  bool added = false;
  const SymbolId id = stacks_.Intern(stack, &added);
  if (added) rows_.emplace_back();
  rows_[id].count[side].Add(count);
  total_[side].Add(count);
}

void DiffTable::Visit(
    const std::function<void(std::string_view, const PerlNumber*)>& visit)
    const {
  for (SymbolId id = 0; id < rows_.size(); ++id) {
    visit(stacks_.Get(id), rows_[id].count);
  }
}

bool DiffTable::Write(bool normalize, OutputSink* out) const {
  bool scale = normalize && !PerlNumbersEqual(total_[0], total_[1]);
  if (scale && total_[0].IsZero() && !rows_.empty()) return false;
  std::string line;
  for (const SortableString& s : SortedStrings(stacks_)) {
    const Row& row = rows_[s.id];
    PerlNumber c1 = row.count[0];
    if (scale) c1 = ScaleCount(c1, total_[1], total_[0]);
    line.assign(s.text);
    line += ' ';
    c1.AppendTo(&line);
    line += ' ';
    row.count[1].AppendTo(&line);
    line += '\n';
    out->Write(line);
  }
  return true;
}

}  // namespace flamefold
