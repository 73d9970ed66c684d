// The exports (report/): the speedscope, d3 and pprof writers on stacks
// given by hand, as RunFold hands them over (sorted, distinct). Each expectation is
// written out by hand; the pprof profile is read back with protobuf.
#include <doctest/doctest.h>

#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "report/d3_tree.h"
#include "report/pprof.h"
#include "report/profile.pb.h"
#include "report/speedscope.h"
#include "report/stack_frames.h"
#include "symbols/symbol_resolver.h"
#include "flamefold_config.h"

using namespace flamefold;

namespace {

using Stacks = std::vector<std::pair<std::string, PerlNumber>>;

PerlNumber N(uint64_t v) { return PerlNumber::FromUint(v); }

// What `writer` writes of `stacks`; `*ok` is Finish's result.
std::string Write(StackWriter* writer, StringSink* sink, const Stacks& stacks,
                  bool* ok = nullptr) {
  for (const auto& [stack, weight] : stacks) writer->Add(stack, weight, 1);
  Diag diag("flamefold");
  diag.set_quiet(true);
  const bool finished = writer->Finish(diag);
  if (ok) *ok = finished;
  return sink->str();
}

std::string D3(const Stacks& stacks) {
  StringSink sink;
  return Write(MakeD3Writer(&sink).get(), &sink, stacks);
}

std::string Speedscope(const Stacks& stacks) {
  StringSink sink;
  return Write(MakeSpeedscopeWriter(&sink, "p").get(), &sink, stacks);
}

perftools::profiles::Profile Pprof(const Stacks& stacks,
                                   const FoldFacts* facts = nullptr) {
  StringSink sink;
  bool ok = false;
  std::unique_ptr<StackWriter> writer = MakePprofWriter(&sink);
  if (facts != nullptr) writer->Begin(*facts);
  const std::string gzipped = Write(writer.get(), &sink, stacks, &ok);
  REQUIRE(ok);
  REQUIRE(gzipped.size() > 2);
  CHECK(static_cast<unsigned char>(gzipped[0]) == 0x1f);  // gzip's magic
  CHECK(static_cast<unsigned char>(gzipped[1]) == 0x8b);
  google::protobuf::io::ArrayInputStream bytes(
      gzipped.data(), static_cast<int>(gzipped.size()));
  google::protobuf::io::GzipInputStream gunzip(&bytes);
  perftools::profiles::Profile profile;
  REQUIRE(profile.ParseFromZeroCopyStream(&gunzip));
  return profile;
}

}  // namespace

TEST_CASE("StackFrames numbers names in order of first appearance") {
  StackFrames frames;
  auto ids = frames.Intern("a;b;a");
  CHECK(std::vector<SymbolId>(ids.begin(), ids.end()) ==
        std::vector<SymbolId>{0, 1, 0});
  ids = frames.Intern("c;;b");  // an empty frame is a frame
  CHECK(std::vector<SymbolId>(ids.begin(), ids.end()) ==
        std::vector<SymbolId>{2, 3, 1});
  CHECK(frames.name(3) == "");
  CHECK(frames.size() == 4);
}

TEST_CASE("d3: each node's value is its total, its own count included") {
  CHECK(D3({{"a", N(1)}, {"a;b", N(2)}, {"a;b;c", N(3)}, {"a;d", N(4)},
            {"e", N(5)}}) ==
        "{\"name\":\"root\",\"value\":15,\"children\":["
        "{\"name\":\"a\",\"value\":10,\"children\":["
        "{\"name\":\"b\",\"value\":5,\"children\":["
        "{\"name\":\"c\",\"value\":3,\"children\":[]}]},"
        "{\"name\":\"d\",\"value\":4,\"children\":[]}]},"
        "{\"name\":\"e\",\"value\":5,\"children\":[]}]}\n");
}

TEST_CASE("d3: a frame's stacks apart in the folded order make one node") {
  // "a-x" sorts between "a" and "a;b": a stays one node.
  CHECK(D3({{"a", N(1)}, {"a-x", N(2)}, {"a;b", N(3)}}) ==
        "{\"name\":\"root\",\"value\":6,\"children\":["
        "{\"name\":\"a\",\"value\":4,\"children\":["
        "{\"name\":\"b\",\"value\":3,\"children\":[]}]},"
        "{\"name\":\"a-x\",\"value\":2,\"children\":[]}]}\n");
}

