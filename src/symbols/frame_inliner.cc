#include "symbols/frame_inliner.h"

#include <cctype>

#include "base/hex.h"

namespace flamefold {
namespace {

// addr2line reads the address as hex (after an optional "0x") up to the
// first other character.
uint64_t ParseAddress(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
  }
  uint64_t v = 0;
  ParseHex(s, &v);
  return v;
}

std::string_view Basename(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string InlineChain(const SourceLookup& look, bool context) {
  if (!look.found) return context ? "??:??:0" : "??";
  std::string out;
  for (size_t i = look.records.size(); i-- > 0;) {
    const SourceRecord& r = look.records[i];
    if (!out.empty()) out += ';';
    out += r.function.empty() ? "??" : DemangleFull(r.function);
    if (context) {
      out += ':';
      out += Basename(r.file);
      out += ':';
      out += r.line ? std::to_string(r.line) : "?";
    }
  }
  return out;
}

FrameInliner::FrameInliner(std::string symfs, bool context)
    : symfs_(std::move(symfs)), context_(context), lines_(symfs_) {}

bool FrameInliner::Applies(std::string_view mod) {
  // m/(perf-\d+.map|kernel\.|\[[^\]]+\])/
  if (mod.find("kernel.") != std::string_view::npos) return false;
  for (size_t i = 0; i < mod.size(); ++i) {
    if (mod[i] == '[' && i + 1 < mod.size() && mod[i + 1] != ']' &&
        mod.find(']', i + 1) != std::string_view::npos) {
      return false;
    }
    if (mod.compare(i, 5, "perf-") == 0) {
      size_t j = i + 5;
      while (j < mod.size() && std::isdigit(static_cast<unsigned char>(mod[j]))) {
        ++j;
      }
      if (j > i + 5 && j + 4 <= mod.size() && mod.compare(j + 1, 3, "map") == 0) {
        return false;
      }
    }
  }
  return true;
}

std::string FrameInliner::Lookup(uint64_t addr, const std::string& path) {
  // A fresh addr2line for each address: its answer depends on nothing else.
  const SourceLookup* look = lines_.Lookup(path, addr, false);
  if (!look) return "";  // addr2line fails: no output at all
  return InlineChain(*look, context_);
}

std::string FrameInliner::Expand(std::string_view pc,
                                 std::string_view rawfunc,
                                 std::string_view mod) {
  std::lock_guard<std::mutex> lock(mu_);
  auto key = std::make_pair(std::string(pc), std::string(mod));
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  std::string path = symfs_ + std::string(mod);
  uint64_t addr = ParseAddress(pc);
  std::string result = Lookup(addr, path);
  if (result == (context_ ? "??:??:0" : "??")) {
    // addr2line knew nothing of the address: the Perl script looks the
    // function up with nm and asks again at its address plus the offset.
    size_t plus = rawfunc.rfind("+0x");
    SourceFile* file = plus != std::string_view::npos && plus > 0
                           ? lines_.File(path)
                           : nullptr;
    std::string_view hex = plus == std::string_view::npos
                               ? std::string_view()
                               : rawfunc.substr(plus + 3);
    bool all_hex = !hex.empty();
    for (char c : hex) {
      if (!std::isdigit(static_cast<unsigned char>(c)) && (c < 'a' || c > 'f')) {
        all_hex = false;
      }
    }
    uint64_t base = 0;
    if (file && all_hex &&
        file->NmAddress(std::string(rawfunc.substr(0, plus)), &base)) {
      result = Lookup(base + ParseAddress(hex), path);
    }
  }
  cache_.emplace(std::move(key), result);
  return result;
}

}  // namespace flamefold
