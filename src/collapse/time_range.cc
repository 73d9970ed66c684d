#include "collapse/time_range.h"

#include <charconv>
#include <cmath>

#include "collapse/perl_chars.h"

namespace flamefold {

using namespace perl_chars;

namespace {

using Kind = TimeRangeSpec::Kind;

// A time in seconds, "3450.247735", ".5" or "12." (up to 9 decimals: ns),
// into `*ns`; `*relative` when it starts with '+'. False for anything else.
bool ParseSeconds(std::string_view s, uint64_t* ns, bool* relative) {
  *relative = !s.empty() && s[0] == '+';
  if (*relative) s.remove_prefix(1);
  const size_t dot = s.find('.');
  std::string_view whole = s.substr(0, dot);
  std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
  if ((whole.empty() && fraction.empty()) || whole.size() > 10 ||
      fraction.size() > 9) {
    return false;
  }
  uint64_t seconds = 0, nanos = 0;
  for (char c : whole) {
    if (!IsDigit(c)) return false;
    seconds = seconds * 10 + static_cast<uint64_t>(c - '0');
  }
  for (size_t i = 0; i < 9; ++i) {
    if (i < fraction.size() && !IsDigit(fraction[i])) return false;
    nanos = nanos * 10 +
            (i < fraction.size() ? static_cast<uint64_t>(fraction[i] - '0') : 0);
  }
  if (seconds > UINT64_MAX / 1000000000 - 1) return false;
  *ns = seconds * 1000000000 + nanos;
  return true;
}

// "START,END", either side empty, into `*span` and `*kind` (absolute or
// relative; kNone while no side is given).
bool ParseSpan(std::string_view piece, TimeSpan* span, Kind* kind,
               std::string* err) {
  const size_t comma = piece.find(',');
  if (comma == std::string_view::npos) {
    *err = "'" + std::string(piece) + "' is not START,END";
    return false;
  }
  std::string_view sides[2] = {piece.substr(0, comma), piece.substr(comma + 1)};
  uint64_t* values[2] = {&span->start, &span->end};
  for (int i = 0; i < 2; ++i) {
    *values[i] = 0;
    if (sides[i].empty()) continue;  // open (relative: set by the caller)
    bool relative;
    if (!ParseSeconds(sides[i], values[i], &relative)) {
      *err = "'" + std::string(sides[i]) +
             "' is not a time in seconds (SECONDS[.FRACTION], up to 9 "
             "decimals, or +SECONDS after the first sample)";
      return false;
    }
    const Kind k = relative ? Kind::kRelative : Kind::kAbsolute;
    if (*kind != Kind::kNone && *kind != k) {
      *err = "relative (+SECONDS) and absolute times cannot be mixed";
      return false;
    }
    *kind = k;
  }
  return true;
}

// The absolute or relative ranges, separated by white space (which may also
// follow a comma: "1.5, 2.0").
bool ParseSpans(std::string_view text, TimeRangeSpec* out, std::string* err) {
  std::vector<std::string> pieces;
  std::string piece;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!IsSpace(text[i])) {
      piece += text[i];
    } else if (!piece.empty() && piece.back() != ',') {
      pieces.push_back(std::move(piece));
      piece.clear();
    }
  }
  if (!piece.empty()) pieces.push_back(piece);
  if (pieces.empty()) {
    *err = "no range given";
    return false;
  }
  Kind kind = Kind::kNone;
  for (const std::string& p : pieces) {
    if (!ParseSpan(p, &out->spans.emplace_back(), &kind, err)) return false;
  }
  if (kind == Kind::kNone) kind = Kind::kAbsolute;  // only open sides
  if (kind == Kind::kRelative) {
    for (size_t i = 0; i < pieces.size(); ++i) {
      const size_t comma = pieces[i].find(',');
      if (comma == 0) out->spans[i].start = TimeRangeSpec::kOpen;
      if (comma + 1 == pieces[i].size()) out->spans[i].end = TimeRangeSpec::kOpen;
    }
  }
  out->kind = kind;
  const uint64_t open = kind == Kind::kRelative ? TimeRangeSpec::kOpen : 0;
  for (size_t i = 0; i < out->spans.size(); ++i) {
    const TimeSpan& s = out->spans[i];
    if (s.end != open && s.start != open && s.end < s.start) {
      *err = "'" + pieces[i] + "' ends before it starts";
      return false;
    }
    if (i + 1 == out->spans.size()) break;
    const TimeSpan& next = out->spans[i + 1];
    if (s.end == open || next.start == open || s.end >= next.start) {
      *err = "ranges must be in order and apart: '" + pieces[i] + "' and '" +
             pieces[i + 1] + "' are not";
      return false;
    }
  }
  return true;
}

