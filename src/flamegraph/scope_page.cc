#include "flamegraph/scope_page.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <span>
#include <new>

#include <zlib.h>

#include "base/json.h"
#include "flamegraph/flamegraph_merge.h"
#include "flamegraph/palette.h"
#include "flamegraph/svg_text.h"
#include "flamegraph_scope_js.h"

namespace flamefold {
namespace {

constexpr uint64_t kNsPerSecond = 1000000000;

// The folded line of `frames`, in `*line`.
void StackLine(std::span<const SymbolId> frames, const StringInterner& names,
               std::string* line) {
  line->clear();
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i > 0) line->push_back(';');
    line->append(names.Get(frames[i]));
  }
}

// The drawn stack of each of the samples' stacks (UINT32_MAX: dropped),
// the drawn stacks' lines, sorted, in `data`.
std::vector<uint32_t> RewriteStacks(const ScopeSamples& samples,
                                    const StringInterner& names,
                                    const StackRewrite& rewrite,
                                    ScopeData* data) {
  StringInterner drawn;
  std::vector<uint32_t> drawn_of(samples.stack_count(), UINT32_MAX);
  std::string line, out;
  for (uint32_t id = 0; id < samples.stack_count(); ++id) {
    StackLine(samples.Frames(id), names, &line);
    out.clear();
    if (rewrite(line, &out)) drawn_of[id] = drawn.Intern(out);
  }
  std::vector<uint32_t> order(drawn.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return drawn.Get(a) < drawn.Get(b);
  });
  std::vector<uint32_t> rank(order.size());
  data->lines.clear();
  data->lines.reserve(order.size());
  for (uint32_t r = 0; r < order.size(); ++r) {
    rank[order[r]] = r;
    data->lines.emplace_back(drawn.Get(order[r]));
  }
  for (uint32_t& d : drawn_of) {
    if (d != UINT32_MAX) d = rank[d];
  }
  return drawn_of;
}

struct CellSample {
  uint64_t cell;
  uint32_t stack;
  PerlNumber weight;
};

// Fills the cells and their runs from the samples kept, sorted by cell and
// stack.
void FillCells(std::vector<CellSample>* kept, ScopeData* data) {
  std::sort(kept->begin(), kept->end(),
            [](const CellSample& a, const CellSample& b) {
              return a.cell != b.cell ? a.cell < b.cell : a.stack < b.stack;
            });
  data->cell_samples.assign(data->cells(), 0);
  data->cell_runs.assign(data->cells() + 1, 0);
  data->runs.clear();
  for (size_t i = 0; i < kept->size();) {
    const uint64_t cell = (*kept)[i].cell;
    data->cell_runs[cell] = data->runs.size();
    for (; i < kept->size() && (*kept)[i].cell == cell; ++i) {
      const CellSample& s = (*kept)[i];
      data->cell_samples[cell]++;
      if (data->runs.size() > data->cell_runs[cell] &&
          data->runs.back().stack == s.stack) {
        data->runs.back().weight.Add(s.weight);
      } else {
        data->runs.push_back({s.stack, s.weight});
      }
    }
  }
  // Empty cells start where the next one does.
  data->cell_runs[data->cells()] = data->runs.size();
  for (uint64_t c = data->cells(); c-- > 0;) {
    if (data->cell_samples[c] == 0) data->cell_runs[c] = data->cell_runs[c + 1];
  }
}

// A JSON string whose '<' are escaped, so that no "</script>" nor "<!--"
// can appear in the page's data block.
void AppendScriptSafeJson(std::string_view s, std::string* out) {
  std::string json = JsonString(s);
  for (char c : json) {
    if (c == '<') {
      *out += "\\u003c";
    } else {
      *out += c;
    }
  }
}