TEST_CASE("d3: fractional counts add up as Perl adds them") {
  CHECK(D3({{"a;b", PerlNumber::Parse("1.5")}, {"a;c", N(2)}}) ==
        "{\"name\":\"root\",\"value\":3.5,\"children\":["
        "{\"name\":\"a\",\"value\":3.5,\"children\":["
        "{\"name\":\"b\",\"value\":1.5,\"children\":[]},"
        "{\"name\":\"c\",\"value\":2,\"children\":[]}]}]}\n");
}

TEST_CASE("d3: no stacks is a root alone") {
  CHECK(D3({}) == "{\"name\":\"root\",\"value\":0,\"children\":[]}\n");
}

TEST_CASE("d3: a deep stack is written without recursion") {
  std::string stack = "f";
  for (int i = 0; i < 100000; ++i) stack += ";f";
  const std::string out = D3({{stack, N(7)}});
  CHECK(out.size() > 100000 * 30);
  CHECK(out.ends_with("]}]}\n"));
}

TEST_CASE("JSON exports escape any bytes of a name") {
  // A quote, a backslash, a control character, DEL and a byte that is not
  // UTF-8 (U+FFFD).
  const std::string name = "q\"b\\c\x01\x7f\xff";
  const std::string escaped = "\"q\\\"b\\\\c\\u0001\\u007f\xEF\xBF\xBD\"";
  CHECK(D3({{name, N(1)}}).find("{\"name\":" + escaped + ",\"value\":1,") !=
        std::string::npos);
  CHECK(Speedscope({{name, N(1)}}).find("{\"name\":" + escaped + "}") !=
        std::string::npos);
}

TEST_CASE("speedscope: one sampled profile of shared frames and weights") {
  CHECK(Speedscope({{"a;b", N(2)}, {"a;b;c", N(3)}, {"d;b", N(4)}}) ==
        "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
        "\"exporter\":\"flamefold " FLAMEFOLD_VERSION "\","
        "\"name\":\"p\",\"activeProfileIndex\":0,\"profiles\":[{"
        "\"type\":\"sampled\",\"name\":\"p\",\"unit\":\"none\","
        "\"startValue\":0,\"samples\":[[0,1],[0,1,2],[3,1]],"
        "\"weights\":[2,3,4],\"endValue\":9}],"
        "\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"},"
        "{\"name\":\"c\"},{\"name\":\"d\"}]}}\n");
}

TEST_CASE("speedscope: no stacks is a profile without samples") {
  CHECK(Speedscope({}).ends_with(
      "\"startValue\":0,\"samples\":[],\"weights\":[],\"endValue\":0}],"
      "\"shared\":{\"frames\":[]}}\n"));
}

namespace {

// A fold's timed samples by hand: (time, tid, comm, "frame;frame", weight).
struct Timed {
  uint64_t time;
  int32_t tid;
  std::string comm, stack;
  uint64_t weight;
};

// The speedscope file of `samples` handed to the timed sink, then the
// fold's facts (`samples` folded, lines kept unless they hold `drop`,
// a clock event's periods).
std::string TimedSpeedscope(const std::vector<Timed>& samples,
                            uint64_t folded, std::string_view drop = "") {
  StringSink sink;
  std::unique_ptr<StackWriter> writer = MakeSpeedscopeWriter(&sink, "p");
  StringInterner names;
  TimedSampleSink* timed = writer->timed_sink(&names);
  REQUIRE(timed != nullptr);
  for (const Timed& t : samples) {
    std::vector<SymbolId> ids;
    size_t begin = 0;
    for (size_t end; (end = t.stack.find(';', begin)) != std::string::npos;
         begin = end + 1) {
      ids.push_back(names.Intern(t.stack.substr(begin, end - begin)));
    }
    ids.push_back(names.Intern(t.stack.substr(begin)));
    TimedSample s;
    s.time_ns = t.time;
    s.pid = 1;
    s.tid = t.tid;
    s.comm = t.comm;
    s.frames = ids;
    s.weight = N(t.weight);
    timed->OnTimedSample(s);
  }
  FoldFacts facts;
  facts.event = "cpu-clock";
  facts.periods = true;
  facts.samples = folded;
  facts.shape = [drop](std::string_view line, std::string* out) {
    if (!drop.empty() && line.find(drop) != std::string_view::npos) {
      return false;
    }
    out->assign(line);
    return true;
  };
  writer->Begin(facts);
  writer->Add("stacks;ignored", N(1), 1);  // the samples stand for them
  Diag diag("flamefold");
  REQUIRE(writer->Finish(diag));
  return sink.str();
}

}  // namespace

