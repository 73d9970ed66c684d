// collapse/stack_transform: the stack transforms, one step at a time and
// chained, on folded stacks. Each expectation is written out by hand.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collapse/stack_transform.h"

using namespace flamefold;

namespace {

using K = TransformKind;
using Suffix = StackTransform::ProcessSuffix;

// The stack `steps` make of `stack`; "DROPPED" or "EMPTIED" when none.
std::string Run(std::vector<TransformStep> steps, std::string_view stack,
                Suffix suffix = Suffix::kNone) {
  StackTransform t;
  std::string err;
  REQUIRE_MESSAGE(t.Init(std::move(steps), suffix, &err), err);
  std::string out = "unchanged";
  switch (t.Apply(stack, &out)) {
    case StackTransform::Result::kKept:
      return out;
    case StackTransform::Result::kDropped:
      return "DROPPED";
    case StackTransform::Result::kEmptied:
      return "EMPTIED";
  }
  return "?";
}

std::string Generalized(std::string_view process,
                        Suffix suffix = Suffix::kNone) {
  return Run({{K::kGeneralizeNames, ""}}, std::string(process) + ";f", suffix);
}

}  // namespace

TEST_CASE("no step leaves the stack as it is and is not active") {
  StackTransform t;
  std::string err;
  REQUIRE(t.Init({}, Suffix::kNone, &err));
  CHECK_FALSE(t.active());
  CHECK(Run({}, "a;b;c") == "a;b;c");
}

TEST_CASE("the option names and their kinds") {
  CHECK(TransformOptionNames().size() == 8);
  CHECK(TransformKindOf("focus") == K::kFocus);
  CHECK(TransformKindOf("show-from") == K::kShowFrom);
  CHECK(TransformKindOf("skip-after") == K::kSkipAfter);
  CHECK(TransformKindOf("generalize-names") == K::kGeneralizeNames);
  CHECK_FALSE(TransformKindOf("include").has_value());
}

TEST_CASE("a bad pattern is named with its option") {
  StackTransform t;
  std::string err;
  CHECK_FALSE(t.Init({{K::kHide, "ok"}, {K::kPruneFrom, "a("}}, Suffix::kNone,
                     &err));
  CHECK(err == "bad --prune-from pattern 'a(': missing ): a(");
  // --skip-after takes a name, not a pattern.
  CHECK(t.Init({{K::kSkipAfter, "a("}}, Suffix::kNone, &err));
}

TEST_CASE("focus and ignore keep or drop whole stacks, by frame") {
  CHECK(Run({{K::kFocus, "^mai"}}, "java;main;run") == "java;main;run");
  CHECK(Run({{K::kFocus, "^mai"}}, "java;domain;run") == "DROPPED");
  // A frame matches, not the line: the pattern cannot span a ';'.
  CHECK(Run({{K::kFocus, "a;b"}}, "a;b") == "DROPPED");
  CHECK(Run({{K::kIgnore, "GC"}}, "java;GCThread;mark") == "DROPPED");
  CHECK(Run({{K::kIgnore, "GC"}}, "java;main") == "java;main");
  // The process frame is a frame like the others.
  CHECK(Run({{K::kFocus, "^java$"}}, "java;main") == "java;main");
  CHECK(Run({{K::kIgnore, "^swapper"}}, "swapper;cpu_idle") == "DROPPED");
}

TEST_CASE("hide removes frames; a stack left without any is emptied") {
  CHECK(Run({{K::kHide, "^std::"}}, "app;main;std::sort;std::swap;cmp") ==
        "app;main;cmp");
  CHECK(Run({{K::kHide, "^app$"}}, "app;main") == "main");  // process frame
  CHECK(Run({{K::kHide, "."}}, "app;main;f") == "EMPTIED");
  CHECK(Run({{K::kHide, "^x$"}}, "a;b") == "a;b");
}

