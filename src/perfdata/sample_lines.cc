#include "perfdata/sample_lines.h"

#include <charconv>

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;
namespace {

template <size_t N>
std::string_view Decimal(uint64_t v, char (&buf)[N]) {
  auto r = std::to_chars(buf, buf + N, v);
  return {buf, static_cast<size_t>(r.ptr - buf)};
}

}  // namespace

SampleLines::SampleLines(PerfScriptParser* parser, bool pid_tid)
    : lines_(parser), pid_tid_(pid_tid) {}

void SampleLines::SetEvents(const std::vector<PerfAttr>& attrs) {
  events_.clear();
  for (const PerfAttr& a : attrs) events_.push_back({a.name, EventShown(a)});
}

bool SampleLines::EventShown(const PerfAttr& a) {
  return (a.sample_type & abi::kSampleTime) && !a.name.empty() &&
         a.type != abi::kTypeTracepoint;
}

bool SampleLines::Put(const HeldSample& s, std::string* err) {
  if (s.chain) {
    PutHeader(s);
    if (lines_) {
      PutFramesById(s);
    } else {
      for (size_t i = 0; i < s.frame_count; ++i) PutFrame(s.frames[i]);
    }
  } else {  // the header line ends with the sample's one frame
    out_ += s.header;
    out_ += ' ';
    FrameText* f = s.frames[0].named;
    out_ += f->made_text;
    CountFrame(f->no_symbol);
  }
  EndLine();  // after a call chain, the blank line that ends the sample
  if (!line_error_.empty()) {
    *err = line_error_;
    return false;
  }
  return true;
}

// The header of a sample: its line, or its fields.
void SampleLines::PutHeader(const HeldSample& s) {
  if (!s.values) {
    out_ += s.header;
    EndLine();
    return;
  }
  const HeaderValues& v = *s.values;
  const Event& e = events_[v.attr];
  char pid[16], tid[16];
  PerfScriptParser::HeaderFields h;
  h.comm = s.header;
  // The pid and tid are read only with --pid: else not written.
  bool read_pid = lines_->options().include_pid;
  if (read_pid && pid_tid_) {  // "%5d/%-5d "
    h.pid = Decimal(static_cast<uint32_t>(v.pid), pid);
    h.tid = Decimal(static_cast<uint32_t>(v.tid), tid);
    h.has_tid = true;
  } else if (read_pid) {  // "%5d "
    h.pid = Decimal(static_cast<uint32_t>(v.tid), tid);
  }
  // ": %10" PRIu64 " %s: " after the time; nothing the parser reads as
  // an event without the time, or after a tracepoint's fields.
  PerfScriptParser::EventFields ev{{}, e.name, true, v.period};
  lines_->HeaderLine(h, e.shown ? &ev : nullptr);
}

void SampleLines::PutFrame(const HeldFrame& f) {
  if (f.kind == HeldFrame::Kind::kNamed) {
    PutFrameLine(f.named);
    return;
  }
  UnwoundText* u = f.unwound;
  CountFrame(u->no_symbol, u->frames);
  if (lines_) {
    PutUnwoundLines(u);
  } else {
    out_ += u->text;
  }
}

// The stack lines of `s` to the parser: those of frames named with a line id
// in one call (PerfScriptParser::StackLines), the others one by one in their
// place. Line by line, the calls between the two threads' code would be a
// large share of this thread's work.
void SampleLines::PutFramesById(const HeldSample& s) {
  const bool java = lines_->java_process();
  ids_.clear();
  for (size_t i = 0; i < s.frame_count; ++i) {
    const HeldFrame& f = s.frames[i];
    if (f.kind == HeldFrame::Kind::kNamed) {
      uint32_t id = LineId(f.named, java);
      if (id != PerfScriptParser::kNoStackLineId) {
        CountFrame(f.named->no_symbol);
        ids_.push_back(id);
        continue;
      }
    }
    lines_->StackLines(ids_);  // the lines before this one first
    ids_.clear();
    PutFrame(f);
  }
  lines_->StackLines(ids_);
}

// A stack line of the frame: "\t<frame>\n" in the text, else given to
// the parser by the line's id, looked up once per frame (once per
// symbol: FrameTexts::Style::by_symbol) and kind of process name.
void SampleLines::PutFrameLine(FrameText* f) {
  CountFrame(f->no_symbol);
  if (!lines_) {
    out_ += '\t';
    out_ += f->made_text;
    out_ += '\n';
    return;
  }
  uint32_t id = LineId(f, lines_->java_process());
  PutStackLine(id, id == PerfScriptParser::kNoStackLineId
                       ? f->made_text
                       : std::string_view());
}

uint32_t SampleLines::LineId(FrameText* f, bool java) {
  if (!f->resolved[java]) {
    line_.assign(1, '\t');
    line_ += f->made_text;
    f->line_id[java] = lines_->StackLineId(line_, java);
    f->resolved[java] = true;
  }
  return f->line_id[java];
}

// The lines of an unwound frame to the parser, by their ids (looked up
// once per frame and kind of process name).
void SampleLines::PutUnwoundLines(UnwoundText* u) {
  const std::vector<uint32_t>& ids =
      UnwoundLineIds(u, lines_->java_process());
  std::string_view text = u->text;
  for (size_t i = 0, start = 0; start < text.size(); ++i) {
    size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl - start);
    start = nl + 1;
    PutStackLine(ids[i], line.substr(1));  // without its '\t'
  }
}

const std::vector<uint32_t>& SampleLines::UnwoundLineIds(UnwoundText* u,
                                                        bool java) {
  std::vector<uint32_t>& ids = u->line_ids[java];
  if (!ids.empty()) return ids;
  std::string_view text = u->text;
  for (size_t start = 0; start < text.size();) {
    size_t nl = text.find('\n', start);
    ids.push_back(lines_->StackLineId(text.substr(start, nl - start), java));
    start = nl + 1;
  }
  return ids;
}

// Gives the parser the stack line "\t<text>" by `id`, or by its text
// when it has none.
void SampleLines::PutStackLine(uint32_t id, std::string_view text) {
  if (id != PerfScriptParser::kNoStackLineId) {
    lines_->StackLine(id);
    return;
  }
  line_.assign(1, '\t');
  line_ += text;
  GiveLine(line_);
}

// Ends the line being written: a '\n' in the text, else the line goes to
// the parser.
void SampleLines::EndLine() {
  if (!lines_) {
    out_ += '\n';
    return;
  }
  if (out_.empty()) {  // the blank line after a call chain
    lines_->BlankLine();
    return;
  }
  GiveLine(out_);
  out_.clear();
}

// One line to the parser; its first error is kept for Put.
void SampleLines::GiveLine(std::string_view line) {
  std::string why;
  if (!lines_->Line(line, &why) && line_error_.empty()) line_error_ = why;
}

// Counts `frames` frames shown, and them in `*no_symbol` (FrameText's)
// when they have no symbol.
void SampleLines::CountFrame(uint64_t* no_symbol, uint64_t frames) {
  frame_count_ += frames;
  if (no_symbol) ++*no_symbol;
}

}  // namespace flamefold