// A number as LEB128 bytes: 7 bits a byte, the lowest first, the high bit
// set on every byte but the last.
void AppendVarint(uint64_t v, std::string* bytes) {
  while (v >= 0x80) {
    bytes->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  bytes->push_back(static_cast<char>(v));
}

// `values` as byte planes: the width W (the bytes of the greatest value),
// then the lowest byte of every value, then the next byte of every value,
// W planes in all. Weights and stack ids vary most in their low bytes:
// planes keep alike bytes together, which deflate codes in fewer bits.
void AppendPlanes(const std::vector<uint64_t>& values, std::string* bytes) {
  uint64_t greatest = 0;
  for (uint64_t v : values) greatest = std::max(greatest, v);
  unsigned width = 0;
  for (; greatest > 0; greatest >>= 8) ++width;
  bytes->push_back(static_cast<char>(width));
  for (unsigned plane = 0; plane < width; ++plane) {
    for (uint64_t v : values) bytes->push_back(static_cast<char>(v >> (8 * plane)));
  }
}

// The digits of the page's text of bytes: '!' to '~' less '"', '<' and
// '\' (91 of them), so that the text needs no escape in a JSON string and
// no '<' can close the data block. 91 * 91 >= 2^13: two digits hold 13
// bits, where base64's four hold 24.
constexpr std::array<char, 91> kTextDigits = [] {
  std::array<char, 91> digits{};
  size_t n = 0;
  for (char c = '!'; c <= '~'; ++c) {
    if (c != '"' && c != '<' && c != '\\') digits[n++] = c;
  }
  return digits;
}();

// `bytes` as a JSON string of digit pairs, each pair 13 bits (first digit
// * 91 + second), the bytes' bits lowest first, the last pair filled out
// with zero bits.
void AppendBytesText(std::string_view bytes, std::string* out) {
  out->push_back('"');
  uint32_t held = 0;
  unsigned bits = 0;
  auto pair = [&](uint32_t v) {
    out->push_back(kTextDigits[v / 91]);
    out->push_back(kTextDigits[v % 91]);
  };
  for (char byte : bytes) {
    held |= uint32_t{static_cast<uint8_t>(byte)} << bits;
    bits += 8;
    if (bits >= 13) {
      pair(held & 0x1fff);
      held >>= 13;
      bits -= 13;
    }
  }
  if (bits > 0) pair(held);
  out->push_back('"');
}

// A section of the tables and how deflate codes it: numbers of few
// distinct values in no repeating order (the planes, the frames' places)
// take fewer bits coded by their frequencies alone than with deflate's
// matches, and come out faster (Z_HUFFMAN_ONLY).
struct Section {
  std::string_view bytes;
  int strategy;
};

// The sections, each its length (LEB128) and its bytes, deflated as one
// stream in the zlib format (RFC 1950), which the browser's
// DecompressionStream("deflate") inflates.
std::string DeflatedSections(std::span<const Section> sections) {
  z_stream z{};
  if (deflateInit(&z, Z_DEFAULT_COMPRESSION) != Z_OK) throw std::bad_alloc();
  size_t total = 0;  // the sections and their lengths (at most 10 bytes)
  for (const Section& section : sections) total += section.bytes.size() + 10;
  // compressBound's room, and a block's end for each change of strategy.
  std::string deflated(compressBound(total) + 16 * sections.size(), '\0');
  z.next_out = reinterpret_cast<Bytef*>(deflated.data());
  // Tables of 4 GiB and more (no browser would load them) fail below.
  z.avail_out = static_cast<uInt>(std::min<size_t>(deflated.size(), UINT32_MAX));
  int strategy = Z_DEFAULT_STRATEGY, status = Z_OK;
  std::string length;
  for (size_t i = 0; i < sections.size() && status == Z_OK; ++i) {
    if (sections[i].strategy != strategy) {
      strategy = sections[i].strategy;
      status = deflateParams(&z, Z_DEFAULT_COMPRESSION, strategy);
    }
    length.clear();
    AppendVarint(sections[i].bytes.size(), &length);
    for (std::string_view bytes : {std::string_view(length), sections[i].bytes}) {
      // zlib counts in 32 bits: a larger section goes in parts.
      while (!bytes.empty() && status == Z_OK) {
        const size_t part = std::min<size_t>(bytes.size(), uInt{1} << 30);
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
        z.avail_in = static_cast<uInt>(part);
        status = deflate(&z, Z_NO_FLUSH);
        if (status == Z_OK && z.avail_in != 0) status = Z_BUF_ERROR;
        bytes.remove_prefix(part);
      }
    }
  }
  if (status == Z_OK) status = deflate(&z, Z_FINISH);
  deflated.resize(z.total_out);
  deflateEnd(&z);
  // With room for the worst case, only memory can fail.
  if (status != Z_STREAM_END) throw std::bad_alloc();
  return deflated;
}

// The stacks as frame ids into `frames`: for each line, the number of
// frames it shares with the line before (sorted lines share most of
// theirs) and the number of its other frames, in `prefixes`; each of those
// other frames in `callees` as 1 + its place among the frames seen below
// the same frame before it (the root's alike), in the order they were
// first seen there, or as 0 and its id when it is new there. A function
// calls few others, so the places are small numbers where ids are not.
void PackStacks(const ScopeData& data, StringInterner* frames,
                std::string* prefixes, std::string* callees) {
  std::vector<std::string_view> pieces;
  std::vector<SymbolId> stack, previous;
  std::vector<std::vector<SymbolId>> seen_below(1);  // [caller id + 1]
  for (const std::string& line : data.lines) {
    PerlSplit(line, ";", &pieces);
    stack.clear();
    for (std::string_view piece : pieces) stack.push_back(frames->Intern(piece));
    size_t shared = 0;
    while (shared < stack.size() && shared < previous.size() &&
           stack[shared] == previous[shared]) {
      ++shared;
    }
    AppendVarint(shared, prefixes);
    AppendVarint(stack.size() - shared, prefixes);
    seen_below.resize(frames->size() + 1);
    for (size_t j = shared; j < stack.size(); ++j) {
      std::vector<SymbolId>& seen = seen_below[j == 0 ? 0 : stack[j - 1] + 1];
      auto at = std::find(seen.begin(), seen.end(), stack[j]);
      if (at != seen.end()) {
        AppendVarint(1 + (at - seen.begin()), callees);
      } else {
        AppendVarint(0, callees);
        AppendVarint(stack[j], callees);
        seen.push_back(stack[j]);
      }
    }
    std::swap(stack, previous);
  }
}

// Weights that JavaScript holds exactly as numbers are written in the runs.
constexpr uint64_t kExactInteger = uint64_t{1} << 52;

bool ExactInteger(const PerlNumber& weight) {
  return weight.is_integer() && weight.uint_value() < kExactInteger;
}

// The greatest common divisor of the whole weights (1 when there is none):
// with a fixed period (cpu-clock, perf record -c N) every weight is a
// multiple of it, which the runs then count in.
uint64_t WeightUnit(const ScopeData& data) {
  uint64_t unit = 0;
  for (const ScopeData::Run& run : data.runs) {
    if (ExactInteger(run.weight)) unit = std::gcd(unit, run.weight.uint_value());
  }
  return unit == 0 ? 1 : unit;
}

// The cells with samples, each as the cells since the one before, its
// samples and its runs, in `cells`; the runs' stacks (each less the stack
// of the run before in its cell) and weights (1 + W / unit for a whole W,
// else 0: the next of `odd_weights`) as planes.
void PackCells(const ScopeData& data, uint64_t unit, std::string* cells,
               std::string* run_stacks, std::string* run_weights,
               std::string* odd_weights) {
  std::vector<uint64_t> stacks, weights;
  stacks.reserve(data.runs.size());
  weights.reserve(data.runs.size());
  uint64_t previous = 0;
  for (uint64_t c = 0; c < data.cells(); ++c) {
    if (data.cell_samples[c] == 0) continue;
    AppendVarint(c - previous, cells);
    AppendVarint(data.cell_samples[c], cells);
    AppendVarint(data.cell_runs[c + 1] - data.cell_runs[c], cells);
    uint32_t stack = 0;
    for (uint64_t r = data.cell_runs[c]; r < data.cell_runs[c + 1]; ++r) {
      const ScopeData::Run& run = data.runs[r];
      stacks.push_back(run.stack - stack);
      if (ExactInteger(run.weight)) {
        weights.push_back(1 + run.weight.uint_value() / unit);
      } else {
        weights.push_back(0);
        if (!odd_weights->empty()) *odd_weights += ',';
        AppendJsonNumber(run.weight, odd_weights);
      }
      stack = run.stack;
    }
    previous = c;
  }
  AppendPlanes(stacks, run_stacks);
  AppendPlanes(weights, run_weights);
}

// The tables the page unpacks (scope_page.h lists the sections), deflated.
std::string PackedTables(const ScopeData& data) {
  StringInterner frames;
  std::string prefixes, callees;
  PackStacks(data, &frames, &prefixes, &callees);
  const uint64_t unit = WeightUnit(data);
  std::string cells, run_stacks, run_weights, odd_weights;
  PackCells(data, unit, &cells, &run_stacks, &run_weights, &odd_weights);

  ColorSource colors(ColorMode::kSeeded);
  std::string json = "{\"names\":[", fills = "[";
  for (SymbolId id = 0; id < frames.size(); ++id) {
    if (id > 0) {
      json += ',';
      fills += ',';
    }
    json += JsonString(frames.Get(id));
    fills += '"' + NameColor(frames.Get(id), "hot", &colors) + '"';
  }
  // The root ("all") is drawn with the fill of an empty name.
  json += "],\n\"fills\":" + fills + "],\n\"rootFill\":\"" +
          NameColor("", "hot", &colors) + "\",\n\"stackCount\":" +
          std::to_string(data.lines.size()) + ",\n\"weightUnit\":" +
          std::to_string(unit) + ",\n\"weights\":[" + odd_weights + "]}";

  const Section sections[] = {{json, Z_DEFAULT_STRATEGY},
                              {prefixes, Z_DEFAULT_STRATEGY},
                              {callees, Z_HUFFMAN_ONLY},
                              {cells, Z_DEFAULT_STRATEGY},
                              {run_stacks, Z_HUFFMAN_ONLY},
                              {run_weights, Z_HUFFMAN_ONLY}};
  return DeflatedSections(sections);
}

constexpr std::string_view kStyle = R"CSS(
body { font-family: Verdana, sans-serif; font-size: 12px; margin: 10px; background: #fff; color: #000; }
h1 { font-size: 17px; font-weight: normal; margin: 0 0 6px 0; }
#heatmap-box { overflow-x: auto; max-width: 100%; }
#heatmap { cursor: crosshair; display: block; }
#legend { display: flex; align-items: center; gap: 6px; margin: 4px 0; }
#legend canvas { border: 1px solid #ccc; }
#hover, #selection { min-height: 1.3em; margin: 2px 0; }
#command { font-family: monospace; background: #f4f4f4; padding: 2px 4px; user-select: all; }
#graph { display: block; }
)CSS";

}  // namespace

