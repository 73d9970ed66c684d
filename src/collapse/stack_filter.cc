#include "collapse/stack_filter.h"

#include <re2/re2.h>

namespace flamefold {

StackFilter::StackFilter() = default;
StackFilter::~StackFilter() = default;
StackFilter::StackFilter(StackFilter&&) noexcept = default;
StackFilter& StackFilter::operator=(StackFilter&&) noexcept = default;

std::unique_ptr<re2::RE2> CompilePattern(std::string_view flag,
                                         const std::string& pattern,
                                         std::string* err) {
  RE2::Options opts;
  opts.set_log_errors(false);
  opts.set_encoding(RE2::Options::EncodingLatin1);  // names are raw bytes
  auto re = std::make_unique<re2::RE2>(pattern, opts);
  if (!re->ok()) {
    *err = "bad " + std::string(flag) + " pattern '" + pattern +
           "': " + re->error();
    return nullptr;
  }
  return re;
}

namespace {

bool Compile(const std::vector<std::string>& patterns, const char* flag,
             std::vector<std::unique_ptr<re2::RE2>>* out, std::string* err) {
  for (const std::string& p : patterns) {
    std::unique_ptr<re2::RE2> re = CompilePattern(flag, p, err);
    if (re == nullptr) return false;
    out->push_back(std::move(re));
  }
  return true;
}

}  // namespace

bool StackFilter::Init(const std::vector<std::string>& include,
                       const std::vector<std::string>& exclude,
                       std::string* err) {
  include_.clear();
  exclude_.clear();
  return Compile(include, "--include", &include_, err) &&
         Compile(exclude, "--exclude", &exclude_, err);
}

bool StackFilter::Keep(std::string_view stack) const {
  re2::StringPiece text(stack.data(), stack.size());
  for (const auto& re : exclude_) {
    if (re2::RE2::PartialMatch(text, *re)) return false;
  }
  if (include_.empty()) return true;
  for (const auto& re : include_) {
    if (re2::RE2::PartialMatch(text, *re)) return true;
  }
  return false;
}

}  // namespace flamefold
