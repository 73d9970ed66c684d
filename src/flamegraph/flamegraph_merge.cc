#include "flamegraph/flamegraph_merge.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "collapse/folded.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace flamefold {

double MinWidth::Threshold(double time) const {
  double time_max = TimeMax(time);
  if (percent) return time_max * value / 100;
  return value / (frame_pixels / time_max);
}

void PerlSplit(std::string_view s, std::string_view sep,
               std::vector<std::string_view>* out) {
  out->clear();
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t hit = s.find(sep, pos);
    if (hit == std::string_view::npos) {
      out->push_back(s.substr(pos));
      break;
    }
    out->push_back(s.substr(pos, hit - pos));
    pos = hit + sep.size();
    if (pos == s.size()) {
      out->push_back(std::string_view());
      break;
    }
  }
  while (!out->empty() && out->back().empty()) out->pop_back();
}

bool ParseFlameLine(std::string_view line, std::string_view* stack,
                    std::string_view* count1, std::string_view* count2) {
  std::string_view rest, last;
  if (!SplitFoldedLine(line, &rest, &last)) return false;
  std::string_view inner, first;
  if (SplitFoldedLine(rest, &inner, &first)) {
    *stack = inner;
    *count1 = first;
    *count2 = last;
  } else {
    *stack = rest;
    *count1 = last;
    *count2 = std::string_view();
  }
  return true;
}

std::string ReverseFlameLine(std::string_view line) {
  std::string_view stack, c1, c2;
  if (!ParseFlameLine(line, &stack, &c1, &c2)) return " ";
  std::vector<std::string_view> fields;
  PerlSplit(stack, ";", &fields);
  std::string out;
  out.reserve(line.size() + 2);
  for (size_t i = fields.size(); i-- > 0;) {
    out.append(fields[i]);
    if (i > 0) out.push_back(';');
  }
  out.push_back(' ');
  out.append(c1);
  if (!c2.empty()) {
    out.push_back(' ');
    out.append(c2);
  }
  return out;
}

std::string ChainAnnotate(std::string_view stack) {
  std::vector<std::string_view> parts;
  PerlSplit(stack, ";--;", &parts);
  std::string out;
  if (!parts.empty()) out.append(parts[0]);
  out.append(";--;");
  for (size_t i = 1; i < parts.size(); ++i) {
    if (i > 1) out.append(";--;");
    for (char c : parts[i]) {
      if (c == ';') out.append("_[w]");
      out.push_back(c);
    }
    out.append("_[w]");
  }
  return out;
}

FrameMerger::FrameMerger(const MinWidth& min_width, bool chain)
    : min_width_(min_width), chain_(chain) {}

double FrameMerger::EndTimeKey() const {
  if (time_.is_integer()) return static_cast<double>(time_.uint_value());
  // flamegraph.pl keys a node by the string of its end time, which Perl
  // prints with %.15g; widths are taken from that string.
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", time_.AsDouble());
  return std::strtod(buf, nullptr);
}

void FrameMerger::AddLine(std::string_view line) {
  std::string_view stack, c1, c2;
  if (!ParseFlameLine(line, &stack, &c1, &c2)) {
    ++ignored_;
    return;
  }
  ++valid_lines_;
  PerlNumber samples = PerlNumber::Parse(c1);
  bool has_delta = !c2.empty();
  double delta = 0;
  PerlNumber width = samples;
  if (has_delta) {
    width = PerlNumber::Parse(c2);
    delta = width.AsDouble() - samples.AsDouble();
    if (std::abs(delta) > max_delta_) max_delta_ = std::abs(delta);
  }
  if (chain_) {
    chain_buf_ = ChainAnnotate(stack);
    stack = chain_buf_;
  }
  while (!stack.empty() && stack.back() == ';') stack.remove_suffix(1);
  size_t same = SharedFrames(stack);
  CloseFrom(same);
  OpenFrom(same, stack, has_delta, delta);
  time_.Add(width);
}

namespace {

// The length of the longest common prefix of `a` and `b`, compared 16 bytes
// at a time (stacks of sorted lines share most of their bytes: 800 of a
// C++ service's lines of 850), then eight, then one.
size_t CommonPrefix(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data() + i));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.data() + i));
    const unsigned same = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
    if (same != 0xFFFF) return i + static_cast<size_t>(std::countr_zero(~same));
  }
#endif
  if constexpr (std::endian::native == std::endian::little) {
    for (; i + 8 <= n; i += 8) {
      uint64_t x, y;
      std::memcpy(&x, a.data() + i, 8);
      std::memcpy(&y, b.data() + i, 8);
      if (x != y) return i + static_cast<size_t>(std::countr_zero(x ^ y) / 8);
    }
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

}  // namespace

size_t FrameMerger::SharedFrames(std::string_view stack) const {
  if (open_.empty()) return 0;
  if (stack.empty() || stack_.empty()) return 1;  // the root alone
  size_t common = CommonPrefix(stack, stack_);
  // The open frames' ends grow with depth: those ending before `common` are
  // shared (a ';' follows them in both stacks), and so is the one ending at
  // `common` when the new stack's frame ends there too.
  auto it = std::lower_bound(open_.begin() + 1, open_.end(), common,
                             [](const Open& o, size_t at) {
                               return o.name_end < at;
                             });
  size_t same = static_cast<size_t>(it - open_.begin());
  if (it != open_.end() && it->name_end == common &&
      (common == stack.size() || stack[common] == ';')) {
    ++same;
  }
  return same;
}