void ScopeSamples::OnTimedSample(const TimedSample& s) {
  if (s.time_ns == UINT64_MAX) {
    untimed_++;
    return;
  }
  // The table is larger than the cache, and each look-up would wait for
  // its slot and then for the stored key. So the slot of this sample's
  // stack is asked for now, the key of the one before it (its slot has
  // come), and the stack of the one before that is looked up.
  Waiting& w = waiting_[arrived_ % kWaiting];
  w.time_ns = s.time_ns;
  w.weight = s.weight;
  w.key.assign(reinterpret_cast<const char*>(s.frames.data()),
               s.frames.size_bytes());
  w.hash = StringInterner::Hash(w.key);
  stack_keys_.Prefetch(w.hash);
  arrived_++;
  if (arrived_ - kept_ >= 2) {
    stack_keys_.PrefetchBytes(waiting_[(arrived_ - 2) % kWaiting].hash);
  }
  if (arrived_ - kept_ == kWaiting) Keep(waiting_[kept_++ % kWaiting]);
}

void ScopeSamples::Flush() {
  while (kept_ < arrived_) Keep(waiting_[kept_++ % kWaiting]);
}

void ScopeSamples::Keep(const Waiting& w) {
  samples_.push_back({w.time_ns, stack_keys_.Intern(w.key, w.hash), w.weight});
}

