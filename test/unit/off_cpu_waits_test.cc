// OffCpuWaits: waits opened by switch-outs and closed by the thread's next
// run, on synthetic sequences: what is a wait and what is not, waits cut by
// the end, the state and length filters, and the rounding of each stack's
// sum of nanoseconds to the unit.
#include "collapse/off_cpu_waits.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace flamefold {
namespace {

using testing::FoldedText;

SchedSwitch Switch(int32_t prev, int32_t next, const std::string& state) {
  SchedSwitch s;
  s.prev_pid = prev;
  s.next_pid = next;
  state.copy(s.state.data(), s.state.size() - 1);
  return s;
}

// Waits folded into a trie of their own, stacks named by frame.
struct Fold {
  explicit Fold(OffCpuOptions o = {}) : options(o), waits(options, &stats) {}

  // The switch-out `s` at `time` on the stack `frames` (root first), as
  // SampleFold hands it: the threads it names ran, then the wait opens.
  void SwitchOut(const SchedSwitch& s, uint64_t time,
                 const std::vector<std::string>& frames) {
    waits.Saw(time);
    waits.SwitchesOut(s.prev_pid, time);
    waits.Ran(s.next_pid, time, true);
    if (!waits.Opens(s)) return;
    std::vector<SymbolId> ids;
    for (const std::string& f : frames) ids.push_back(names.Intern(f));
    waits.Open(s.prev_pid, time, ids);
  }
  void SwitchIn(int32_t tid, uint64_t time) {
    waits.Saw(time);
    waits.Ran(tid, time, true);
  }
  std::string Finish() {
    waits.Finish(&trie);
    return FoldedText(trie);
  }

