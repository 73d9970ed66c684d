// HeldSamples: held samples come back in the order they were held, each
// with its header line or its comm and values and its frames, and so do
// their copies in another batch; Clear forgets them all.
#include "perfdata/held_samples.h"

#include <doctest/doctest.h>

namespace flamefold {
namespace {

TEST_CASE("held samples come back in order, with their headers and frames") {
  HeldSamples held;
  CHECK(held.empty());
  FrameText named, other;
  UnwoundText unwound;
  held.Begin(true);
  *held.header() += "java    42 [000]     1.000000:          1 cpu-clock: ";
  held.AddNamed(&named);
  held.AddNamed(&other);
  HeaderValues values{250, 0, 42, 43};
  held.Begin(true, &values);
  *held.header() += "comm";
  held.AddUnwound(&unwound);
  held.Begin(false);
  *held.header() += "x 1";

  REQUIRE(held.size() == 3);
  HeldSample a = held.at(0);
  CHECK(a.header == "java    42 [000]     1.000000:          1 cpu-clock: ");
  CHECK(a.values == nullptr);
  CHECK(a.chain);
  REQUIRE(a.frame_count == 2);
  CHECK(a.frames[0].kind == HeldFrame::Kind::kNamed);
  CHECK(a.frames[0].named == &named);
  CHECK(a.frames[1].named == &other);

  HeldSample b = held.at(1);
  CHECK(b.header == "comm");
  REQUIRE(b.values != nullptr);
  CHECK(b.values->pid == 42);
  CHECK(b.values->tid == 43);
  CHECK(b.values->period == 250);
  REQUIRE(b.frame_count == 1);
  CHECK(b.frames[0].kind == HeldFrame::Kind::kUnwound);
  CHECK(b.frames[0].unwound == &unwound);

  HeldSample c = held.at(2);
  CHECK(c.header == "x 1");
  CHECK_FALSE(c.chain);
  CHECK(c.frame_count == 0);

  held.Clear();
  CHECK(held.empty());
}

TEST_CASE("held samples copied to another batch keep their fields") {
  HeldSamples held;
  FrameText named, kernel;
  HeaderValues v{3, 0, 42, 42, 1, 1007253216000, 12, 4096};
  held.Begin(true, &v);
  *held.header() += "comm";
  held.AddNamed(&named);
  held.AddNamed(&kernel);
  held.Begin(false);
  *held.header() += "x 1";

  HeldSamples batch;
  batch.Append(held.at(0));
  batch.Append(held.at(1));
  REQUIRE(batch.size() == 2);
  HeldSample a = batch.at(0);
  CHECK(a.header == "comm");
  REQUIRE(a.values != nullptr);
  CHECK(a.values->period == 3);
  CHECK(a.values->cpu == 1);
  CHECK(a.values->time == 1007253216000);
  CHECK(a.values->ordinal == 12);
  CHECK(a.values->offset == 4096);
  REQUIRE(a.frame_count == 2);
  CHECK(a.frames[0].named == &named);
  CHECK(a.frames[1].named == &kernel);
  HeldSample b = batch.at(1);
  CHECK(b.header == "x 1");
  CHECK(b.values == nullptr);
  CHECK_FALSE(b.chain);
  CHECK(b.frame_count == 0);
}

}  // namespace
}  // namespace flamefold