std::span<const SymbolId> ScopeSamples::Frames(uint32_t id) const {
  std::string_view key = stack_keys_.Get(id);
  return {reinterpret_cast<const SymbolId*>(key.data()),
          key.size() / sizeof(SymbolId)};
}

std::vector<uint64_t> ScopeData::PerSecond() const {
  std::vector<uint64_t> seconds(columns, 0);
  for (uint64_t c = 0; c < cells(); ++c) seconds[c / rows] += cell_samples[c];
  return seconds;
}

bool BuildScopeData(const ScopeSamples& samples, const StringInterner& names,
                    uint32_t rows, const StackRewrite& rewrite,
                    ScopeData* data, std::string* err) {
  if (samples.samples().empty()) {
    *err = samples.untimed() > 0
               ? "the samples have no time (perf script prints it unless "
                 "-F leaves out 'time')"
               : "no samples with a time found (folded stacks have none: "
                 "flamescope reads perf script output or perf.data)";
    return false;
  }
  uint64_t first = UINT64_MAX, last = 0;
  for (const ScopeSamples::Sample& s : samples.samples()) {
    first = std::min(first, s.time_ns);
    last = std::max(last, s.time_ns);
  }
  data->rows = rows;
  data->base_ns = first - first % kNsPerSecond;
  data->columns = (last - data->base_ns) / kNsPerSecond + 1;
  if (data->columns > kMaxScopeSeconds) {
    *err = "the samples span " + std::to_string(data->columns) +
           " seconds: too many for the heat map (at most " +
           std::to_string(kMaxScopeSeconds) + "; select a part with "
           "--time-range)";
    return false;
  }
  std::vector<uint32_t> drawn_of = RewriteStacks(samples, names, rewrite, data);
  std::vector<CellSample> kept;
  kept.reserve(samples.samples().size());
  for (const ScopeSamples::Sample& s : samples.samples()) {
    if (drawn_of[s.stack] == UINT32_MAX) continue;
    const uint64_t offset = s.time_ns - data->base_ns;
    const uint64_t row = offset % kNsPerSecond * rows / kNsPerSecond;
    kept.push_back({offset / kNsPerSecond * rows + row, drawn_of[s.stack],
                    s.weight});
  }
  FillCells(&kept, data);
  return true;
}