TEST_CASE("show-from starts at the match nearest the root") {
  CHECK(Run({{K::kShowFrom, "^b$"}}, "p;a;b;c;b;d") == "b;c;b;d");
  CHECK(Run({{K::kShowFrom, "^p$"}}, "p;a;b") == "p;a;b");  // process frame
  CHECK(Run({{K::kShowFrom, "^c$"}}, "p;a;b") == "DROPPED");
  CHECK(Run({{K::kShowFrom, "^d$"}}, "p;a;d") == "d");  // the leaf alone
}

TEST_CASE("prune-from ends at the match nearest the leaf") {
  CHECK(Run({{K::kPruneFrom, "^b$"}}, "p;a;b;c;b;d") == "p;a;b;c;b");
  CHECK(Run({{K::kPruneFrom, "^a$"}}, "p;a;b") == "p;a");
  CHECK(Run({{K::kPruneFrom, "^p$"}}, "p;a;b") == "p");  // process frame
  CHECK(Run({{K::kPruneFrom, "^z$"}}, "p;a;b") == "p;a;b");  // unchanged
}

TEST_CASE("show-from and prune-from on the same frame leave it alone") {
  std::vector<TransformStep> both = {{K::kShowFrom, "^lock$"},
                                     {K::kPruneFrom, "^lock$"}};
  CHECK(Run(both, "p;main;lock;spin;pause") == "lock");
  // With two matches: from the one nearest the root to the one nearest the
  // leaf.
  CHECK(Run(both, "p;lock;f;lock;g") == "lock;f;lock");
}

TEST_CASE("skip-after: exact name, nearest the leaf, else unchanged") {
  CHECK(Run({{K::kSkipAfter, "main.init"}}, "go;rt0;main.init;a;main.init;b") ==
        "main.init;b");
  CHECK(Run({{K::kSkipAfter, "main"}}, "go;main_loop;f") == "go;main_loop;f");
  CHECK(Run({{K::kSkipAfter, "f.*"}}, "go;f.*;g") == "f.*;g");  // no regex
  // An annotated frame is known by its name without the annotation.
  CHECK(Run({{K::kSkipAfter, "do_syscall_64"}},
            "app;write;do_syscall_64_[k];ksys_write_[k]") ==
        "do_syscall_64_[k];ksys_write_[k]");
  CHECK(Run({{K::kSkipAfter, "f"}}, "app;f_[x];g") == "app;f_[x];g");
  // Two names: the match of either nearest the leaf, in either order.
  std::vector<TransformStep> ab = {{K::kSkipAfter, "a"}, {K::kSkipAfter, "b"}};
  std::vector<TransformStep> ba = {{K::kSkipAfter, "b"}, {K::kSkipAfter, "a"}};
  CHECK(Run(ab, "p;b;x;a;y") == "a;y");
  CHECK(Run(ba, "p;b;x;a;y") == "a;y");
  CHECK(Run(ab, "p;a;x;b;y") == "b;y");
  CHECK(Run(ba, "p;a;x;b;y") == "b;y");
}

TEST_CASE("collapse-recursion merges directly repeated frames") {
  K c = K::kCollapseRecursion;
  CHECK(Run({{c, ""}}, "main;recursive;recursive;recursive;helper") ==
        "main;recursive;helper");
  CHECK(Run({{c, ""}}, "a;a;a;b") == "a;b");
  CHECK(Run({{c, ""}}, "a;b;a;b") == "a;b;a;b");  // not directly repeated
  CHECK(Run({{c, ""}}, "f;f") == "f");
  // Empty frames, as Perl's split and the script's "" start leave them.
  CHECK(Run({{c, ""}}, ";;a;;;b;;") == "a;;b");
  CHECK(Run({{c, ""}}, ";") == "EMPTIED");
}

TEST_CASE("generalize-names folds the numbers of thread and worker names") {
  CHECK(Generalized("ksoftirqd/3") == "ksoftirqd/*;f");
  CHECK(Generalized("pool-3-thread-7") == "pool-*-thread-*;f");
  CHECK(Generalized("kworker/0:1H") == "kworker/*:*H;f");
  CHECK(Generalized("kworker/u16:3") == "kworker/u16:*;f");
  CHECK(Generalized("GC_Thread#12") == "GC_Thread#*;f");
  CHECK(Generalized("python3") == "python3;f");
  CHECK(Generalized("jbd2/sda1-8") == "jbd2/sda1-*;f");
  CHECK(Generalized("2to3") == "2to3;f");
  // Only the process frame, the first.
  CHECK(Run({{K::kGeneralizeNames, ""}}, "worker-1;worker-2") ==
        "worker-*;worker-2");
}

