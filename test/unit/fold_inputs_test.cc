// FoldInputs with an in-memory RecordingFolder: a recording is folded by
// the folder it is given, in the order of the inputs, into the same
// stacks as the other inputs; without a folder it is an error.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

#include "cli/flamefold_cli.h"
#include "collapse/fold_inputs.h"
#include "collapse/recording_folder.h"
#include "temp_file.h"
#include "test_util.h"

using flamefold::FoldConfig;
using flamefold::FoldInputs;
using flamefold::Input;
using flamefold::PerfScriptParser;
using flamefold::RecordedSampleSink;
using flamefold::RecordingFold;
using flamefold::RecordingFolder;
using flamefold::StackTrie;
using flamefold::StringInterner;

namespace {

// Gives the fold one sample of "fake" with the frames leaf..root, as
// perf.data replayed would.
class FakeRecordings : public RecordingFolder {
 public:
  bool Fold(const std::string& file, Input*, RecordingFold* into,
            std::string* err) override {
    folded.push_back(file);
    std::vector<flamefold::RecordedEvent> events = {
        {"cycles", true, true, true, false}};
    RecordedSampleSink* sink = into->samples();
    sink->SetEvents(events);
    flamefold::RecordedFrame leaf, root;
    leaf.id = 0;
    leaf.pc = "1";
    leaf.symbol = "leaf";
    leaf.module = "m";
    root = leaf;
    root.id = 1;
    root.pc = "2";
    root.symbol = "root";
    const flamefold::RecordedFrame* frames[] = {&leaf, &root};
    flamefold::RecordedSample s;
    s.ordinal = 1;
    s.time = 1000000000;
    s.pid = s.tid = 1;
    s.period = 5;
    s.comm = "fake";
    s.frames = frames;
    return sink->Add(s, err);
  }
  std::vector<std::string> folded;
};

using flamefold::testing::TempFile;

const char kPerfDataMagic[] = "PERFILE2";

}  // namespace

TEST_CASE("a recording is folded by the RecordingFolder, among other inputs") {
  TempFile folded("other;x 2\n");
  TempFile recording(std::string(kPerfDataMagic) + std::string(200, '\0'));
  FoldConfig config;
  StringInterner names;
  StackTrie trie(&names);
  FakeRecordings fake;
  FoldInputs inputs(config, &names, &trie, &fake);
  std::string err;
  REQUIRE(inputs.Add(folded.path, &err));
  REQUIRE(inputs.Add(recording.path, &err));
  inputs.Finish();
  CHECK(fake.folded == std::vector<std::string>{recording.path});
  CHECK(flamefold::testing::FoldedText(trie) ==
        "fake;root;leaf 5\nother;x 2\n");
  CHECK(inputs.perf_stats().samples == 1);
  CHECK(inputs.event() == "cycles");
}

TEST_CASE("a recording without a RecordingFolder is an error") {
  TempFile recording(std::string(kPerfDataMagic) + std::string(200, '\0'));
  FoldConfig config;
  StringInterner names;
  StackTrie trie(&names);
  FoldInputs inputs(config, &names, &trie, nullptr);
  std::string err;
  CHECK_FALSE(inputs.Add(recording.path, &err));
  CHECK(err == recording.path + ": perf.data input is not read here");
}

namespace {
// perf script text of `samples` samples over a few hundred frames, with a
// junk line (not perf script) after sample `junk_after` unless it is -1.
std::string Transcript(int samples, int seed, int junk_after) {
  std::string text;
  unsigned x = static_cast<unsigned>(seed) * 2654435761u + 1;
  auto next = [&x] { return x = x * 1103515245u + 12345u; };
  for (int i = 0; i < samples; ++i) {
    text += "app " + std::to_string(100 + i % 3) + " [000] " +
            std::to_string(i) + ".0: 7 cycles: \n";
    int depth = 2 + static_cast<int>(next() % 9);
    for (int d = 0; d < depth; ++d) {
      unsigned f = next() % 300;
      text += "\t    " + std::to_string(400000 + f * 16) + " fn" +
              std::to_string(f) + "+0x1 (/usr/lib/libapp.so)\n";
    }
    text += "\n";
    if (i == junk_after) text += "@@@ not perf script\n";
  }
  return text;
}

struct Folded {
  std::string text;
  flamefold::PerfScriptStats stats;
  uint64_t samples = 0;
};

Folded FoldFiles(const std::vector<std::string>& files, int jobs) {
  FoldConfig config;
  config.jobs = jobs;
  StringInterner names;
  StackTrie trie(&names);
  FoldInputs inputs(config, &names, &trie, nullptr);
  std::string err;
  for (const std::string& f : files) REQUIRE(inputs.Add(f, &err));
  inputs.Finish();
  return {flamefold::testing::FoldedText(trie), inputs.perf_stats(),
          inputs.total_samples()};
}
}  // namespace

TEST_CASE("--jobs N keeps its parsers across inputs: stacks and statistics "
          "as one thread's, each input counted once") {
  // Three inputs of several chunks each, the second with a junk line deep
  // inside (parsed by a worker thread); the third is the first again.
  TempFile a(Transcript(20000, 1, -1));
  TempFile b(Transcript(20000, 2, 15000));
  REQUIRE(a.path != b.path);
  const std::vector<std::string> files = {a.path, b.path, a.path};
  const Folded one = FoldFiles(files, 1);
  for (int jobs : {2, 3}) {
    const Folded many = FoldFiles(files, jobs);
    CHECK(many.text == one.text);
    CHECK(many.samples == 60000);
    CHECK(many.stats.samples == one.stats.samples);
    CHECK(many.stats.lines == one.stats.lines);
    CHECK(many.stats.unrecognized_lines == 1);
    CHECK(many.stats.first_unrecognized == one.stats.first_unrecognized);
  }
  CHECK(one.stats.samples == 60000);
  CHECK(one.stats.first_unrecognized.rfind(b.path + ":", 0) == 0);
}