std::string PerSecondTable(const ScopeData& data) {
  std::string table = "SECOND SAMPLES\n";
  std::vector<uint64_t> seconds = data.PerSecond();
  for (size_t i = 0; i < seconds.size(); ++i) {
    table += std::to_string(i) + ' ' + std::to_string(seconds[i]) + '\n';
  }
  return table;
}

std::string_view ScopeScript() { return kScopeJs; }

void WriteScopePage(const ScopeData& data, const ScopePageOptions& options,
                    OutputSink* out) {
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                  "<meta charset=\"utf-8\">\n<title>";
  AppendXmlEscaped(options.title, &s);
  s += "</title>\n<style>";
  s += kStyle;
  s += "</style>\n</head>\n<body>\n<h1 id=\"title\">";
  AppendXmlEscaped(options.title, &s);
  s += "</h1>\n"
       "<div id=\"heatmap-box\"><canvas id=\"heatmap\"></canvas></div>\n"
       "<div id=\"legend\"></div>\n"
       "<p id=\"hover\">&#160;</p>\n"
       "<p id=\"selection\"></p>\n"
       "<p><code id=\"command\"></code> "
       "<a id=\"save\" download=\"selection.folded\" href=\"#\">"
       "save the folded stacks</a></p>\n"
       "<canvas id=\"graph\"></canvas>\n"
       "<p id=\"details\">&#160;</p>\n"
       "<script type=\"application/json\" id=\"scope-data\">{\"title\":";
  AppendScriptSafeJson(options.title, &s);
  s += ",\n\"command\":";
  AppendScriptSafeJson(options.fold_command, &s);
  s += ",\n\"base\":" + std::to_string(data.base_ns / kNsPerSecond) +
       ",\n\"rows\":" + std::to_string(data.rows) +
       ",\n\"columns\":" + std::to_string(data.columns);
  const std::string packed = PackedTables(data);
  s += ",\n\"packedBytes\":" + std::to_string(packed.size()) + ",\n\"packed\":";
  AppendBytesText(packed, &s);
  s += "}</script>\n<script>\n";
  out->Write(s);
  out->Write(ScopeScript());
  out->Write("</script>\n</body>\n</html>\n");
}

}  // namespace flamefold
