#include "perfdata/perf_data_features.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace flamefold {
namespace {

// Little-endian, or big-endian when `swap`: the bytes of a u16/u32/u64.
std::string Bytes(uint64_t v, int size, bool swap) {
  std::string out(static_cast<size_t>(size), '\0');
  for (int i = 0; i < size; ++i) {
    int at = swap ? size - 1 - i : i;
    out[static_cast<size_t>(at)] = static_cast<char>((v >> (8 * i)) & 0xff);
  }
  return out;
}
std::string U16(uint64_t v, bool swap = false) { return Bytes(v, 2, swap); }
std::string U32(uint64_t v, bool swap = false) { return Bytes(v, 4, swap); }
std::string U64(uint64_t v, bool swap = false) { return Bytes(v, 8, swap); }

// A string as perf writes it: its padded length, then the NUL-padded text.
std::string PerfString(const std::string& s, bool swap = false) {
  std::string text = s + '\0';
  text.resize((text.size() + 7) / 8 * 8, '\0');
  return U32(text.size(), swap) + text;
}

// A BUILD_ID record: header, pid, the 24-byte build id area, file name.
std::string BuildIdRecord(int32_t pid, const std::string& id, uint16_t misc,
                          const std::string& file) {
  std::string area = id;
  area.resize(24, '\0');
  if (misc & (1u << 15)) area[20] = static_cast<char>(id.size());
  std::string name = file + '\0';
  name.resize((name.size() + 7) / 8 * 8, '\0');
  std::string body = U32(static_cast<uint32_t>(pid)) + area + name;
  return U32(2) + U16(misc) + U16(8 + body.size()) + body;
}

// One event of EVENT_DESC, its attr `attr_size` bytes of zeros.
std::string EventDesc(uint32_t attr_size, const std::string& name,
                      const std::vector<uint64_t>& ids) {
  std::string out = std::string(attr_size, '\0') + U32(ids.size()) +
                    PerfString(name);
  for (uint64_t id : ids) out += U64(id);
  return out;
}

TEST_CASE("a string section is read up to its NUL, in either byte order") {
  for (bool swap : {false, true}) {
    CAPTURE(swap);
    std::string bytes = PerfString("6.1.0-18-amd64", swap);
    std::string out;
    REQUIRE(ReadFeatureString({bytes, 200, swap}, &out));
    CHECK(out == "6.1.0-18-amd64");
  }
}

TEST_CASE("a string section shorter than its length leaves the string") {
  std::string bytes = PerfString("x86_64");
  bytes.resize(bytes.size() - 1);
  std::string out = "kept";
  CHECK_FALSE(ReadFeatureString({bytes, 0, false}, &out));
  CHECK(out == "kept");
}

TEST_CASE("CMDLINE appends the whole strings, up to one cut short") {
  std::string bytes = U32(3) + PerfString("perf") + PerfString("record") +
                      PerfString("--call-graph=dwarf");
  std::vector<std::string> out = {"before"};
  ReadFeatureStrings({bytes, 0, false}, &out);
  CHECK(out == std::vector<std::string>{"before", "perf", "record",
                                        "--call-graph=dwarf"});
  out.clear();
  bytes.resize(bytes.size() - 4);
  ReadFeatureStrings({bytes, 0, false}, &out);
  CHECK(out == std::vector<std::string>{"perf", "record"});
}

TEST_CASE("BUILD_ID: 20 bytes unless misc gives the size") {
  const std::string sha1(20, '\xab'), short_id = "\x01\x02\x03\x04";
  std::string bytes = BuildIdRecord(-1, sha1, 0, "[kernel.kallsyms]") +
                      BuildIdRecord(42, short_id, 1u << 15, "/usr/bin/prog");
  std::vector<PerfDataInfo::BuildId> out;
  ReadFeatureBuildIds({bytes, 0, false}, &out);
  REQUIRE(out.size() == 2);
  CHECK(out[0].pid == -1);
  CHECK(out[0].build_id == sha1);
  CHECK(out[0].filename == "[kernel.kallsyms]");
  CHECK(out[1].pid == 42);
  CHECK(out[1].build_id == short_id);
  CHECK(out[1].filename == "/usr/bin/prog");
}

TEST_CASE("BUILD_ID stops at a record too small or cut short") {
  const std::string id(20, '\x11');
  std::string good = BuildIdRecord(1, id, 0, "/lib/a.so");
  std::string too_small = U32(2) + U16(0) + U16(8 + 4 + 20);
  too_small.resize(too_small.size() + 24, '\0');
  std::vector<PerfDataInfo::BuildId> out;
  ReadFeatureBuildIds({good + too_small + good, 0, false}, &out);
  CHECK(out.size() == 1);
  out.clear();
  std::string cut = good + good;
  cut.resize(cut.size() - 1);
  ReadFeatureBuildIds({cut, 0, false}, &out);
  CHECK(out.size() == 1);
}

TEST_CASE("EVENT_DESC gives each event's name and first id") {
  std::string bytes = U32(2) + U32(136) +
                      EventDesc(136, "cycles:u", {7, 8}) +
                      EventDesc(136, "sched:sched_switch", {});
  std::vector<EventDescription> out;
  std::string err;
  REQUIRE(ReadFeatureEventDescriptions({bytes, 0, false}, &out, &err));
  REQUIRE(out.size() == 2);
  CHECK(out[0].name == "cycles:u");
  CHECK(out[0].first_id == 7);
  CHECK(out[1].name == "sched:sched_switch");
  CHECK_FALSE(out[1].first_id.has_value());
}

TEST_CASE("EVENT_DESC without its counts holds no event") {
  std::vector<EventDescription> out;
  std::string err;
  CHECK(ReadFeatureEventDescriptions({U32(1), 0, false}, &out, &err));
  CHECK(out.empty());
}

TEST_CASE("a damaged EVENT_DESC is an error naming the offset") {
  std::vector<EventDescription> out;
  std::string err;
  std::string bad_size = U32(1) + U32(8) + EventDesc(8, "cycles", {1});
  CHECK_FALSE(
      ReadFeatureEventDescriptions({bad_size, 1000, false}, &out, &err));
  CHECK(err == "offset 1004: event description attr size 8 is out of range");

  std::string first = EventDesc(64, "cycles", {1});
  std::string cut = U32(2) + U32(64) + first + std::string(10, '\0');
  CHECK_FALSE(ReadFeatureEventDescriptions({cut, 1000, false}, &out, &err));
  CHECK(err == "offset " + std::to_string(1000 + 8 + first.size()) +
                   ": event description 1 is cut short");
}

}  // namespace
}  // namespace flamefold