void FrameMerger::CloseFrom(size_t depth) {
  if (open_.size() <= depth) return;
  double key = EndTimeKey();
  double threshold = min_width_.Threshold(time_.AsDouble());
  if (key != closed_key_) {
    closed_.clear();
    closed_names_.clear();
    closed_key_ = key;
    if (frames_.size() >= prune_at_) Prune(threshold);
  }
  size_t earlier_closed = closed_.size();
  // The names closing are the end of stack_: copied at once.
  size_t names_from = open_[depth].name_begin;
  size_t names_at = closed_names_.size();
  closed_names_.append(stack_, names_from);
  for (size_t d = open_.size(); d-- > depth;) {
    Close(d, key, threshold, earlier_closed,
          names_at + open_[d].name_begin - names_from);
  }
  open_.resize(depth);
}

void FrameMerger::OpenFrom(size_t depth, std::string_view stack,
                           bool has_delta, double delta) {
  // The shared frames' names are the same bytes in both stacks (SharedFrames):
  // only what follows them is copied.
  const size_t kept = open_.size() <= 1 ? 0 : open_.back().name_end;
  stack_.resize(kept);
  stack_.append(stack.substr(kept));
  double now = time_.AsDouble();
  auto open = [&](size_t begin, size_t end, bool leaf) {
    open_.push_back(Open{begin, end, now, leaf ? delta : 0, has_delta,
                         time_.is_integer(), time_.uint_value()});
  };
  if (depth == 0) open(0, 0, stack.empty());
  if (stack.empty()) return;
  // The first frame not shared starts after the last shared one's ';'; the
  // ';' after it are found 16 bytes at a time (a C++ service's line opens
  // 13 frames on average), the last frame is the leaf.
  size_t begin = open_.size() <= 1 ? 0 : open_.back().name_end + 1;
  const char* p = stack.data();
  const size_t n = stack.size();
  if (begin > n) return;
  size_t i = begin;
#if defined(__SSE2__)
  const __m128i semicolon = _mm_set1_epi8(';');
  for (; i + 16 <= n; i += 16) {
    unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), semicolon)));
    for (; m != 0; m &= m - 1) {
      const size_t semi = i + static_cast<size_t>(std::countr_zero(m));
      open(begin, semi, false);
      begin = semi + 1;
    }
  }
#endif
  for (; i < n; ++i) {
    if (p[i] == ';') {
      open(begin, i, false);
      begin = i + 1;
    }
  }
  open(begin, n, true);
}

// Perl subtracts integer times exactly (beyond 2^53 too), others as doubles.
double FrameMerger::Width(const Open& o, double etime) const {
  if (o.start_is_integer && time_.is_integer()) {
    return static_cast<double>(time_.uint_value() - o.start);
  }
  return etime - o.stime;
}

// Closes open_[depth] at `etime`; its name was copied to closed_names_ at
// `closed_name_at`. Only the frames closed by earlier lines at the same key
// (the first `earlier_closed`) can share its key: this line closes one
// frame per depth.
void FrameMerger::Close(size_t depth, double etime, double threshold,
                        size_t earlier_closed, size_t closed_name_at) {
  const Open& o = open_[depth];
  std::string_view name = OpenName(o);
  for (size_t i = 0; i < earlier_closed; ++i) {
    const Closed& c = closed_[i];
    if (c.depth != depth ||
        std::string_view(closed_names_).substr(c.name_begin, c.name_size) !=
            name) {
      continue;
    }
    if (c.frame >= 0) {
      FlameFrame& f = frames_[static_cast<size_t>(c.frame)];
      f.stime = o.stime;
      f.width = Width(o, etime);
      if (o.has_delta) {
        f.delta = o.delta;
        f.has_delta = true;
      }
    }
    return;
  }
  int64_t index = -1;
  double width = Width(o, etime);
  if (!(width < threshold)) {
    index = static_cast<int64_t>(frames_.size());
    frames_.push_back(FlameFrame{names_.Intern(name),
                                 static_cast<uint32_t>(depth), o.stime, etime,
                                 width, o.delta, o.has_delta});
  }
  closed_.push_back(Closed{closed_name_at, static_cast<uint32_t>(name.size()),
                           depth, index});
}

// Frames narrower than the threshold so far stay narrower than the final one
// (the total only grows), and no closed_ entry points at them once closed_
// is cleared: dropping them early keeps frames_ near the size of what will
// be drawn instead of every frame that was wide enough at the start.
void FrameMerger::Prune(double threshold) {
  std::erase_if(frames_, [&](const FlameFrame& f) {
    return f.width < threshold;
  });
  prune_at_ = std::max(kFirstPrune, 2 * frames_.size());
}

void FrameMerger::Finish() {
  CloseFrom(0);
  double threshold = min_width_.Threshold(time_.AsDouble());
  std::erase_if(frames_, [&](const FlameFrame& f) {
    return f.width < threshold;
  });
  closed_.clear();
  closed_names_.clear();
  depth_max_ = 0;
  for (const FlameFrame& f : frames_) depth_max_ = std::max(depth_max_, f.depth);
}

size_t FrameMerger::LimitFrames(size_t max_frames) {
  if (frames_.size() <= max_frames) return 0;
  std::vector<double> widths;
  widths.reserve(frames_.size());
  for (const FlameFrame& f : frames_) widths.push_back(f.width);
  std::nth_element(widths.begin(), widths.begin() + max_frames, widths.end(),
                   std::greater<double>());
  double cut = widths[max_frames];
  size_t before = frames_.size();
  std::erase_if(frames_, [&](const FlameFrame& f) {
    return f.depth > 0 && !(f.width > cut);
  });
  depth_max_ = 0;
  for (const FlameFrame& f : frames_) depth_max_ = std::max(depth_max_, f.depth);
  return before - frames_.size();
}

}  // namespace flamefold
