// SampleHandover: held samples reach the fold below it (a fake sink that
// notes what it is given) in order, with the events they were held with,
// whether the fold thread takes them or not; the first sample refused
// stops them; without a sink, their text goes out through the emitter.
#include "perfdata/sample_handover.h"

#include <doctest/doctest.h>

#include <span>
#include <string>
#include <vector>

#include "held_sample_fakes.h"

namespace flamefold {
namespace {

using testing::Frames;

// A fold that notes the events it is given and each sample's comm, event
// and frame count; it refuses a comm with a NUL byte, as SampleFold does.
class NotingSink : public RecordedSampleSink {
 public:
  void SetEvents(std::span<const RecordedEvent> events) override {
    std::string line = "events";
    names_.clear();
    for (const RecordedEvent& e : events) {
      line += " " + e.name;
      names_.push_back(e.name);
    }
    log.push_back(line);
  }
  bool Add(const RecordedSample& s, std::string* err) override {
    if (HoldsNul(s.comm)) {
      *err = "sample " + std::to_string(s.ordinal) + " refused";
      return false;
    }
    log.push_back(std::string(s.comm) + " " + names_.at(s.event) + " " +
                  std::to_string(s.frames.size()));
    return true;
  }
  std::vector<std::string> log;

 private:
  std::vector<std::string> names_;
};

PerfAttr Event(const std::string& name) {
  PerfAttr a;
  a.name = name;
  return a;
}

// A handover into a NotingSink (or, without one, text) of samples of the
// events of `info`, each with the frames leaf and [unknown].
struct Handover {
  explicit Handover(bool fold_thread, bool sink = true) {
    info.attrs = {Event("cpu-clock")};
    info.attrs_changes = 1;
    handover = std::make_unique<SampleHandover>(
        info, resolver, sink ? &fold : nullptr, emit, fold_thread);
    handover->SyncEvents();
  }
  // Holds and hands on a sample of `comm` and event `attr`; `nul`: the
  // fold may refuse it.
  bool Add(const std::string& comm, uint32_t attr = 0, bool nul = false) {
    if (!handover->BeforeSample(&err)) return false;
    HeaderValues v{1, attr, 42, 42, 0, 1000000000, ++ordinal, 0};
    HeldSamples* held = handover->held();
    held->Begin(true, &v);
    *held->header() += comm;
    held->AddNamed(&frames.leaf);
    held->AddNamed(&frames.unknown);
    return handover->AfterSample(nul, &err);
  }

  PerfDataInfo info;
  SymbolResolver symbols{SymbolOptions()};
  FrameResolver resolver{&symbols, FrameResolver::Style()};
  NotingSink fold;
  std::string text;
  ChunkSink emit = [this](std::string* chunk) {
    text += *chunk;
    return true;
  };
  Frames frames;
  std::unique_ptr<SampleHandover> handover;
  uint64_t ordinal = 0;
  std::string err;
};

TEST_CASE("samples reach the fold in order, with the events of their time") {
  for (bool fold_thread : {false, true}) {
    CAPTURE(fold_thread);
    Handover h(fold_thread);
    std::vector<std::string> want = {"events cpu-clock"};
    for (int i = 0; i < 700; ++i) {
      std::string comm = "app" + std::to_string(i % 7);
      REQUIRE(h.Add(comm));
      want.push_back(comm + " cpu-clock 2");
    }
    // A pipe-mode recording adds an event while it is read.
    h.info.attrs.push_back(Event("other"));
    h.info.attrs_changes++;
    REQUIRE(h.Add("late", 1));
    want.push_back("events cpu-clock other");
    want.push_back("late other 2");
    REQUIRE(h.handover->Finish(&h.err));
    CHECK(h.fold.log == want);
    CHECK(h.handover->frame_count() == 2 * 701);
    CHECK(h.frames.no_symbol == 701);
  }
}

TEST_CASE("the first sample the fold refuses stops the samples after it") {
  for (bool fold_thread : {false, true}) {
    CAPTURE(fold_thread);
    Handover h(fold_thread);
    for (int i = 0; i < 300; ++i) REQUIRE(h.Add("app"));
    CHECK(!h.Add(std::string("n\0l", 3), 0, true));
    CHECK(h.err == "sample 301 refused");
    CHECK(h.fold.log.size() == 1 + 300);
    std::string ignored;
    h.handover->StopFoldThread(&ignored);
    CHECK(h.fold.log.size() == 1 + 300);
  }
}

TEST_CASE("without a fold, the samples' text goes out as the replay ends") {
  Handover h(true, false);
  HeldSamples* held = h.handover->held();
  REQUIRE(h.handover->BeforeSample(&h.err));
  held->Begin(true);
  *held->header() += "app    42     1.000000:          1 cpu-clock: ";
  held->AddNamed(&h.frames.leaf);
  REQUIRE(h.handover->AfterSample(false, &h.err));
  CHECK(h.text.empty());
  REQUIRE(h.handover->Finish(&h.err));
  CHECK(h.text ==
        "app    42     1.000000:          1 cpu-clock: \n"
        "\t401000 leaf (/bin/app)\n\n");
}

}  // namespace
}  // namespace flamefold
