// Frame colours as flamegraph.pl chooses them.
//
// flamegraph.pl picks a colour from a palette ("hot", "java", ...) and up to
// three values v1, v2, v3 in [0, 1) that come from the frame's name:
//   default   Perl's drand48, seeded with the sum of the name's code points,
//             drawn three times (always the same value, the seed is reset);
//   --hash    a weighted hash of the first three characters of the name
//             (v1) and of the reversed name (v2 = v3);
//   --random  three draws of an unseeded generator.
// Differential graphs use a red/blue scale of the frame's delta instead.
// Reproducing each of these bit for bit is what makes our pictures equal to
// flamegraph.pl's.
#ifndef FLAMEFOLD_FLAMEGRAPH_PALETTE_H_
#define FLAMEFOLD_FLAMEGRAPH_PALETTE_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace flamefold {

/// Perl's own drand48, which its rand() uses on every platform: a 48-bit
/// linear congruential generator.
class Drand48 {
 public:
  /// Perl's srand(seed): the state becomes (seed32 << 16) + 0x330E.
  explicit Drand48(uint32_t seed = 0) { Seed(seed); }
  void Seed(uint32_t seed) {
    state_ = ((static_cast<uint64_t>(seed) << 16) + 0x330E) & kMask;
  }
  /// Perl's rand(1): the next state divided by 2^48.
  double Next();

 private:
  static constexpr uint64_t kMask = (uint64_t{1} << 48) - 1;
  uint64_t state_;
};

/// Sum of the code points of UTF-8 `name` modulo 2^32 (unpack "%32W*").
/// Invalid bytes count as their byte value.
uint32_t CodePointSum(std::string_view name);

/// flamegraph.pl's namehash(): 1 - (weighted sum of the first three code
/// points, each taken modulo 10, 11, 12) / (sum of weights). Text up to and
/// including the first '`' that is not the first character is skipped first
/// (DTrace "module`function" names).
double NameHash(std::string_view name);

/// `name` with its code points in reverse order (Perl's scalar reverse).
std::string ReverseCodePoints(std::string_view name);

enum class ColorMode { kSeeded, kHash, kRandom };

/// Produces the colour values of a frame name.
class ColorSource {
 public:
  /// `random_seed` seeds the --random generator.
  explicit ColorSource(ColorMode mode, uint32_t random_seed = 0)
      : mode_(mode), random_(random_seed) {}
  /// The "rgb(r,g,b)" flamegraph.pl's color($palette, $hash, $name) returns.
  /// Unknown palettes give "rgb(0,0,0)", as in flamegraph.pl.
  std::string Color(std::string_view palette, std::string_view name);
  /// Whether a name always gets the same colour (not --random).
  bool by_name() const { return mode_ != ColorMode::kRandom; }

 private:
  ColorMode mode_;
  Drand48 random_;
};

/// The annotation flamefold --on-off gives every frame of an off-CPU stack
/// ("futex_wait_queue_[o]"), as perf's "_[k]" marks kernel frames.
inline constexpr std::string_view kOffCpuAnnotation = "_[o]";

/// True when `name` ends in kOffCpuAnnotation. Such frames take the "blue"
/// palette whatever palette is chosen (the cold half of a hot/cold graph);
/// their values still come from the name as for any frame.
bool IsOffCpuFrame(std::string_view name);

/// The fill of a frame named `name`, not differential, without --cp:
/// flamegraph.pl's greys for the "--" and "-" separators, else
/// `colors->Color(palette, name)`.
std::string NameColor(std::string_view name, std::string_view palette,
                      ColorSource* colors);

/// The palettes --colors names, as flamegraph.pl knows them:
/// "hot, mem, io, ...".
extern const std::string_view kPaletteNames;

/// True when `palette` is one of kPaletteNames; flamegraph.pl paints every
/// frame of any other palette black.
bool IsKnownPalette(std::string_view palette);

/// "rgb(r,g,b)" of a differential frame: delta > 0 is red, < 0 blue, 0
/// white; `negate` swaps them. `max_delta` is the largest |delta| (>= 1).
std::string DeltaColor(double delta, double max_delta, bool negate);

/// The background gradient (two "#rrggbb" stops) for --bgcolors `name`; an
/// empty `name` picks the palette's default. Returns false for an unknown
/// name.
bool BackgroundColors(std::string_view name, std::string_view palette,
                      std::string* top, std::string* bottom);

/// A palette map (--cp): frame name -> "rgb(r,g,b)", read from and written
/// back to a file of "NAME->rgb(r,g,b)" lines, sorted by name.
class PaletteMap {
 public:
  /// Loads `path` when it exists (a missing file is an empty map). Returns
  /// false with `*err` on a read error.
  bool Load(const std::string& path, std::string* err);
  /// The colour stored for `name`, computing and storing it when absent.
  const std::string& Get(std::string_view name, std::string_view palette,
                         ColorSource* colors);
  /// Writes every entry, sorted by name. Returns false with `*err`.
  bool Save(const std::string& path, std::string* err) const;
  const std::map<std::string, std::string, std::less<>>& entries() const {
    return map_;
  }

 private:
  std::map<std::string, std::string, std::less<>> map_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_FLAMEGRAPH_PALETTE_H_
