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
using flamefold::RecordingFolder;
using flamefold::StackTrie;
using flamefold::StringInterner;

namespace {

// Gives the parser one sample of "comm" with the frames leaf..root, as
// perf.data replayed line by line would.
class FakeRecordings : public RecordingFolder {
 public:
  bool Fold(const std::string& file, uint64_t index, Input*,
            PerfScriptParser* parser, std::string* err) override {
    folded.push_back(file + "#" + std::to_string(index));
    parser->StartLines(file, index);
    if (!parser->Line("fake 1 [000] 1.0: 5 cycles:", err)) return false;
    for (const char* line : {"\t1 leaf (m)", "\t2 root (m)"}) {
      parser->StackLine(parser->StackLineId(line));
    }
    return parser->Line("", err);
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
  CHECK(fake.folded == std::vector<std::string>{recording.path + "#1"});
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
