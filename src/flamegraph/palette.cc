#include "flamegraph/palette.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "flamegraph/svg_text.h"
#include "io/file_source.h"
#include "io/line_reader.h"

namespace flamefold {
namespace {

struct Rgb {
  int r, g, b;
};

std::string RgbText(Rgb c) {
  std::string out;
  out.reserve(20);
  out += "rgb(";
  const int parts[] = {c.r, c.g, c.b};
  char digits[16];
  for (int i = 0; i < 3; ++i) {
    out.append(digits, std::to_chars(digits, digits + sizeof digits, parts[i]).ptr);
    out += i < 2 ? ',' : ')';
  }
  return out;
}

// Perl's int(): truncation toward zero.
int Trunc(double v) { return static_cast<int>(std::trunc(v)); }

bool EndsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// m:^L?(java|javax|jdk|net|org|com|io|sun)/:
bool LooksLikeJavaPackage(std::string_view name) {
  if (!name.empty() && name[0] == 'L') name.remove_prefix(1);
  for (std::string_view pkg : {"java/", "javax/", "jdk/", "net/", "org/",
                               "com/", "io/", "sun/"}) {
    if (name.substr(0, pkg.size()) == pkg) return true;
  }
  return false;
}

// m:/.*\.js: : a '/' followed later by ".js".
bool LooksLikeJsPath(std::string_view name) {
  size_t slash = name.find('/');
  return slash != std::string_view::npos &&
         name.find(".js", slash + 1) != std::string_view::npos;
}

// The multi palettes choose one of the flat palettes by the frame's name.
// An off-CPU frame is blue in every palette (a rule of ours, not Perl's).
std::string_view FlatPaletteFor(std::string_view palette,
                                std::string_view name) {
  if (IsOffCpuFrame(name)) return "blue";
  if (palette == "java") {
    if (EndsWith(name, "_[j]")) return "green";
    if (EndsWith(name, "_[i]")) return "aqua";
    if (LooksLikeJavaPackage(name)) return "green";
    if (Contains(name, ":::")) return "green";
    if (Contains(name, "::")) return "yellow";
    if (EndsWith(name, "_[k]")) return "orange";
    return "red";
  }
  if (palette == "perl") {
    if (Contains(name, "::")) return "yellow";
    if (Contains(name, "Perl") || Contains(name, ".pl")) return "green";
    if (EndsWith(name, "_[k]")) return "orange";
    return "red";
  }
  if (palette == "js") {
    if (EndsWith(name, "_[j]")) return Contains(name, "/") ? "green" : "aqua";
    if (Contains(name, "::")) return "yellow";
    if (LooksLikeJsPath(name)) return "green";
    if (Contains(name, ":")) return "aqua";
    if (name == " ") return "green";
    if (Contains(name, "_[k]")) return "orange";
    return "red";
  }
  if (palette == "wakeup") return "aqua";
  if (palette == "chain") return Contains(name, "_[w]") ? "aqua" : "blue";
  return palette;
}

// Colour of palette `p` for values v1..v3; false for an unknown palette.
bool PaletteColor(std::string_view p, double v1, double v2, double v3,
                  Rgb* c) {
  if (p == "hot") {
    *c = {205 + Trunc(50 * v3), Trunc(230 * v1), Trunc(55 * v2)};
  } else if (p == "mem") {
    *c = {0, 190 + Trunc(50 * v2), Trunc(210 * v1)};
  } else if (p == "io") {
    int r = 80 + Trunc(60 * v1);
    *c = {r, r, 190 + Trunc(55 * v2)};
  } else if (p == "red") {
    int x = 50 + Trunc(80 * v1);
    *c = {200 + Trunc(55 * v1), x, x};
  } else if (p == "green") {
    int x = 50 + Trunc(60 * v1);
    *c = {x, 200 + Trunc(55 * v1), x};
  } else if (p == "blue") {
    int x = 80 + Trunc(60 * v1);
    *c = {x, x, 205 + Trunc(50 * v1)};
  } else if (p == "yellow") {
    int x = 175 + Trunc(55 * v1);
    *c = {x, x, 50 + Trunc(20 * v1)};
  } else if (p == "purple") {
    int x = 190 + Trunc(65 * v1);
    *c = {x, 80 + Trunc(60 * v1), x};
  } else if (p == "aqua") {
    *c = {50 + Trunc(60 * v1), 165 + Trunc(55 * v1), 165 + Trunc(55 * v1)};
  } else if (p == "orange") {
    *c = {190 + Trunc(65 * v1), 90 + Trunc(65 * v1), 0};
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool IsOffCpuFrame(std::string_view name) {
  return EndsWith(name, kOffCpuAnnotation);
}

const std::string_view kPaletteNames =
    "hot, mem, io, wakeup, chain, java, js, perl, red, green, blue, aqua, "
    "yellow, purple, orange";

// Known when it has colours: a flat palette, or a multi palette whose
// choice for any name is one.
bool IsKnownPalette(std::string_view palette) {
  Rgb c;
  return PaletteColor(FlatPaletteFor(palette, ""), 0, 0, 0, &c);
}

double Drand48::Next() {
  state_ = (state_ * 0x5DEECE66Dull + 0xB) & kMask;
  return std::ldexp(static_cast<double>(state_), -48);
}

uint32_t CodePointSum(std::string_view name) {
  uint32_t sum = 0;
  for (size_t i = 0; i < name.size();) sum += NextCodePoint(name, &i);
  return sum;
}

double NameHash(std::string_view name) {
  // s/.(.*?)`//: from the start through the first '`' after the first
  // character.
  if (!name.empty()) {
    size_t first = 0;
    NextCodePoint(name, &first);
    size_t tick = name.find('`', first);
    if (tick != std::string_view::npos) name.remove_prefix(tick + 1);
  }
  double vector = 0, weight = 1, max = 1;
  int mod = 10;
  for (size_t i = 0; i < name.size();) {
    uint32_t cp = NextCodePoint(name, &i);
    int v = static_cast<int>(cp % static_cast<uint32_t>(mod));
    vector += (static_cast<double>(v) / (mod - 1)) * weight;
    ++mod;
    max += 1 * weight;
    weight *= 0.70;
    if (mod > 12) break;
  }
  return 1 - vector / max;
}

std::string ReverseCodePoints(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  size_t end = name.size();
  while (end > 0) {
    // Find the start of the last code point before `end`.
    size_t start = end - 1;
    while (start > 0 && end - start < 4 &&
           (static_cast<unsigned char>(name[start]) & 0xC0) == 0x80) {
      --start;
    }
    size_t probe = start;
    NextCodePoint(name, &probe);
    if (probe != end) start = end - 1;  // not one valid sequence: one byte
    out.append(name.substr(start, end - start));
    end = start;
  }
  return out;
}

std::string ColorSource::Color(std::string_view palette,
                               std::string_view name) {
  double v1, v2, v3;
  switch (mode_) {
    case ColorMode::kHash:
      v1 = NameHash(name);
      v2 = v3 = NameHash(ReverseCodePoints(name));
      break;
    case ColorMode::kRandom:
      v1 = random_.Next();
      v2 = random_.Next();
      v3 = random_.Next();
      break;
    case ColorMode::kSeeded:
    default: {
      Drand48 seeded(CodePointSum(name));
      v1 = v2 = v3 = seeded.Next();
      break;
    }
  }
  Rgb c{0, 0, 0};
  PaletteColor(FlatPaletteFor(palette, name), v1, v2, v3, &c);
  return RgbText(c);
}

std::string NameColor(std::string_view name, std::string_view palette,
                      ColorSource* colors) {
  if (name == "--") return "rgb(160,160,160)";
  if (name == "-") return "rgb(200,200,200)";
  return colors->Color(palette, name);
}

std::string DeltaColor(double delta, double max_delta, bool negate) {
  if (negate) delta = -delta;
  Rgb c{255, 255, 255};
  if (delta > 0) {
    c.g = c.b = Trunc(210 * (max_delta - delta) / max_delta);
  } else if (delta < 0) {
    c.r = c.g = Trunc(210 * (max_delta + delta) / max_delta);
  }
  return RgbText(c);
}

bool BackgroundColors(std::string_view name, std::string_view palette,
                      std::string* top, std::string* bottom) {
  if (name.empty()) {
    if (palette == "mem") {
      name = "green";
    } else if (palette == "io" || palette == "wakeup" || palette == "chain") {
      name = "blue";
    } else if (palette == "red" || palette == "green" || palette == "blue" ||
               palette == "aqua" || palette == "yellow" ||
               palette == "purple" || palette == "orange") {
      name = "grey";
    } else {
      name = "yellow";
    }
  }
  if (name == "yellow") {
    *top = "#eeeeee";
    *bottom = "#eeeeb0";
  } else if (name == "blue") {
    *top = "#eeeeee";
    *bottom = "#e0e0ff";
  } else if (name == "green") {
    *top = "#eef2ee";
    *bottom = "#e0ffe0";
  } else if (name == "grey") {
    *top = "#f8f8f8";
    *bottom = "#e8e8e8";
  } else if (name.size() == 7 && name[0] == '#' &&
             CodePointCount(name) == 7) {
    *top = *bottom = std::string(name);
  } else {
    return false;
  }
  return true;
}

bool PaletteMap::Load(const std::string& path, std::string* err) {
  std::string text;
  int error_number = 0;
  if (!ReadFile(path, &text, err, &error_number)) {
    if (error_number != ENOENT) return false;
    err->clear();  // no palette saved yet
    return true;
  }
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(&line) != LineReader::kEof) {
    // Perl's split("->", $line): the key is the text before the first
    // "->" and the value the text up to the next one.
    size_t arrow = line.find("->");
    std::string_view key = line.substr(0, arrow);
    std::string value;
    if (arrow != std::string_view::npos) {
      size_t next = line.find("->", arrow + 2);
      value = line.substr(arrow + 2, next == std::string_view::npos
                                         ? std::string_view::npos
                                         : next - arrow - 2);
    }
    std::string valid;
    AppendValidUtf8(key, &valid);
    map_[valid] = value;
  }
  return true;
}

const std::string& PaletteMap::Get(std::string_view name,
                                   std::string_view palette,
                                   ColorSource* colors) {
  auto it = map_.find(name);
  if (it != map_.end()) return it->second;
  return map_.emplace(std::string(name), colors->Color(palette, name))
      .first->second;
}

bool PaletteMap::Save(const std::string& path, std::string* err) const {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    *err = path + ": " + std::strerror(errno);
    return false;
  }
  for (const auto& [key, value] : map_) {
    std::fwrite(key.data(), 1, key.size(), f);
    std::fwrite("->", 1, 2, f);
    std::fwrite(value.data(), 1, value.size(), f);
    std::fputc('\n', f);
  }
  if (std::fclose(f) != 0) {
    *err = path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace flamefold