  OffCpuOptions options;
  OffCpuStats stats;
  OffCpuWaits waits;
  StringInterner names;
  StackTrie trie{&names};
};

TEST_CASE("a wait runs from the switch-out to the thread's switch-in") {
  Fold f;
  f.SwitchOut(Switch(10, 11, "S"), 1000000, {"a", "sleep"});
  f.SwitchIn(10, 3500000);
  CHECK(f.Finish() == "a;sleep 2500\n");
  CHECK(f.stats.waits == 1);
  CHECK(f.stats.cut == 0);
}

TEST_CASE("a sched_switch naming the thread next_pid ends its wait") {
  Fold f;
  f.SwitchOut(Switch(10, 11, "D"), 1000000, {"a", "read"});
  f.SwitchOut(Switch(11, 10, "S"), 1400000, {"b", "poll"});
  f.SwitchIn(11, 1500000);
  CHECK(f.Finish() == "a;read 400\nb;poll 100\n");
}

TEST_CASE("the idle task and dying threads open no wait") {
  Fold f;
  f.SwitchOut(Switch(0, 10, "R"), 1000, {"swapper", "idle"});
  f.SwitchOut(Switch(10, 0, "X"), 2000, {"a", "do_task_dead"});
  f.SwitchOut(Switch(12, 0, "Z"), 3000, {"c", "do_group_exit"});
  f.SwitchIn(0, 900000);
  f.SwitchIn(10, 900000);
  f.SwitchIn(12, 900000);
  CHECK(f.Finish() == "");
  CHECK(f.stats.idle == 1);
  CHECK(f.stats.dying == 2);
  CHECK(f.stats.waits == 0);
}

TEST_CASE("a switch-in before any switch-out adds nothing") {
  Fold f;
  f.SwitchIn(10, 1000);
  f.SwitchOut(Switch(10, 11, "S"), 2000, {"a", "sleep"});
  f.SwitchIn(10, 5000);
  f.SwitchIn(10, 9000);
  CHECK(f.Finish() == "a;sleep 3\n");
  CHECK(f.stats.unopened_switch_ins == 3);  // 10 twice, 11 once
}

TEST_CASE("a second switch-out without a switch-in ends the first wait") {
  Fold f;
  f.SwitchOut(Switch(10, 11, "S"), 1000000, {"a", "one"});
  f.SwitchOut(Switch(10, 11, "S"), 3000000, {"a", "two"});
  f.SwitchIn(10, 4000000);
  CHECK(f.Finish() == "a;one 2000\na;two 1000\n");
  CHECK(f.stats.unseen_switch_ins == 1);
  CHECK(f.stats.waits == 2);
}

TEST_CASE("a wait open at the end is cut at the last record's time") {
  Fold f;
  f.SwitchOut(Switch(10, 11, "S"), 1000000, {"a", "sleep"});
  f.waits.Saw(7000000);
  CHECK(f.Finish() == "a;sleep 6000\n");
  CHECK(f.stats.cut == 1);
  CHECK(f.stats.cut_ns == 6000000);
}

TEST_CASE("--off-cpu-state keeps the states given; R+ is R") {
  OffCpuOptions o;
  o.states = {"R", "D"};
  Fold f(o);
  f.SwitchOut(Switch(10, 11, "S"), 1000000, {"a", "sleep"});
  f.SwitchOut(Switch(11, 12, "R+"), 1000000, {"b", "preempted"});
  f.SwitchOut(Switch(12, 13, "D"), 1000000, {"c", "disk"});
  f.SwitchIn(10, 2000000);
  f.SwitchIn(11, 2000000);
  f.SwitchIn(12, 2000000);
  CHECK(f.Finish() == "b;preempted 1000\nc;disk 1000\n");
  CHECK(f.stats.other_state == 1);
}

TEST_CASE("--off-cpu-min-us drops shorter waits before they are summed") {
  OffCpuOptions o;
  o.min_ns = 1000000;
  Fold f(o);
  f.SwitchOut(Switch(10, 11, "S"), 0, {"a", "sleep"});
  f.SwitchIn(10, 999999);
  f.SwitchOut(Switch(10, 11, "S"), 2000000, {"a", "sleep"});
  f.SwitchIn(10, 3000000);
  CHECK(f.Finish() == "a;sleep 1000\n");
  CHECK(f.stats.short_waits == 1);
}

TEST_CASE("each stack's sum in ns is rounded to the unit once") {
  Fold f;
  // two waits of 700 ns on one stack: 1400 ns, 1 us (not 1 + 1)
  f.SwitchOut(Switch(10, 11, "S"), 1000, {"a", "sleep"});
  f.SwitchIn(10, 1700);
  f.SwitchOut(Switch(10, 11, "S"), 2000, {"a", "sleep"});
  f.SwitchIn(10, 2700);
  // 400 ns: 0 us, not printed; 1500 ns rounds up to 2 us
  f.SwitchOut(Switch(11, 10, "S"), 3000, {"b", "short"});
  f.SwitchIn(11, 3400);
  f.SwitchOut(Switch(12, 10, "S"), 3000, {"c", "half"});
  f.SwitchIn(12, 4500);
  CHECK(f.Finish() == "a;sleep 1\nc;half 2\n");

  OffCpuOptions ms;
  ms.unit_ns = 1000000;
  Fold g(ms);
  g.SwitchOut(Switch(10, 11, "S"), 0, {"a", "sleep"});
  g.SwitchIn(10, 2499999);
  CHECK(g.Finish() == "a;sleep 2\n");
}

TEST_CASE("a wait of no time adds nothing; Finish forgets the input") {
  Fold f;
  f.SwitchOut(Switch(10, 11, "S"), 5000, {"a", "sleep"});
  f.SwitchIn(10, 5000);
  CHECK(f.Finish() == "");
  CHECK(f.stats.waits == 0);
  f.SwitchOut(Switch(10, 11, "S"), 1000, {"a", "sleep"});
  f.waits.Finish(&f.trie);  // cut at 1000: no time
  f.SwitchIn(10, 9000);     // the next input: no wait open
  CHECK(f.Finish() == "");
}

TEST_CASE("--on-off: CPU samples' ns summed with the waits', per stack") {
  Fold f;
  std::vector<SymbolId> work{f.names.Intern("a"), f.names.Intern("work")};
  f.waits.AddOnCpu(work, 250400);
  f.SwitchOut(Switch(10, 11, "S"), 1000, {"a", "sleep"});
  f.SwitchIn(10, 2000);
  f.waits.AddOnCpu(work, 250400);
  CHECK(f.Finish() == "a;sleep 1\na;work 501\n");
  CHECK(f.stats.on_cpu_samples == 2);
}

TEST_CASE("the units --off-cpu-unit names") {
  CHECK(OffCpuUnitNs("ns") == 1);
  CHECK(OffCpuUnitNs("us") == 1000);
  CHECK(OffCpuUnitNs("ms") == 1000000);
  CHECK(OffCpuUnitNs("s") == 0);
  OffCpuOptions o;
  CHECK(OffCpuUnitName(o) == "");
  o.enabled = true;
  CHECK(OffCpuUnitName(o) == "microseconds");
}

}  // namespace
}  // namespace flamefold
