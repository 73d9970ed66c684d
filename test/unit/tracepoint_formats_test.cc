// The tracing data of a recording: event formats read by id, fields read
// from a sample's raw data, and every length checked.
#include "perfdata/tracepoint_formats.h"

#include <doctest/doctest.h>

#include <string>

namespace flamefold {
namespace {

// A u32/u64 in little-endian, or big-endian when `swap`.
std::string Bytes(uint64_t v, int size, bool swap = false) {
  std::string out(static_cast<size_t>(size), '\0');
  for (int i = 0; i < size; ++i) {
    int at = swap ? size - 1 - i : i;
    out[static_cast<size_t>(at)] = static_cast<char>((v >> (8 * i)) & 0xff);
  }
  return out;
}

// kmem:kmalloc's format on Linux 6.18, as its format file gives it.
const std::string kKmalloc =
    "name: kmalloc\nID: 658\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
    "\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:size_t bytes_req;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:size_t bytes_alloc;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long gfp_flags;\toffset:40;\tsize:8;\tsigned:0;\n"
    "\tfield:int node;\toffset:48;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"call_site=%pS ptr=%p bytes_req=%zu bytes_alloc=%zu\", "
    "REC->call_site, REC->ptr, REC->bytes_req, REC->bytes_alloc\n";

// sched:sched_process_exec's: a __data_loc string.
const std::string kExec =
    "name: sched_process_exec\nID: 312\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
    "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
    "\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n\n"
    "print fmt: \"filename=%s pid=%d\", __get_str(filename), REC->pid\n";

// The tracing data perf record writes, holding `formats` of `system`.
std::string TracingData(const std::string& system,
                        const std::vector<std::string>& formats,
                        bool swap = false) {
  std::string out = std::string("\x17\x08\x44tracing", 10) + "0.6" + '\0';
  out += swap ? '\1' : '\0';
  out += '\x08';
  out += Bytes(4096, 4, swap);
  out += std::string("header_page") + '\0' + Bytes(4, 8, swap) + "page";
  out += std::string("header_event") + '\0' + Bytes(5, 8, swap) + "event";
  out += Bytes(1, 4, swap) + Bytes(3, 8, swap) + "ftr";  // one ftrace format
  out += Bytes(1, 4, swap) + system + '\0';
  out += Bytes(formats.size(), 4, swap);
  for (const std::string& f : formats) out += Bytes(f.size(), 8, swap) + f;
  out += Bytes(0, 4, swap) + Bytes(0, 4, swap) + Bytes(0, 8, swap);
  return out;
}

TEST_CASE("event formats are read by id, in either byte order") {
  for (bool swap : {false, true}) {
    CAPTURE(swap);
    TracepointFormats formats;
    std::string err;
    REQUIRE(formats.Read(TracingData("kmem", {kKmalloc, kExec}, swap), 100,
                         &err));
    CHECK(formats.swapped() == swap);
    const TracepointFormat* k = formats.Find(658);
    REQUIRE(k != nullptr);
    CHECK(k->system == "kmem");
    CHECK(k->name == "kmalloc");
    CHECK(k->fields.size() == 10);
    CHECK(k->FieldNames() ==
          "call_site, ptr, bytes_req, bytes_alloc, gfp_flags, node");
    const TracepointField* ptr = k->Field("ptr");
    REQUIRE(ptr != nullptr);
    CHECK(ptr->type == "const void *");
    CHECK(ptr->offset == 16);
    CHECK(ptr->integer());
    const TracepointField* node = k->Field("node");
    REQUIRE(node != nullptr);
    CHECK(node->is_signed);
    CHECK(node->size == 4);
    CHECK(k->Field("common_pid")->common());
    CHECK(k->Field("nope") == nullptr);
    CHECK(formats.Find(659) == nullptr);
    const TracepointFormat* e = formats.Find(312);
    REQUIRE(e != nullptr);
    const TracepointField* file = e->Field("filename");
    CHECK(file->data_loc);
    CHECK_FALSE(file->integer());
    CHECK(file->type == "__data_loc char[]");
    const TracepointField* comm = e->Field("comm");
    CHECK(comm->array);
    CHECK(comm->type == "char[16]");
    CHECK_FALSE(comm->integer());
  }
}

TEST_CASE("integer fields are read from raw data, signed ones extended") {
  TracepointFormats formats;
  std::string err;
  REQUIRE(formats.AddFormat("kmem", kKmalloc, &err));
  const TracepointFormat& k = formats.formats()[0];
  // common_type 658, common_flags 0x81, then the fields (node -1).
  std::string raw = Bytes(658, 2) + std::string("\x81\x00", 2) +
                    Bytes(4321, 4) +
                    Bytes(0xffffffff81000000, 8) +
                    Bytes(0xffff888100000000, 8) + Bytes(64, 8) +
                    Bytes(96, 8) + Bytes(0xcc0, 8) + Bytes(0xffffffff, 4);
  CHECK(ReadIntegerField(*k.Field("bytes_alloc"), raw, false) == 96);
  CHECK(ReadIntegerField(*k.Field("node"), raw, false) == UINT64_MAX);
  CHECK(ReadIntegerField(*k.Field("common_flags"), raw, false) == 0x81);
  CHECK(ReadIntegerField(*k.Field("common_pid"), raw, false) == 4321);
  CHECK(ReadIntegerField(*k.Field("common_type"), raw, false) == 658);
  CHECK(ReadIntegerField(*k.Field("common_type"), raw, true) == 0x9202);
  // Raw data too short for the field: none.
  CHECK_FALSE(ReadIntegerField(*k.Field("bytes_alloc"), raw.substr(0, 39),
                               false));
  CHECK_FALSE(ReadIntegerField(*k.Field("node"), raw.substr(0, 51), false));
}

TEST_CASE("damaged tracing data: every length is checked") {
  std::string good = TracingData("kmem", {kKmalloc});
  for (size_t cut = 0; cut < good.size(); ++cut) {
    TracepointFormats formats;
    std::string err;
    bool ok = formats.Read(good.substr(0, cut), 0, &err);
    // Past the last format the data may end anywhere: it is not read.
    if (cut >= good.size() - 16) {
      CHECK(ok);
    } else {
      CAPTURE(cut);
      CHECK_FALSE(ok);
      CHECK(err.find("tracing data: ") != std::string::npos);
    }
  }
  // Cut inside the third format: the two before, out of id order, are
  // kept and found by their ids.
  std::string third = kKmalloc;
  third.replace(third.find("ID: 658"), 7, "ID: 700");
  std::string three = TracingData("kmem", {kKmalloc, kExec, third});
  TracepointFormats kept;
  std::string why;
  CHECK_FALSE(kept.Read(three.substr(0, three.size() - 40), 0, &why));
  REQUIRE(kept.formats().size() == 2);
  CHECK(kept.Find(312) != nullptr);
  CHECK(kept.Find(658) != nullptr);
  std::string huge = good;
  huge[good.find("kmem") - 4] = '\xff';  // a system count past the end
  TracepointFormats formats;
  std::string err;
  CHECK_FALSE(formats.Read(huge, 0, &err));
  CHECK(err == "offset 89: tracing data: event system count past the end");
}

TEST_CASE("a format that does not read as one is refused, naming the line") {
  TracepointFormats formats;
  std::string err;
  CHECK_FALSE(formats.AddFormat("x", "name: a\nID: 1\nformat:\n"
                                     "\tfield:int;\toffset:0;\tsize:4;\n", &err));
  CHECK(err == "field line not understood: '\tfield:int;\toffset:0;\tsize:4;'");
  CHECK_FALSE(formats.AddFormat("x", "name: a\nID: one\n", &err));
  CHECK(err == "event id is not a number: 'ID: one'");
  CHECK_FALSE(formats.AddFormat("x", "ID: 3\nformat:\n", &err));
  CHECK(err == "event format of x without its name");
  CHECK(formats.formats().empty());
}

}  // namespace
}  // namespace flamefold