// "P%" into `*fraction` (P / 100), P a decimal number from 0 to 100.
bool ParsePercent(std::string_view s, double* fraction) {
  if (s.size() < 2 || s.back() != '%') return false;
  s.remove_suffix(1);
  for (char c : s) {
    if (!IsDigit(c) && c != '.') return false;
  }
  double p = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), p);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
  *fraction = p / 100.0;
  return *fraction >= 0.0 && *fraction <= 1.0;
}

std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// One percent slice: "P%/N" (the N-th slice of P percent) when `slash`,
// else "P%-Q%", or "P%" alone (the first P percent).
bool ParseSlice(std::string_view piece, bool slash, bool alone,
                TimeRangeSpec::Slice* out) {
  if (slash || alone) {
    const size_t at = piece.find('/');
    std::string_view n_text =
        at == std::string_view::npos ? "1" : piece.substr(at + 1);
    double size;
    int n = 0;
    auto r = std::from_chars(n_text.data(), n_text.data() + n_text.size(), n);
    if (!ParsePercent(piece.substr(0, at), &size) || size <= 0.0 ||
        r.ec != std::errc() || r.ptr != n_text.data() + n_text.size()) {
      return false;
    }
    out->start = size * (n - 1);
    out->end = size * n;
  } else {
    const size_t dash = piece.find('-');
    if (!ParsePercent(piece.substr(0, dash), &out->start) ||
        !ParsePercent(piece.substr(dash + 1), &out->end)) {
      return false;
    }
  }
  return out->start >= 0.0 && out->end <= 1.0 && out->start <= out->end;
}

bool ParseSlices(std::string_view text, TimeRangeSpec* out, std::string* err) {
  const bool slash = text.find('/') != std::string_view::npos;
  const bool dash = !slash && text.find('-') != std::string_view::npos;
  const bool alone = !slash && !dash;
  size_t from = 0;
  for (;;) {
    const size_t comma = alone ? std::string_view::npos : text.find(',', from);
    std::string_view piece = Trimmed(text.substr(from, comma - from));
    if (!ParseSlice(piece, slash, alone, &out->slices.emplace_back())) {
      *err = "'" + std::string(piece) + "' is not a percent slice " +
             (slash ? "P%/N" : dash ? "P%-Q%" : "P%") +
             " within 0% to 100%";
      return false;
    }
    if (comma == std::string_view::npos) break;
    from = comma + 1;
  }
  out->kind = Kind::kPercent;
  return true;
}

}  // namespace

bool ParseTimeRange(std::string_view text, TimeRangeSpec* out,
                    std::string* err) {
  *out = TimeRangeSpec();
  out->text = std::string(text);
  bool ok = text.find('%') != std::string_view::npos
                ? ParseSlices(text, out, err)
                : ParseSpans(text, out, err);
  if (!ok) *out = TimeRangeSpec();
  return ok;
}

bool ResolveTimeRange(const TimeRangeSpec& spec, uint64_t first, uint64_t last,
                      std::vector<TimeSpan>* out, std::string* err) {
  out->clear();
  switch (spec.kind) {
    case Kind::kNone:
      return true;
    case Kind::kAbsolute:
      *out = spec.spans;
      return true;
    case Kind::kRelative:
      for (const TimeSpan& s : spec.spans) {
        auto at = [first](uint64_t offset) {
          return offset == TimeRangeSpec::kOpen ? 0 : first + offset;
        };
        out->push_back({at(s.start), at(s.end)});
      }
      return true;
    case Kind::kPercent:
      break;
  }
  if (first == 0 || last == 0) {
    *err = "percent slices need the recording's first and last sample "
           "times, as a perf.data header holds them";
    return false;
  }
  // As perf script computes them: in double, the end one ns short of the
  // next slice's start unless it is the last sample's time.
  const uint64_t total = last - first;
  for (const TimeRangeSpec::Slice& s : spec.slices) {
    TimeSpan span;
    span.start = static_cast<uint64_t>(static_cast<double>(first) +
                                       std::round(s.start * total));
    span.end = static_cast<uint64_t>(static_cast<double>(first) +
                                     std::round(s.end * total));
    if (span.end > span.start && span.end != last) span.end -= 1;
    out->push_back(span);
  }
  return true;
}

bool TimeKept(std::span<const TimeSpan> spans, uint64_t t) {
  if (t == 0 || spans.empty()) return true;
  if (spans.size() == 1) {
    const TimeSpan& s = spans[0];
    return !((s.start && t < s.start) || (s.end && t > s.end));
  }
  for (const TimeSpan& s : spans) {
    if (t >= s.start && (t <= s.end || !s.end)) return true;
  }
  return false;
}

std::string SecondsText(uint64_t ns) {
  const bool micro = ns % 1000 == 0;
  std::string fraction = std::to_string(micro ? ns % 1000000000 / 1000
                                              : ns % 1000000000);
  fraction.insert(0, (micro ? 6 : 9) - fraction.size(), '0');
  return std::to_string(ns / 1000000000) + "." + fraction;
}

}  // namespace flamefold
