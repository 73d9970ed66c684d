// SchedFields: sched_switch's fields read from a sample's raw data by the
// event's format, and prev_state's letters from its print fmt.
#include "perfdata/sched_fields.h"

#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace {

// sched:sched_switch's format on Linux 6.18, as its format file gives it.
const std::string kSchedSwitch =
    "name: sched_switch\nID: 372\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s"
    " ==> next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC-"
    ">prev_pid, REC->prev_prio, (REC->prev_state & ((((0x00000000 | 0x0"
    "0000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00"
    "000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_st"
    "ate & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00"
    "000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), \""
    "|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \""
    "T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020,"
    " \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", R"
    "EC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000"
    "004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1"
    ") ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio" "\n";

std::string Text(uint64_t state, const PrevStateNames& names) {
  return PrevStateText(state, names).data();
}

TEST_CASE("prev_state's letters from the print fmt's table") {
  TracepointFormats formats;
  std::string err;
  REQUIRE(formats.AddFormat("sched", kSchedSwitch, &err));
  const TracepointFormat* f = formats.Find(372);
  REQUIRE(f != nullptr);
  PrevStateNames names = PrevStateNamesOf(f->print_fmt);
  REQUIRE(names.flags.size() == 8);
  CHECK(names.flags[0].second == "S");
  CHECK(names.flags[7].first == 0x80);
  CHECK(names.flags[7].second == "I");
  CHECK(names.preempted == 0x100);
  CHECK(Text(0, names) == "R");
  CHECK(Text(0x1, names) == "S");
  CHECK(Text(0x2, names) == "D");
  CHECK(Text(0x80, names) == "I");
  CHECK(Text(0x100, names) == "R+");
  CHECK(Text(0x10, names) == "X");
  CHECK(Text(0x3, names) == "S|D");
}

TEST_CASE("without a table, the kernels' bits since 4.14") {
  PrevStateNames names =
      PrevStateNamesOf("\"prev_state=%ld\", REC->prev_state");
  CHECK(names.preempted == 0x100);
  CHECK(Text(0, names) == "R");
  CHECK(Text(0x20, names) == "Z");
  CHECK(Text(0x101, names) == "S+");
  // A table of its own: "+" is the bit after its last.
  PrevStateNames old = PrevStateNamesOf(
      "__print_flags(REC->prev_state & 63, \"|\", { 1, \"S\" }, "
      "{ 0x01, \"S\" }, { 0x02, \"D\" }) : \"R\"");
  CHECK(old.preempted == 0x4);
  CHECK(Text(0x4, old) == "R+");
  CHECK(Text(0x2, old) == "D");
}

// A sample's raw data: the fields at their offsets, little-endian.
std::string Raw(int32_t prev, int64_t state, int32_t next) {
  std::string raw(64, '\0');
  std::memcpy(raw.data() + 24, &prev, 4);
  std::memcpy(raw.data() + 32, &state, 8);
  std::memcpy(raw.data() + 56, &next, 4);
  return raw;
}

PerfDataInfo Info() {
  PerfDataInfo info;
  PerfAttr cycles;
  cycles.name = "cycles";
  PerfAttr sched;
  sched.type = perf_abi::kTypeTracepoint;
  sched.config = 372;
  sched.name = "sched:sched_switch";
  info.attrs = {cycles, sched};
  return info;
}

TEST_CASE("the fields of a sched_switch sample by its format") {
  PerfDataInfo info = Info();
  std::string err;
  REQUIRE(info.tracepoints.AddFormat("sched", kSchedSwitch, &err));
  SchedFields fields;
  REQUIRE(fields.Init(info, "perf.data", &err));
  std::optional<SchedSwitch> s = fields.Of(1, Raw(17001, 0x1, 14598));
  REQUIRE(s);
  CHECK(s->prev_pid == 17001);
  CHECK(s->next_pid == 14598);
  CHECK(s->state_text() == "S");
  CHECK(fields.Of(1, Raw(5, 0x100, 0))->state_text() == "R+");
  CHECK_FALSE(fields.Of(0, Raw(1, 1, 2)));  // another event
  CHECK_FALSE(fields.Of(1, std::string(40, '\0')));  // cut short
}

TEST_CASE("a recording without sched_switch, or a format without a field") {
  PerfDataInfo info = Info();
  info.attrs.pop_back();
  SchedFields fields;
  std::string err;
  CHECK_FALSE(fields.Init(info, "perf.data", &err));
  CHECK(err == "perf.data: --off-cpu: no sched:sched_switch samples: the "
               "recording's events are cycles (perf record -e "
               "sched:sched_switch -g)");
  PerfDataInfo no_state = Info();
  std::string format = kSchedSwitch;
  format.replace(format.find("prev_state"), 10, "prev_statf");
  REQUIRE(no_state.tracepoints.AddFormat("sched", format, &err));
  CHECK_FALSE(fields.Init(no_state, "perf.data", &err));
  CHECK(err.starts_with("perf.data: --off-cpu: sched:sched_switch has no "
                        "integer field prev_state; its fields: prev_comm"));
}

}  // namespace
}  // namespace flamefold