TEST_CASE("speedscope: a profile per thread, samples in time order") {
  const std::vector<Timed> samples = {
      {30, 7, "b", "b;x", 5}, {10, 9, "a", "a;y", 1}, {20, 7, "b", "b;x;z", 2},
      {15, 9, "a", "a;y", 1}, {25, 7, "b2", "b;w", 4}};
  // Frames are numbered in the order their stacks were first folded.
  CHECK(TimedSpeedscope(samples, 5) ==
        "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
        "\"exporter\":\"flamefold " FLAMEFOLD_VERSION "\","
        "\"name\":\"p\",\"activeProfileIndex\":1,\"profiles\":["
        "{\"type\":\"sampled\",\"name\":\"a-9\",\"unit\":\"nanoseconds\","
        "\"startValue\":0,\"samples\":[[2,3],[2,3]],"
        "\"weights\":[1,1],\"endValue\":2},"
        "{\"type\":\"sampled\",\"name\":\"b-7\",\"unit\":\"nanoseconds\","
        "\"startValue\":0,\"samples\":[[0,1,4],[0,5],[0,1]],"
        "\"weights\":[2,4,5],\"endValue\":11}],"
        "\"shared\":{\"frames\":[{\"name\":\"b\"},{\"name\":\"x\"},"
        "{\"name\":\"a\"},{\"name\":\"y\"},{\"name\":\"z\"},"
        "{\"name\":\"w\"}]}}\n");
}

TEST_CASE("speedscope: a thread whose samples the filters drop has none") {
  const std::string out =
      TimedSpeedscope({{1, 1, "a", "a;f", 1}, {2, 2, "b", "b;g", 1}}, 2, "g");
  CHECK(out.find("\"name\":\"a-1\"") != std::string::npos);
  CHECK(out.find("\"name\":\"b-2\"") == std::string::npos);
  CHECK(out.find("\"name\":\"g\"") == std::string::npos);
}

TEST_CASE("speedscope: without every sample's time, one profile of stacks") {
  // A sample without a time, or samples the timed sink did not see
  // (folded input), leave the stacks to Add.
  for (const auto& [samples, folded] :
       {std::pair{std::vector<Timed>{{UINT64_MAX, 1, "a", "a;f", 1}}, 1},
        std::pair{std::vector<Timed>{{5, 1, "a", "a;f", 1}}, 2}}) {
    const std::string out = TimedSpeedscope(samples, folded);
    CHECK(out.find("\"name\":\"p\",\"unit\":\"nanoseconds\","
                   "\"startValue\":0,\"samples\":[[0,1]]") != std::string::npos);
    CHECK(out.find("\"name\":\"ignored\"") != std::string::npos);
  }
}

TEST_CASE("pprof: samples leaf first, a function and location per frame") {
  const perftools::profiles::Profile p =
      Pprof({{"a;b", N(2)}, {"a;b;c", N(3)}, {"d;b", N(4)}});
  REQUIRE(p.string_table_size() >= 3);
  CHECK(p.string_table(0) == "");
  REQUIRE(p.sample_type_size() == 1);
  CHECK(p.string_table(p.sample_type(0).type()) == "samples");
  CHECK(p.string_table(p.sample_type(0).unit()) == "count");
  CHECK(p.mapping_size() == 0);
  REQUIRE(p.function_size() == 4);
  REQUIRE(p.location_size() == 4);
  std::vector<std::string> names;
  for (int i = 0; i < p.location_size(); ++i) {
    const auto& location = p.location(i);
    CHECK(location.id() == uint64_t(i + 1));
    REQUIRE(location.line_size() == 1);
    const auto& function = p.function(int(location.line(0).function_id()) - 1);
    CHECK(function.id() == location.line(0).function_id());
    names.push_back(p.string_table(function.name()));
  }
  CHECK(names == std::vector<std::string>{"a", "b", "c", "d"});
  REQUIRE(p.sample_size() == 3);
  const auto& s = p.sample(1);  // a;b;c, leaf first
  CHECK(std::vector<uint64_t>(s.location_id().begin(), s.location_id().end()) ==
        std::vector<uint64_t>{3, 2, 1});
  CHECK(s.value(0) == 3);
  CHECK(p.sample(2).value(0) == 4);
}

TEST_CASE("pprof: fractional counts rounded, names made UTF-8") {
  const perftools::profiles::Profile p =
      Pprof({{"a\xff", PerlNumber::Parse("2.5")}, {"b", PerlNumber::Parse("1.25")}});
  REQUIRE(p.sample_size() == 2);
  CHECK(p.sample(0).value(0) == 2);  // to even, as nearbyint rounds
  CHECK(p.sample(1).value(0) == 1);
  CHECK(p.string_table(p.function(0).name()) == "a\xEF\xBF\xBD");
}

