#include "collapse/folded.h"

#include <vector>

namespace flamefold {
namespace {

bool IsPerlSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool SplitFoldedLine(std::string_view line, std::string_view* stack,
                     std::string_view* count) {
  size_t k = line.size();
  while (k > 0 && (IsDigit(line[k - 1]) || line[k - 1] == '.')) --k;
  std::string_view run = line.substr(k);
  if (run.empty() || !IsDigit(run[0])) return false;
  size_t dot = run.find('.');
  if (dot != std::string_view::npos &&
      run.find('.', dot + 1) != std::string_view::npos) {
    return false;
  }
  if (k == 0 || !IsPerlSpace(line[k - 1])) return false;
  *stack = line.substr(0, k - 1);
  *count = run;
  return true;
}

void InternFrames(std::string_view stack, StringInterner* names,
                  std::vector<SymbolId>* frames) {
  size_t pos = 0;
  for (;;) {
    size_t semi = stack.find(';', pos);
    frames->push_back(names->Intern(stack.substr(pos, semi - pos)));
    if (semi == std::string_view::npos) break;
    pos = semi + 1;
  }
}

std::string FirstInvalidWhere(const FoldedStats& stats) {
  return (stats.first_invalid_file.empty() ? "line "
                                           : stats.first_invalid_file + ":") +
         std::to_string(stats.first_invalid_line);
}

bool ReadFolded(LineReader* reader, StringInterner* names, SampleSink* sink,
                FoldedStats* stats, std::string* err,
                const StackLimits& limits) {
  std::vector<SymbolId> frames;
  std::string scratch;
  std::string_view line;
  for (;;) {
    LineReader::Result r = reader->Next(&line);
    if (r == LineReader::kEof) return true;
    if (r == LineReader::kError) {
      *err = reader->error();
      return false;
    }
    stats->lines++;
    std::string_view stack, count;
    if (r == LineReader::kTooLong || !SplitFoldedLine(line, &stack, &count)) {
      if (stats->invalid_lines++ == 0) {
        stats->first_invalid_line = reader->line_number();
      }
      continue;
    }
    frames.clear();
    InternFrames(LimitFoldedStack(stack, limits, &stats->limits, &scratch),
                 names, &frames);
    sink->OnSample(frames, PerlNumber::Parse(count));
  }
}

}  // namespace flamefold
