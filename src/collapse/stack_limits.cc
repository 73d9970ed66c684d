#include "collapse/stack_limits.h"

#include <algorithm>

#include "base/utf8.h"

namespace flamefold {

void LimitStats::Add(const LimitStats& o) {
  deep_samples += o.deep_samples;
  long_frames += o.long_frames;
  deepest = std::max(deepest, o.deepest);
  longest = std::max(longest, o.longest);
}

LimitStats LimitStats::Since(const LimitStats& before) const {
  LimitStats d = *this;
  d.deep_samples -= before.deep_samples;
  d.long_frames -= before.long_frames;
  // A maximum that did not grow may belong to an earlier input: unknown.
  if (d.deep_samples == 0 || deepest == before.deepest) d.deepest = 0;
  if (d.long_frames == 0 || longest == before.longest) d.longest = 0;
  return d;
}

namespace {

void CountLongName(size_t size, LimitStats* stats) {
  stats->long_frames++;
  stats->longest = std::max<uint64_t>(stats->longest, size);
}

}  // namespace

std::string_view LimitFoldedStack(std::string_view stack,
                                  const StackLimits& limits, LimitStats* stats,
                                  std::string* scratch) {
  // Shorter than both limits: no frame can be too long, and fewer than
  // max_depth bytes hold fewer than max_depth ';'.
  if (stack.size() <= limits.max_frame && stack.size() < limits.max_depth) {
    return stack;
  }
  // Depth first: the frames past the limit go, whatever their length.
  std::string_view kept = stack;
  uint64_t frames = 1;
  bool long_name = false;
  size_t pos = 0;
  for (;;) {
    size_t semi = stack.find(';', pos);
    size_t end = semi == std::string_view::npos ? stack.size() : semi;
    if (frames <= limits.max_depth) {
      if (end - pos > limits.max_frame) long_name = true;
      if (frames == limits.max_depth) kept = stack.substr(0, end);
    }
    if (semi == std::string_view::npos) break;
    pos = semi + 1;
    ++frames;
  }
  if (frames > limits.max_depth) {
    stats->deep_samples++;
    stats->deepest = std::max(stats->deepest, frames);
  }
  if (!long_name) return kept;
  scratch->clear();
  pos = 0;
  for (;;) {
    size_t semi = kept.find(';', pos);
    std::string_view name = kept.substr(pos, semi - pos);
    if (name.size() > limits.max_frame) {
      CountLongName(name.size(), stats);
      name = name.substr(0, Utf8CutLength(name, limits.max_frame));
    }
    scratch->append(name);
    if (semi == std::string_view::npos) break;
    scratch->push_back(';');
    pos = semi + 1;
  }
  return *scratch;
}

std::string LimitWarning(std::string_view file, const StackLimits& limits,
                         const LimitStats& stats) {
  if (!stats.any()) return "";
  std::string out = file.empty() ? "" : std::string(file) + ": ";
  auto num = [](uint64_t n) { return std::to_string(n); };
  std::string see;
  if (stats.deep_samples > 0) {
    out += num(stats.deep_samples) + " sample(s) had stacks deeper than " +
           num(limits.max_depth) + " frames" +
           (stats.deepest > 0 ? " (deepest: " + num(stats.deepest) + ")" : "") +
           "; each was cut to its " + num(limits.max_depth) +
           " frames nearest the root, keeping its count";
    see = "--max-stack-depth";
  }
  if (stats.long_frames > 0) {
    if (!see.empty()) {
      out += "; ";
      see += ", ";
    }
    out += num(stats.long_frames) + " frame name(s) were longer than " +
           num(limits.max_frame) + " bytes" +
           (stats.longest > 0 ? " (longest: " + num(stats.longest) + ")" : "") +
           " and were cut";
    see += "--max-frame-length";
  }
  return out + " (see " + see + ")";
}

std::string LimitStatsText(const LimitStats& stats) {
  return std::to_string(stats.deep_samples) +
         " samples cut to --max-stack-depth, " +
         std::to_string(stats.long_frames) +
         " frame names cut to --max-frame-length";
}

}  // namespace flamefold