TEST_CASE("pprof: a count past int64 is cut to its largest value") {
  const perftools::profiles::Profile p =
      Pprof({{"a", PerlNumber::FromUint(UINT64_MAX)}, {"b", N(1)}});
  REQUIRE(p.sample_size() == 2);
  CHECK(p.sample(0).value(0) == INT64_MAX);
  CHECK(p.sample(1).value(0) == 1);
}

TEST_CASE("pprof: perf counts of a clock event are cpu nanoseconds") {
  FoldFacts facts;
  facts.event = "cpu-clock:ppp";
  facts.periods = true;
  const perftools::profiles::Profile p = Pprof({{"a;b", N(250000)}}, &facts);
  REQUIRE(p.sample_type_size() == 2);
  CHECK(p.string_table(p.sample_type(0).type()) == "samples");
  CHECK(p.string_table(p.sample_type(1).type()) == "cpu");
  CHECK(p.string_table(p.sample_type(1).unit()) == "nanoseconds");
  REQUIRE(p.sample(0).value_size() == 2);
  CHECK(p.sample(0).value(0) == 1);  // Write hands each stack one sample
  CHECK(p.sample(0).value(1) == 250000);

  facts.event = "cycles";
  const perftools::profiles::Profile c = Pprof({{"a;b", N(7)}}, &facts);
  REQUIRE(c.sample_type_size() == 2);
  CHECK(c.string_table(c.sample_type(1).type()) == "cycles");
  CHECK(c.string_table(c.sample_type(1).unit()) == "count");

  facts.periods = false;  // counts of samples: one type
  CHECK(Pprof({{"a;b", N(7)}}, &facts).sample_type_size() == 1);

  facts.event = "kmem:kmalloc";  // --weight: the field's sums
  for (const auto& [field, unit] :
       {std::pair{"bytes_alloc", "bytes"}, std::pair{"len", "count"}}) {
    facts.weight_field = field;
    const perftools::profiles::Profile w = Pprof({{"a;b", N(64)}}, &facts);
    REQUIRE(w.sample_type_size() == 2);
    CHECK(w.string_table(w.sample_type(1).type()) == field);
    CHECK(w.string_table(w.sample_type(1).unit()) == unit);
    CHECK(w.sample(0).value(1) == 64);
  }
}

TEST_CASE("pprof: locations keep the address and file a frame came from") {
  Dso libc, kernel;
  libc.path = "/usr/lib/libc.so.6";
  libc.build_id = std::string("\x01\xab", 2);
  kernel.kind = DsoKind::kKernel;
  kernel.name = "[kernel.kallsyms]";
  StringInterner names;
  FrameOrigins origins;
  RecordedFrame f;
  f.dso = &libc;
  f.address = 0x1234;
  origins.Note(names.Intern("malloc"), f);
  f.address = 0x9999;  // the first address given a name stays
  origins.Note(names.Intern("malloc"), f);
  f.dso = &kernel;
  f.address = 0xffffffff81000000;
  origins.Note(names.Intern("schedule"), f);
  f.dso = nullptr;  // in no mapping
  origins.Note(names.Intern("[unknown]"), f);
  names.Intern("main");  // a name never noted

  FoldFacts facts;
  facts.origins = &origins;
  facts.names = &names;
  const perftools::profiles::Profile p =
      Pprof({{"p;main;malloc", N(1)}, {"p;schedule;[unknown]", N(1)}}, &facts);
  REQUIRE(p.mapping_size() == 2);
  CHECK(p.string_table(p.mapping(0).filename()) == "/usr/lib/libc.so.6");
  CHECK(p.string_table(p.mapping(0).build_id()) == "01ab");
  CHECK(p.string_table(p.mapping(1).filename()) == "[kernel.kallsyms]");
  CHECK(p.mapping(1).build_id() == 0);
  CHECK(p.mapping(0).has_functions());
  std::map<std::string, std::pair<uint64_t, uint64_t>> where;
  for (const auto& l : p.location()) {
    const auto& fn = p.function(int(l.line(0).function_id()) - 1);
    where[p.string_table(fn.name())] = {l.mapping_id(), l.address()};
  }
  CHECK(where["malloc"] == std::pair<uint64_t, uint64_t>{1, 0x1234});
  CHECK(where["schedule"] ==
        std::pair<uint64_t, uint64_t>{2, 0xffffffff81000000});
  CHECK(where["main"] == std::pair<uint64_t, uint64_t>{0, 0});
  CHECK(where["[unknown]"] == std::pair<uint64_t, uint64_t>{0, 0});
  CHECK(where["p"] == std::pair<uint64_t, uint64_t>{0, 0});
}