TEST_CASE("generalize-names keeps the suffix of --pid and --tid") {
  CHECK(Generalized("pool-3-thread-7-4242", Suffix::kPid) ==
        "pool-*-thread-*-4242;f");
  CHECK(Generalized("ksoftirqd/3-?", Suffix::kPid) == "ksoftirqd/*-?;f");
  CHECK(Generalized("pool-3-thread-7-4242/4250", Suffix::kTid) ==
        "pool-*-thread-*-4242/4250;f");
  CHECK(Generalized("kworker/0:1-17/17", Suffix::kTid) ==
        "kworker/*:*-17/17;f");
  // Without a suffix where one is expected, the whole name is folded.
  CHECK(Generalized("cpu/3", Suffix::kTid) == "cpu/*;f");
}

TEST_CASE("the order of the steps matters") {
  // hide, then collapse: the frames hidden made a;a.
  std::vector<TransformStep> hide_first = {{K::kHide, "^x$"},
                                           {K::kCollapseRecursion, ""}};
  std::vector<TransformStep> collapse_first = {{K::kCollapseRecursion, ""},
                                               {K::kHide, "^x$"}};
  CHECK(Run(hide_first, "p;a;x;a") == "p;a");
  CHECK(Run(collapse_first, "p;a;x;a") == "p;a;a");
  // show-from drops the process frame, so a focus on it no longer matches.
  std::vector<TransformStep> focus_first = {{K::kFocus, "^p$"},
                                            {K::kShowFrom, "^a$"}};
  std::vector<TransformStep> show_first = {{K::kShowFrom, "^a$"},
                                           {K::kFocus, "^p$"}};
  CHECK(Run(focus_first, "p;a;b") == "a;b");
  CHECK(Run(show_first, "p;a;b") == "DROPPED");
  // A process frame cut off is no longer generalized.
  std::vector<TransformStep> cut_then_generalize = {
      {K::kShowFrom, "^w-"}, {K::kGeneralizeNames, ""}};
  CHECK(Run(cut_then_generalize, "p-1;w-2;f") == "w-2;f");
  std::vector<TransformStep> generalize_then_cut = {
      {K::kGeneralizeNames, ""}, {K::kShowFrom, "^p-"}};
  CHECK(Run(generalize_then_cut, "p-1;w-2;f") == "p-*;w-2;f");
  // A stack emptied midway is not looked at by the steps after.
  CHECK(Run({{K::kHide, "."}, {K::kFocus, "."}}, "a") == "EMPTIED");
}

TEST_CASE("one transform applies to many stacks, each from scratch") {
  StackTransform t;
  std::string err;
  REQUIRE(t.Init({{K::kGeneralizeNames, ""}, {K::kHide, "^h$"}},
                 Suffix::kNone, &err));
  std::string out;
  REQUIRE(t.Apply("w-1;h;f", &out) == StackTransform::Result::kKept);
  CHECK(out == "w-*;f");
  REQUIRE(t.Apply("h;w-1", &out) == StackTransform::Result::kKept);
  CHECK(out == "w-1");  // the process frame was h, hidden
  CHECK(t.Apply("h", &out) == StackTransform::Result::kEmptied);
}

TEST_CASE("only focus and ignore leave the frames as they are") {
  StackTransform t;
  std::string err;
  REQUIRE(t.Init({{K::kFocus, "a"}, {K::kIgnore, "b"}}, Suffix::kNone, &err));
  CHECK_FALSE(t.reshapes());
  for (K kind : {K::kHide, K::kShowFrom, K::kSkipAfter, K::kPruneFrom,
                 K::kCollapseRecursion, K::kGeneralizeNames}) {
    REQUIRE(t.Init({{K::kFocus, "a"}, {kind, "x"}}, Suffix::kNone, &err));
    CHECK(t.reshapes());
  }
}
