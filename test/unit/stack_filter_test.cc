// collapse/stack_filter: --include and --exclude over folded stacks.
#include <doctest/doctest.h>

#include <string>

#include "collapse/stack_filter.h"

using namespace flamefold;

TEST_CASE("no pattern keeps every stack and is not active") {
  StackFilter f;
  std::string err;
  REQUIRE(f.Init({}, {}, &err));
  CHECK_FALSE(f.active());
  CHECK(f.Keep("anything;at;all"));
  CHECK(f.Keep(""));
}

TEST_CASE("a stack is kept when it matches an include and no exclude") {
  StackFilter f;
  std::string err;
  REQUIRE(f.Init({"^java;", "gzip"}, {"GC", ";idle$"}, &err));
  CHECK(f.active());
  CHECK(f.Keep("java;main;run"));
  CHECK(f.Keep("bash;gzip;deflate"));
  CHECK_FALSE(f.Keep("python;main"));       // no include matches
  CHECK_FALSE(f.Keep("java;GC;mark"));      // an exclude matches
  CHECK_FALSE(f.Keep("bash;gzip;idle"));    // an exclude wins over includes
  CHECK(f.Keep("bash;gzip;idle_loop"));
}

TEST_CASE("patterns match anywhere, over raw bytes") {
  StackFilter f;
  std::string err;
  REQUIRE(f.Init({"\\xff"}, {}, &err));
  CHECK(f.Keep(std::string("a;b\xff;c")));
  CHECK_FALSE(f.Keep("a;b;c"));
}

TEST_CASE("a bad pattern is an error naming the flag and the pattern") {
  StackFilter f;
  std::string err;
  CHECK_FALSE(f.Init({"ok"}, {"(unclosed"}, &err));
  CHECK(err.find("--exclude") != std::string::npos);
  CHECK(err.find("(unclosed") != std::string::npos);
  err.clear();
  CHECK_FALSE(f.Init({"[z-a]"}, {}, &err));
  CHECK(err.find("--include") != std::string::npos);
}

TEST_CASE("Init replaces the patterns of an earlier Init") {
  StackFilter f;
  std::string err;
  REQUIRE(f.Init({"a"}, {}, &err));
  CHECK_FALSE(f.Keep("b"));
  REQUIRE(f.Init({}, {}, &err));
  CHECK(f.Keep("b"));
  CHECK_FALSE(f.active());
}
