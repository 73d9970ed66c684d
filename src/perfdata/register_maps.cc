// The register tables of DwarfUnwinder: perf's sample registers against
// the DWARF numbers, per architecture.
#include "perfdata/dwarf_unwind.h"

#include <bit>

namespace flamefold {
namespace {

// perf's PERF_REG_X86_* (arch/x86/include/uapi/asm/perf_regs.h) against the
// x86-64 psABI DWARF numbers; the return address column 16 is the PC.
constexpr RegisterMap::Pair kX86_64[] = {
    {0, 0},    // ax
    {3, 1},    // dx
    {2, 2},    // cx
    {1, 3},    // bx
    {4, 4},    // si
    {5, 5},    // di
    {6, 6},    // bp
    {7, 7},    // sp
    {16, 8},  {17, 9},  {18, 10}, {19, 11},  // r8-r11
    {20, 12}, {21, 13}, {22, 14}, {23, 15},  // r12-r15
    {8, 16},   // ip
    {-1, -1},
};

// perf's PERF_REG_ARM64_* against the AArch64 DWARF numbers: x0-x30 and sp
// keep their numbers; the PC has no DWARF number (the unwinder keeps it
// apart, as for every architecture).
constexpr RegisterMap::Pair kAarch64[] = {
    {0, 0},   {1, 1},   {2, 2},   {3, 3},   {4, 4},   {5, 5},   {6, 6},
    {7, 7},   {8, 8},   {9, 9},   {10, 10}, {11, 11}, {12, 12}, {13, 13},
    {14, 14}, {15, 15}, {16, 16}, {17, 17}, {18, 18}, {19, 19}, {20, 20},
    {21, 21}, {22, 22}, {23, 23}, {24, 24}, {25, 25}, {26, 26}, {27, 27},
    {28, 28}, {29, 29}, {30, 30}, {31, 31},
    {-1, -1},
};

constexpr RegisterMap kRegisterMaps[] = {
    {"x86_64", 8, 7, 7, 6, kX86_64},
    {"aarch64", 32, 31, 31, -1, kAarch64},
};

}  // namespace

const RegisterMap* RegisterMapFor(std::string_view arch) {
  for (const RegisterMap& m : kRegisterMaps) {
    if (arch == m.arch) return &m;
  }
  return nullptr;
}

bool PerfRegister(uint64_t mask, const std::vector<uint64_t>& regs,
                  int perf_reg, uint64_t* value) {
  if (perf_reg < 0 || perf_reg >= 64 || !((mask >> perf_reg) & 1)) {
    return false;
  }
  size_t index = static_cast<size_t>(
      std::popcount(mask & ((uint64_t{1} << perf_reg) - 1)));
  if (index >= regs.size()) return false;
  *value = regs[index];
  return true;
}

}  // namespace flamefold
