// SymbolResolver: DSOs preloaded on threads name addresses exactly as DSOs
// loaded on first use, with the same warnings at the same time.
#include <doctest/doctest.h>

#include "symbols/symbol_resolver.h"
#include "symbols/symbol_table.h"

namespace flamefold {
namespace {

TEST_CASE("preloaded DSOs name addresses as DSOs loaded on first use") {
  SymbolOptions o;
  o.kallsyms = "/nonexistent";
  SymbolResolver plain(o), pre(o);
  Dso* self = plain.User("/proc/self/exe", "");
  Dso* gone = plain.User("/nonexistent/libgone.so", "");
  Dso* pre_self = pre.User("/proc/self/exe", "");
  Dso* pre_gone = pre.User("/nonexistent/libgone.so", "");
  pre.Preload({pre_gone, pre_self});
  // Warnings wait for the first use, whatever the preloading has done.
  CHECK(pre.warnings().empty());
  plain.Prepare(self);
  uint64_t main_at = 0;
  for (const Symbol& s : self->table.symbols()) {
    if (s.name == "main") main_at = s.start;
  }
  REQUIRE(main_at != 0);
  CHECK(pre.Name(pre_self, main_at + 1) == plain.Name(self, main_at + 1));
  CHECK(pre.warnings().empty());
  CHECK(pre.Name(pre_gone, 0x10) == plain.Name(gone, 0x10));
  CHECK(pre.warnings() == plain.warnings());
  CHECK(pre.warnings().size() == 1);
}

}  // namespace
}  // namespace flamefold
