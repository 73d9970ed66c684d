// FoldThread: batches of held samples put in order on a thread of their
// own, as RecordedSamples::Put would put them, and the first error given
// back.
#include "perfdata/fold_thread.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "held_sample_fakes.h"

namespace flamefold {
namespace {

using namespace testing;  // held_sample_fakes.h

TEST_CASE("the fold thread puts batches in order, as Put would") {
  Frames f;
  Fold p;
  RecordedSamples lines(&p.fold);
  lines.SetEvents(Events());
  {
    FoldThread thread(&lines);
    for (int b = 0; b < 50; ++b) {
      std::unique_ptr<HeldSamples> batch = thread.Empty();
      HoldSamples(batch.get(), &f, 10);
      thread.Send(std::move(batch));
    }
    std::string err;
    CHECK(thread.Drain(&err));
    CHECK(err.empty());
    // Drained: the caller may use the lines itself until the next Send.
    HeldSamples held;
    HoldSamples(&held, &f, 1);
    REQUIRE(lines.Put(held.at(0), &err));
  }
  CHECK(p.Folded() == "app;[app];leaf 1002\n");
  CHECK(lines.frame_count() == 1002);
  CHECK(f.no_symbol == 501);
}

TEST_CASE("the fold thread gives the first sample refused, then drops "
          "the rest") {
  Frames f;
  Fold p;
  RecordedSamples lines(&p.fold);
  lines.SetEvents(Events());
  FoldThread thread(&lines);
  std::unique_ptr<HeldSamples> batch = thread.Empty();
  HoldSamples(batch.get(), &f, 2);
  HeaderValues v{2, 0, 42, 42, 0, 1000000000, 3, 0};
  batch->Begin(true, &v);  // a frame with a NUL byte
  FrameText nul = Made(std::string_view("403000 n\0l (/bin/app)", 22), 2);
  batch->AddNamed(&nul);
  HoldSamples(batch.get(), &f, 2);
  thread.Send(std::move(batch));
  batch = thread.Empty();
  HoldSamples(batch.get(), &f, 2);
  thread.Send(std::move(batch));
  std::string err;
  CHECK(!thread.Drain(&err));
  CHECK(err.find("t.data: sample 3 at 1.000000: ") == 0);
  CHECK(err.find("NUL byte") != std::string::npos);
  // Stopped at the sample refused, as the replay stops.
  CHECK(lines.frame_count() == 2 * 2 + 1);
}

}  // namespace
}  // namespace flamefold
