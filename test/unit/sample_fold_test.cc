// SampleFold: a recording's samples added by their fields fold as the text
// perf script prints for them (perf_script_lines.h) does when the parser
// reads it: the same stacks, counts and statistics, whatever the comm, the
// event or the frame.
#include <doctest/doctest.h>

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "collapse/perf_script.h"
#include "collapse/perf_script_lines.h"
#include "collapse/sample_fold.h"
#include "io/line_reader.h"
#include "test_util.h"

namespace flamefold {
namespace {

using testing::FoldedText;

// A recording in memory: its events, and samples whose frames stay put.
struct Recording {
  std::vector<RecordedEvent> events;
  std::deque<RecordedFrame> frames;
  std::vector<RecordedSample> samples;
  std::deque<std::vector<const RecordedFrame*>> stacks;

  const RecordedFrame* Frame(std::string_view pc, std::string_view symbol,
                             std::string_view module) {
    RecordedFrame& f = frames.emplace_back();
    f.id = static_cast<uint32_t>(frames.size() - 1);
    f.pc = pc;
    f.symbol = symbol;
    f.module = module;
    return &f;
  }
  void Sample(std::string_view comm, int32_t pid, int32_t tid,
              uint32_t event, uint64_t period,
              std::vector<const RecordedFrame*> stack, bool chain = true) {
    RecordedSample s;
    s.ordinal = samples.size() + 1;
    s.time = 1000000000ull * s.ordinal + 250000;
    s.pid = pid;
    s.tid = tid;
    s.cpu = 1;
    s.event = event;
    s.period = period;
    s.comm = comm;
    s.chain = chain;
    s.frames = stacks.emplace_back(std::move(stack));
    samples.push_back(s);
  }
  // The text perf script prints for the samples (a tracepoint's fields:
  // `weight_field` alone, when a sample has it).
  std::string Text(bool pid_tid, std::string_view weight_field = {}) const {
    SampleHeaderStyle style;
    style.pid_tid = pid_tid;
    style.weight_field = weight_field;
    for (const RecordedEvent& e : events) {
      style.name_width = std::max(style.name_width, e.name.size());
    }
    std::string out;
    for (const RecordedSample& s : samples) {
      AppendSampleHeader(events[s.event], s, style, &out);
      if (!s.chain) {
        out += ' ';
        AppendFrameText(*s.frames[0], &out);
        out += '\n';
        continue;
      }
      out += '\n';
      for (const RecordedFrame* f : s.frames) {
        out += '\t';
        AppendFrameText(*f, &out);
        out += '\n';
      }
      out += '\n';
    }
    return out;
  }
};

struct Folded {
  std::string folded, error;
  PerfScriptStats stats;
};

// A timed sink that writes each sample as a line: its time, pid, tid,
// comm, frames (by their names) and weight.
struct TimedLines : TimedSampleSink {
  const StringInterner* names = nullptr;
  std::string lines;
  /// Takes the timed samples of `fold`, whose names are `n`.
  void Watch(SampleFold* fold, const StringInterner* n) {
    names = n;
    fold->set_timed_sink(this);
  }
  void OnTimedSample(const TimedSample& s) override {
    lines += std::to_string(s.time_ns) + " " + std::to_string(s.pid) + "/" +
             std::to_string(s.tid) + " " + std::string(s.comm) + " ";
    for (SymbolId id : s.frames) lines += std::string(names->Get(id)) + ";";
    lines += " " + s.weight.ToString() + "\n";
  }
};

Folded ByFields(const Recording& r, const PerfScriptOptions& o,
                TimedLines* timed = nullptr) {
  StringInterner names;
  StackTrie trie(&names);
  SampleFold fold(o, &names, &trie);
  if (timed) timed->Watch(&fold, &names);
  fold.StartRecording("r.data", 0);
  fold.SetEvents(r.events);
  Folded out;
  for (const RecordedSample& s : r.samples) {
    if (!fold.Add(s, &out.error)) break;
  }
  fold.Finish();
  out.stats = fold.stats();
  out.folded = FoldedText(trie);
  return out;
}

Folded ByText(const Recording& r, const PerfScriptOptions& o,
              TimedLines* timed = nullptr) {
  StringInterner names;
  StackTrie trie(&names);
  PerfScriptParser parser(o, &names, &trie);
  if (timed) timed->Watch(parser.fold(), &names);
  std::string text = r.Text(PidTidWanted(parser.options()), o.weight_field);
  LineReader reader(text);
  Folded out;
  parser.Feed(&reader, "r.data", &out.error);
  parser.Finish();
  out.stats = parser.stats();
  out.folded = FoldedText(trie);
  return out;
}

void CheckAlike(const Recording& r, const PerfScriptOptions& o = {}) {
  Folded fields = ByFields(r, o), text = ByText(r, o);
  CHECK(fields.folded == text.folded);
  CHECK(fields.error.empty() == text.error.empty());
  const PerfScriptStats &a = fields.stats, &b = text.stats;
  CHECK(a.lines == b.lines);
  CHECK(a.comment_lines == b.comment_lines);
  CHECK(a.samples == b.samples);
  CHECK(a.samples_other_event == b.samples_other_event);
  CHECK(a.other_event == b.other_event);
  CHECK(a.other_events == b.other_events);
  CHECK(a.unrecognized_lines == b.unrecognized_lines);
  CHECK(a.paren_frames == b.paren_frames);
  CHECK(a.cut_names == b.cut_names);
  CHECK(a.one_char_comm == b.one_char_comm);
  CHECK(a.upper_hex_offsets == b.upper_hex_offsets);
  CHECK(a.kernel_modules == b.kernel_modules);
  CHECK(a.jitdump_frames == b.jitdump_frames);
  CHECK(a.last_sample_dropped == b.last_sample_dropped);
}

// The comms, events and frames a replay meets, odd ones included.
Recording Mixed() {
  Recording r;
  r.events = {{"cycles", true, true, true, false},
              {"instructions", true, true, true, false},
              {"sched:sched_switch", true, true, true, true},
              {"odd event", true, true, true, false}};
  const RecordedFrame* f = r.Frame("4a1", "main+0x11", "/usr/bin/app");
  const RecordedFrame* g = r.Frame("4b2", "std::vector<int>::push_back(int)+0x2",
                                   "/usr/bin/app");
  const RecordedFrame* k = r.Frame("ffffffff81000010", "schedule+0x10",
                                   "[kernel.kallsyms]");
  const RecordedFrame* u = r.Frame("7f10", "[unknown]", "/usr/lib/libc.so.6");
  const RecordedFrame* none = r.Frame("10", "[unknown]", "[unknown]");
  const RecordedFrame* paren = r.Frame("4c3", "(anon)", "/usr/bin/app");
  const RecordedFrame* deleted =
      r.Frame("4d4", "gone+0x1", "/usr/lib/libgone.so (deleted)");
  const RecordedFrame* empty = r.Frame("4e5", "", "/usr/bin/app");
  const RecordedFrame* spaced = r.Frame("4f6", " lead", "/usr/bin/app");
  const RecordedFrame* no_pc = r.Frame("", "x", "m");  // not a frame line
  const RecordedFrame* jit = r.Frame("5a7", "Ljava/lang/Thread;::run",
                                     "/tmp/perf-9.map");
  const RecordedFrame* upper = r.Frame("5b8", "f+0xAB", "/usr/bin/app");
  const RecordedFrame* cut = r.Frame("5c9", "std::function<void (int)>::f",
                                     "/usr/bin/app");
  for (const char* comm : {"app", "java", "V8 Worker", "a", "#x", "", "0",
                           "java thread", "x;y"}) {
    r.Sample(comm, 10, 11, 0, 100, {f, g, k, u, none});
    r.Sample(comm, 10, 12, 1, 7, {g, f});  // another event: skipped
    r.Sample(comm, 10, 13, 0, 0, {paren, deleted, empty, spaced, no_pc, f});
    r.Sample(comm, 10, 14, 0, 5, {jit, upper, cut});
    r.Sample(comm, 10, 15, 2, 1, {k});  // a tracepoint: no event read
    r.Sample(comm, 10, 16, 3, 3, {f});  // an event with a space
    r.Sample(comm, 10, 17, 0, 9, {u}, false);  // no call chain
    r.Sample(comm, -1, -1, 0, 9, {f, g});  // no pid or tid
  }
  return r;
}

TEST_CASE("samples by their fields fold as their text does") {
  Recording r = Mixed();
  CheckAlike(r);
  PerfScriptOptions o;
  o.include_pid = true;
  CheckAlike(r, o);
  o.include_tid = true;
  CheckAlike(r, o);
  o.modern = true;
  CheckAlike(r, o);
  PerfScriptOptions annotate;
  annotate.annotate_kernel = annotate.annotate_jit = true;
  annotate.include_addrs = true;
  CheckAlike(r, annotate);
  PerfScriptOptions filter;
  filter.event_filter = "instructions";
  CheckAlike(r, filter);
  PerfScriptOptions shallow;
  shallow.limits.max_depth = 2;
  CheckAlike(r, shallow);
}

TEST_CASE("each sample folded goes to the timed sink with its time") {
  Recording r;
  r.events = {{"cycles", true, true, true, false},
              {"instructions", true, true, true, false}};
  const RecordedFrame* f = r.Frame("4a1", "main+0x11", "/usr/bin/app");
  const RecordedFrame* g = r.Frame("4b2", "work", "/usr/bin/app");
  r.Sample("app", 10, 11, 0, 100, {g, f});
  r.Sample("app", 10, 12, 1, 7, {g});  // another event: not folded
  r.Sample("V8 Worker", 10, 13, 0, 0, {f});
  PerfScriptOptions o;
  o.include_pid = o.modern = true;  // the text shows "PID/TID"
  TimedLines fields, text;
  ByFields(r, o, &fields);
  ByText(r, o, &text);
  CHECK(fields.lines ==
        "1000250000 10/11 app app-10;main;work; 100\n"
        "3000250000 10/13 V8 Worker V8_Worker-10;main; 1\n");
  CHECK(text.lines == fields.lines);
  // Without --pid the text shows the tid alone; with --ns, 9 decimals.
  TimedLines tid_only;
  ByText(r, {}, &tid_only);
  CHECK(tid_only.lines.rfind("1000250000 -1/11 app app;main;work; 100\n", 0) ==
        0);
  StringInterner names;
  StackTrie trie(&names);
  PerfScriptParser parser({}, &names, &trie);
  TimedLines ns;
  ns.names = &names;
  parser.fold()->set_timed_sink(&ns);
  const std::string lines =
      "bash 21943 [000]  3442.442956415:    5025125 cpu-clock:ppp: \n"
      "\tffffffff8225f2d9 f ([kernel.kallsyms])\n\n"
      "bash 21943 [000] 7: 1 cpu-clock:ppp: \n\tffffffff8225f2d9 f (k)\n\n";
  LineReader reader(lines);
  std::string err;
  REQUIRE(parser.Feed(&reader, "t", &err));
  CHECK(ns.lines == "3442442956415 -1/21943 bash bash;f; 5025125\n"
                    "18446744073709551615 -1/21943 bash bash;f; 1\n");
}

TEST_CASE("the event filter and a sample in progress carry over") {
  Recording first;
  first.events = {{"instructions", true, false, true, false}};
  const RecordedFrame* f = first.Frame("1", "f", "/bin/x");
  first.Sample("app", 1, 1, 0, 3, {f});
  Recording second;
  second.events = {{"cycles", true, false, true, false},
                   {"instructions", true, false, true, false}};
  const RecordedFrame* g = second.Frame("2", "g", "/bin/x");
  second.Sample("app", 1, 1, 0, 5, {g});
  second.Sample("java", 1, 1, 1, 7, {g});
  // A text whose last sample has no blank line, then the two recordings:
  // as text to one parser, by their fields to another.
  const std::string text = "sh 1 1.0: 2 cycles:\n\tf x (m)\n";
  StringInterner names_a, names_b;
  StackTrie trie_a(&names_a), trie_b(&names_b);
  PerfScriptParser by_text({}, &names_a, &trie_a);
  PerfScriptParser by_fields({}, &names_b, &trie_b);
  std::string err;
  std::string all = text + first.Text(false) + second.Text(false);
  LineReader all_lines(all);
  REQUIRE(by_text.Feed(&all_lines, "t", &err));
  LineReader text_lines(text);
  REQUIRE(by_fields.Feed(&text_lines, "t", &err));
  SampleFold* fold = by_fields.fold();
  for (Recording* r : {&first, &second}) {
    fold->StartRecording("r.data", r == &first ? 1 : 2);
    fold->SetEvents(r->events);
    for (const RecordedSample& s : r->samples) REQUIRE(fold->Add(s, &err));
  }
  by_text.Finish();
  by_fields.Finish();
  CHECK(by_fields.event_filter() == "cycles");
  CHECK(FoldedText(trie_b) == FoldedText(trie_a));
  CHECK(by_fields.stats().samples_other_event == 2);
  CHECK(by_text.stats().samples_other_event == 2);
  CHECK(by_fields.stats().samples == by_text.stats().samples);
}

TEST_CASE("--weight: a sample counts its field, 0 without it") {
  Recording r;
  r.events = {{"kmem:kmalloc", true, true, true, true},
              {"sched:sched_process_exec", true, true, true, true}};
  const RecordedFrame* k = r.Frame("ffffffff81000010", "__kmalloc+0x10",
                                   "[kernel.kallsyms]");
  const RecordedFrame* f = r.Frame("4a1", "main+0x11", "/usr/bin/app");
  const RecordedFrame* g = r.Frame("4b2", "read_file+0x2", "/usr/bin/app");
  auto weigh = [&](std::optional<uint64_t> w) { r.samples.back().weight = w; };
  r.Sample("app", 10, 11, 0, 1, {k, f});
  weigh(4096);
  r.Sample("app", 10, 11, 0, 1, {k, g, f});
  weigh(64);
  r.Sample("app", 10, 11, 0, 1, {k, f});
  weigh(96);
  r.Sample("app", 10, 11, 1, 1, {f});  // no such field
  r.Sample("app", 10, 11, 0, 1, {k, g, f});
  weigh(0);  // adds nothing
  r.Sample("a b", 10, 12, 0, 1, {k, f});  // its header read as text
  weigh(uint64_t{1} << 40);
  PerfScriptOptions o;
  o.weight_field = "bytes_alloc";
  CheckAlike(r, o);
  Folded out = ByFields(r, o);
  CHECK(out.folded == "a_b;main;__kmalloc 1099511627776\n"
                      "app;main;__kmalloc 4192\n"
                      "app;main;read_file;__kmalloc 64\n");
  CHECK(out.stats.samples_unweighed == 1);
  CHECK(ByText(r, o).stats.samples_unweighed == 1);
  // Without --weight each sample counts one.
  CHECK(ByFields(r, {}).folded ==
        "a_b;main;__kmalloc 1\napp;main 1\napp;main;__kmalloc 2\n"
        "app;main;read_file;__kmalloc 2\n");
}

TEST_CASE("a message names the file and the sample") {
  Recording r;
  r.events = {{"cycles", true, true, true, false}};
  const RecordedFrame* odd = r.Frame("", "x", "m");
  const RecordedFrame* nul = r.Frame("2", std::string_view("a\0b", 3), "/x");
  const RecordedFrame* f = r.Frame("3", "f", "/x");
  r.Sample("app", 1, 1, 0, 1, {f});
  r.Sample("app", 1, 1, 0, 1, {odd, f});
  r.Sample("app", 1, 1, 0, 1, {nul});
  Folded out = ByFields(r, {});
  CHECK(out.stats.first_unrecognized.rfind("r.data: sample 2 at 2.000250: ", 0) == 0);
  CHECK(out.error == "r.data: sample 3 at 3.000250: NUL byte at column 5: "
                     "binary data, not perf script text");
  CHECK(ByText(r, {}).error.rfind("r.data:", 0) == 0);
}

}  // namespace
}  // namespace flamefold
