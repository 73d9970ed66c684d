// FrameNames: stackcollapse-perf.pl's per-frame rules, made once per
// distinct frame key and kept.
#include <doctest/doctest.h>

#include <string>

#include "base/string_interner.h"
#include "collapse/frame_names.h"

namespace flamefold {
namespace {

struct Names {
  explicit Names(PerfScriptOptions o = {}) : options(o) {}
  PerfScriptOptions options;
  StringInterner interner;
  PerfScriptStats stats;
  FrameNames names{options, &interner, &stats};

  // The frames a stack line of `f` stands for, "a;b" (leaf last).
  std::string Of(const FrameFields& f, bool java = false) {
    const FrameNames::Result& r = names.result(names.Lookup(f, java));
    std::string out = r.kind == FrameNames::kFrame ? "" : "kind" +
                      std::to_string(r.kind);
    for (uint32_t i = 0; i < r.count; ++i) {
      if (i > 0) out += ';';
      out += interner.Get(names.piece(r.first + i));
    }
    return out;
  }
};

TEST_CASE("one result per symbol and module, whatever the offset") {
  Names n;
  uint32_t a = n.names.Lookup({"1", "f+0x10", "/bin/x"}, false);
  CHECK(n.names.Lookup({"2", "f+0x20", "/bin/x"}, false) == a);
  CHECK(n.names.Lookup({"2", "f", "/bin/x"}, false) == a);
  CHECK(n.names.Lookup({"2", "f", "/bin/y"}, false) != a);
  CHECK(n.names.Lookup({"1", "f+0x10", "/bin/x"}, true) != a);  // java tag
  CHECK(n.names.size() == 3);
}

TEST_CASE("--addrs keys on the address too") {
  PerfScriptOptions o;
  o.include_addrs = true;
  Names n(o);
  CHECK(n.names.Lookup({"1", "[unknown]", "/bin/x"}, false) !=
        n.names.Lookup({"2", "[unknown]", "/bin/x"}, false));
  CHECK(n.Of({"2a", "[unknown]", "/bin/x"}) == "[x <2a>]");
}

TEST_CASE("the Perl rules: unknown, tidy, inline chains, java, quirks") {
  PerfScriptOptions o;
  o.annotate_kernel = true;
  o.annotate_jit = true;
  Names n(o);
  CHECK(n.Of({"1", "[unknown]", "/usr/lib/libc.so.6"}) == "[libc.so.6]");
  CHECK(n.Of({"1", "[unknown]", "[unknown]"}) == "[unknown]");
  CHECK(n.Of({"1", "ns::f(int) const+0x4", "/x"}) == "ns::f");
  CHECK(n.Of({"1", "a->b->c", "/tmp/perf-3.map"}) == "a_[j];b_[i];c_[i]");
  CHECK(n.Of({"1", "schedule+0x1", "[kernel.kallsyms]"}) == "schedule_[k]");
  CHECK(n.Of({"1", "Ljava/lang/Thread;::run", "/tmp/perf-3.map"}, true) ==
        "java/lang/Thread:::run_[j]");
  CHECK(n.Of({"1", "(anon)", "/x"}) == "kind1");  // dropped
  CHECK(n.Of({"1", std::string_view("a\0b", 3), "/x"}) == "kind3");
  n.names.CountQuirks(n.names.result(
      n.names.Lookup({"1", "std::function<void (int)>::f", "/x"}, false)).quirks);
  CHECK(n.stats.cut_names == 1);
}

}  // namespace
}  // namespace flamefold
