// HeldSamples: held samples come back in the order they were held, each
// with its header line or its comm and values, its frames and the keys of
// its frames to name later; Clear forgets them all. A sample marked gone
// (it went ahead of the others) keeps its place and its count of lines.
#include "perfdata/held_samples.h"

#include <doctest/doctest.h>

namespace flamefold {
namespace {

TEST_CASE("held samples come back in order, with their headers and frames") {
  HeldSamples held;
  CHECK(held.empty());
  FrameText named;
  UnwoundText unwound;
  held.Begin(true);
  *held.header() += "java    42 [000]     1.000000:          1 cpu-clock: ";
  held.AddNamed(&named);
  held.AddKernel(0xffffffff81000110);
  HeaderValues values{250, 0, 42, 43};
  held.Begin(true, &values);
  *held.header() += "comm";
  held.AddUnwound(&unwound);
  held.AddUnwoundLater(FrameKey{nullptr, 1, 2, 3});
  held.AddNamedLater(FrameKey{nullptr, 4, 5, 6});
  held.Begin(false);
  *held.header() += "x 1";

  REQUIRE(held.size() == 3);
  CHECK(held.kernel_frames());
  CHECK(held.unwound_later());
  CHECK(held.named_later());
  CHECK(held.bytes() > 0);

  HeldSample a = held.at(0);
  CHECK(a.header == "java    42 [000]     1.000000:          1 cpu-clock: ");
  CHECK(a.values == nullptr);
  CHECK(a.chain);
  REQUIRE(a.frame_count == 2);
  CHECK(a.frames[0].kind == HeldFrame::Kind::kNamed);
  CHECK(a.frames[0].named == &named);
  CHECK(a.frames[1].kind == HeldFrame::Kind::kKernel);
  CHECK(a.frames[1].kernel_ip == 0xffffffff81000110);

  HeldSample b = held.at(1);
  CHECK(b.header == "comm");
  REQUIRE(b.values != nullptr);
  CHECK(b.values->pid == 42);
  CHECK(b.values->tid == 43);
  CHECK(b.values->period == 250);
  REQUIRE(b.frame_count == 3);
  CHECK(b.frames[0].unwound == &unwound);
  CHECK(b.frames[1].kind == HeldFrame::Kind::kUnwoundLater);
  CHECK(held.later(b.frames[1].later).map_ip == 2);
  CHECK(b.frames[2].kind == HeldFrame::Kind::kNamedLater);
  CHECK(held.later(b.frames[2].later).shown == 6);

  HeldSample c = held.at(2);
  CHECK(c.header == "x 1");
  CHECK_FALSE(c.chain);
  CHECK(c.frame_count == 0);

  held.Clear();
  CHECK(held.empty());
  CHECK_FALSE(held.kernel_frames());
  CHECK_FALSE(held.unwound_later());
  CHECK_FALSE(held.named_later());
  CHECK(held.bytes() == 0);
}

TEST_CASE("samples marked gone keep their place and lines; AllPlain") {
  HeldSamples held;
  HeaderValues cycles{1, 0, 42, 42}, other{1, 1, 42, 42};
  held.Begin(true, &cycles);
  CHECK(held.AllPlain(0));
  CHECK_FALSE(held.AllPlain(1));
  held.Begin(true, &cycles);
  held.Begin(true, &cycles);
  CHECK(held.AllPlain(0));
  held.MarkGone(1);
  CHECK(held.gone() == 1);
  CHECK_FALSE(held.at(0).gone);
  CHECK(held.at(1).gone);
  CHECK_FALSE(held.at(2).gone);
  CHECK(held.size() == 3);
  size_t before = held.bytes();
  held.Begin(true, &cycles);
  *held.header() += "comm";
  FrameText named;
  held.AddNamed(&named);
  CHECK(held.bytes() > before);
  held.MarkGone(3);  // the last one's header and frames go
  CHECK(held.at(3).gone);
  CHECK(held.at(3).frame_count == 0);
  CHECK(held.at(3).header.empty());
  CHECK(held.at(2).frame_count == 0);
  held.Begin(true, &other);  // another event: not all plain any more
  CHECK_FALSE(held.AllPlain(0));
  CHECK_FALSE(held.AllPlain(1));
  CHECK(held.gone() == 2);
  held.Clear();
  CHECK(held.gone() == 0);
  held.Begin(true);  // a header line
  CHECK_FALSE(held.AllPlain(0));
  held.Clear();
  held.Begin(false, &cycles);  // no call chain
  CHECK_FALSE(held.AllPlain(0));
}

TEST_CASE("a sample's frames are named in place, and copied to another") {
  HeldSamples held;
  FrameText named, kernel;
  HeaderValues v{3, 0, 42, 42};
  held.Begin(true, &v);
  *held.header() += "comm";
  held.AddNamed(&named);
  held.AddKernel(0xffffffff81000110);
  held.Begin(true, &v);
  held.MarkGone(1);
  HeldFrame* frames = held.MutableFrames(0);
  frames[1].kind = HeldFrame::Kind::kNamed;  // as the replay names it
  frames[1].named = &kernel;
  CHECK(held.at(0).frames[1].named == &kernel);

  HeldSamples batch;
  batch.Append(held.at(0));
  batch.Append(held.at(1));
  REQUIRE(batch.size() == 2);
  HeldSample a = batch.at(0);
  CHECK(a.header == "comm");
  REQUIRE(a.values != nullptr);
  CHECK(a.values->period == 3);
  REQUIRE(a.frame_count == 2);
  CHECK(a.frames[0].named == &named);
  CHECK(a.frames[1].named == &kernel);
  CHECK(batch.at(1).gone);
  CHECK(batch.at(1).frame_count == 0);
  CHECK(batch.gone() == 1);
}

}  // namespace
}  // namespace flamefold
