#include "collapse/perf_script_lines.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace flamefold {
namespace {

// printf's "%*" PRIu64 / "%*d" with a minimum width.
template <typename Int>
void AppendNumber(Int v, size_t width, std::string* out) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  size_t n = static_cast<size_t>(r.ptr - buf);
  if (n < width) out->append(width - n, ' ');
  out->append(buf, n);
}

// "[%03d] " without snprintf, whose format parsing would cost as much as the
// rest of the sample's header.
void AppendCpu(int32_t cpu, std::string* out) {
  char buf[24];
  char* p = buf;
  *p++ = '[';
  if (cpu < 0) *p++ = '-';
  uint32_t v = cpu < 0 ? 0u - static_cast<uint32_t>(cpu)
                       : static_cast<uint32_t>(cpu);
  auto r = std::to_chars(p, buf + sizeof buf - 2, v);
  size_t digits = static_cast<size_t>(r.ptr - p);
  size_t width = cpu < 0 ? 2 : 3;  // the sign counts in the width
  if (digits < width) {
    std::memmove(p + (width - digits), p, digits);
    std::memset(p, '0', width - digits);
    r.ptr += width - digits;
  }
  *r.ptr++ = ']';
  *r.ptr++ = ' ';
  out->append(buf, static_cast<size_t>(r.ptr - buf));
}

// The time as perf script prints it: right-aligned in twelve columns and
// followed by ": ", the seconds then six digits of their fraction
// (microseconds), or nine with `to_ns` (perf script --ns).
void AppendTime(uint64_t ns, bool to_ns, std::string* out) {
  char when[48];
  auto r = std::to_chars(when, when + 24, ns / 1000000000);
  const int digits = to_ns ? 9 : 6;
  uint64_t fraction = to_ns ? ns % 1000000000 : ns % 1000000000 / 1000;
  *r.ptr++ = '.';
  for (int d = digits - 1; d >= 0; --d) {
    r.ptr[d] = static_cast<char>('0' + fraction % 10);
    fraction /= 10;
  }
  size_t n = static_cast<size_t>(r.ptr + digits - when);
  if (n < 12) out->append(12 - n, ' ');
  out->append(when, n);
  *out += ": ";
}

}  // namespace

void AppendSampleHeader(const RecordedEvent& e, const RecordedSample& s,
                        SampleHeaderStyle style, std::string* out) {
  if (!s.chain && s.comm.size() < 16) {
    out->append(16 - s.comm.size(), ' ');  // "%16s" before an inline frame
  }
  *out += s.comm;
  *out += ' ';
  if (e.tid && style.pid_tid) {  // "%5d/%-5d "
    AppendNumber(s.pid, 5, out);
    *out += '/';
    size_t start = out->size();
    AppendNumber(s.tid, 1, out);
    size_t digits = out->size() - start;
    out->append(digits < 5 ? 6 - digits : 1, ' ');  // "%-5d "
  } else if (e.tid) {  // "%5d "
    AppendNumber(s.tid, 5, out);
    *out += ' ';
  }
  if (e.cpu) AppendCpu(s.cpu, out);
  if (e.time) AppendTime(s.time, style.ns, out);
  // perf script's default fields for a tracepoint (uprobes and kprobes
  // included) have no period.
  if (!e.tracepoint) {
    AppendNumber(s.period, 10, out);  // "%10" PRIu64 " "
    *out += ' ';
  }
  out->append(style.name_width - std::min(style.name_width, e.name.size()),
              ' ');
  *out += e.name;
  *out += ": ";
  if (e.tracepoint) {
    // perf prints the tracepoint's fields here; they are not decoded, but
    // for the one --weight reads. Any text keeps the line from ending in
    // "event:", as it does.
    *out += "[fields]";
    if (!style.weight_field.empty() && s.weight) {
      *out += ' ';
      *out += style.weight_field;
      *out += '=';
      *out += std::to_string(*s.weight);
    }
  }
}

void AppendFrameText(const RecordedFrame& f, std::string* out) {
  *out += f.pc;
  *out += ' ';
  *out += f.symbol;
  *out += " (";
  *out += f.module;
  *out += ')';
}

bool PidTidWanted(const PerfScriptOptions& options) {
  return (options.modern || options.off_cpu.enabled) &&
         (options.include_pid || options.include_tid);
}

}  // namespace flamefold
