// StackFilter: --include / --exclude regular expressions (RE2), matched
// against the whole folded line "comm;frame;...;frame", as `grep` and
// `grep -v` in the Perl pipelines were. Compiled once; linear time.
#ifndef FLAMEFOLD_COLLAPSE_STACK_FILTER_H_
#define FLAMEFOLD_COLLAPSE_STACK_FILTER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace flamefold {

class StackFilter {
 public:
  StackFilter();
  ~StackFilter();
  StackFilter(StackFilter&&) noexcept;
  StackFilter& operator=(StackFilter&&) noexcept;

  /// Compiles the patterns. On a bad pattern returns false with `*err`
  /// naming it: "bad --include pattern 'a(': missing ): a(".
  bool Init(const std::vector<std::string>& include,
            const std::vector<std::string>& exclude, std::string* err);
  /// Kept when it matches any --include (or there is none) and no --exclude.
  bool Keep(std::string_view stack) const;
  bool active() const { return !include_.empty() || !exclude_.empty(); }

 private:
  std::vector<std::unique_ptr<re2::RE2>> include_, exclude_;
};

/// Compiles `pattern`, given to the option `flag` ("--include"), as the
/// filters and transforms match names: RE2, on raw bytes (Latin-1). Null
/// with `*err` naming it on a bad pattern.
std::unique_ptr<re2::RE2> CompilePattern(std::string_view flag,
                                         const std::string& pattern,
                                         std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_STACK_FILTER_H_
