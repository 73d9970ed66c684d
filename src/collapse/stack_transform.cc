#include "collapse/stack_transform.h"

#include <re2/re2.h>

#include <algorithm>

#include "collapse/fold_config.h"
#include "collapse/stack_filter.h"

namespace flamefold {

namespace {

// Along TransformKind.
constexpr std::string_view kOptionNames[] = {
    "focus",     "ignore",     "hide",
    "show-from", "skip-after", "prune-from",
    "collapse-recursion", "generalize-names"};

bool TakesRegex(TransformKind kind) {
  return kind != TransformKind::kSkipAfter &&
         kind != TransformKind::kCollapseRecursion &&
         kind != TransformKind::kGeneralizeNames;
}

bool FrameMatches(const re2::RE2& regex, std::string_view frame) {
  return re2::RE2::PartialMatch(re2::StringPiece(frame.data(), frame.size()),
                                regex);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlnum(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Whether `frame` is `name`, or `name` with one of the annotations that
// --kernel, --jit and inlining add ("_[k]", "_[j]", "_[i]").
bool IsNamed(std::string_view frame, std::string_view name) {
  if (frame == name) return true;
  if (frame.size() != name.size() + 4 || !frame.starts_with(name)) {
    return false;
  }
  std::string_view tag = frame.substr(name.size());
  return tag == "_[k]" || tag == "_[j]" || tag == "_[i]";
}

// Where --pid's "-PID" or --tid's "-PID/TID" starts in `name`, or its size
// when it has no such suffix.
size_t SuffixStart(std::string_view name,
                   StackTransform::ProcessSuffix suffix) {
  using ProcessSuffix = StackTransform::ProcessSuffix;
  if (suffix == ProcessSuffix::kNone) return name.size();
  std::string_view head = name;
  if (suffix == ProcessSuffix::kTid) {
    size_t slash = name.rfind('/');
    if (slash == std::string_view::npos) return name.size();
    head = name.substr(0, slash);
  }
  size_t dash = head.rfind('-');
  return dash == std::string_view::npos ? name.size() : dash;
}

}  // namespace

std::span<const std::string_view> TransformOptionNames() {
  return kOptionNames;
}

std::optional<TransformKind> TransformKindOf(std::string_view name) {
  auto it = std::find(std::begin(kOptionNames), std::end(kOptionNames), name);
  if (it == std::end(kOptionNames)) return std::nullopt;
  return static_cast<TransformKind>(it - std::begin(kOptionNames));
}

StackTransform::StackTransform() = default;
StackTransform::~StackTransform() = default;
StackTransform::StackTransform(StackTransform&&) noexcept = default;
StackTransform& StackTransform::operator=(StackTransform&&) noexcept =
    default;

bool StackTransform::Init(std::vector<TransformStep> steps,
                          ProcessSuffix process_suffix, std::string* err) {
  steps_.clear();
  process_suffix_ = process_suffix;
  for (TransformStep& s : steps) {
    Step step{s.kind, std::move(s.argument), nullptr};
    if (TakesRegex(s.kind)) {
      std::string flag =
          "--" + std::string(kOptionNames[static_cast<size_t>(s.kind)]);
      step.regex = CompilePattern(flag, step.argument, err);
      if (step.regex == nullptr) return false;
    }
    steps_.push_back(std::move(step));
  }
  return true;
}

bool StackTransform::reshapes() const {
  return std::any_of(steps_.begin(), steps_.end(), [](const Step& s) {
    return s.kind != TransformKind::kFocus && s.kind != TransformKind::kIgnore;
  });
}

bool StackTransform::AnyMatch(const Step& step) const {
  return std::any_of(frames_.begin(), frames_.end(), [&](std::string_view f) {
    return FrameMatches(*step.regex, f);
  });
}

StackTransform::Result StackTransform::Apply(std::string_view stack,
                                             std::string* out) const {
  frames_.clear();
  for (size_t start = 0;;) {
    size_t semi = stack.find(';', start);
    frames_.push_back(stack.substr(start, semi - start));
    if (semi == std::string_view::npos) break;
    start = semi + 1;
  }
  process_first_ = true;
  for (const Step& step : steps_) {
    if (!ApplyStep(step)) return Result::kDropped;
    if (frames_.empty()) return Result::kEmptied;
  }
  out->clear();
  for (size_t i = 0; i < frames_.size(); ++i) {
    if (i > 0) *out += ';';
    *out += frames_[i];
  }
  return Result::kKept;
}

// One step on frames_; false when it drops the stack.
bool StackTransform::ApplyStep(const Step& step) const {
  auto matches = [&](std::string_view f) {
    return FrameMatches(*step.regex, f);
  };
  auto keep_from = [&](size_t first) {  // removes the frames before `first`
    if (first == 0) return;
    frames_.erase(frames_.begin(), frames_.begin() + first);
    process_first_ = false;
  };
  switch (step.kind) {
    case TransformKind::kFocus:
      return AnyMatch(step);
    case TransformKind::kIgnore:
      return !AnyMatch(step);
    case TransformKind::kHide: {
      if (!frames_.empty() && matches(frames_[0])) process_first_ = false;
      std::erase_if(frames_, matches);
      return true;
    }
    case TransformKind::kShowFrom: {
      auto it = std::find_if(frames_.begin(), frames_.end(), matches);
      if (it == frames_.end()) return false;
      keep_from(it - frames_.begin());
      return true;
    }
    case TransformKind::kSkipAfter: {
      auto it = std::find_if(frames_.rbegin(), frames_.rend(),
                             [&](std::string_view f) {
                               return IsNamed(f, step.argument);
                             });
      if (it != frames_.rend()) keep_from(frames_.rend() - it - 1);
      return true;
    }
    case TransformKind::kPruneFrom: {
      auto it = std::find_if(frames_.rbegin(), frames_.rend(), matches);
      if (it != frames_.rend()) frames_.erase(it.base(), frames_.end());
      return true;
    }
    case TransformKind::kCollapseRecursion:
      CollapseRecursion();
      return true;
    case TransformKind::kGeneralizeNames:
      if (process_first_ && !frames_.empty()) Generalize();
      return true;
  }
  return true;
}

// stackcollapse-recursive.pl splits the stack on ';' with Perl's split,
// which drops the empty fields at the end, and keeps each frame that
// differs from the last one kept, starting from "": so empty frames at the
// start go too.
void StackTransform::CollapseRecursion() const {
  while (!frames_.empty() && frames_.back().empty()) frames_.pop_back();
  std::string_view last;
  size_t kept = 0;
  for (size_t i = 0; i < frames_.size(); ++i) {
    if (frames_[i] == last) {
      if (i == 0) process_first_ = false;
      continue;
    }
    last = frames_[i];
    frames_[kept++] = frames_[i];
  }
  frames_.resize(kept);
}

// Rewrites the process frame, frames_[0], into process_name_.
void StackTransform::Generalize() const {
  std::string_view name = frames_[0];
  size_t suffix = SuffixStart(name, process_suffix_);
  std::string out;
  for (size_t i = 0; i < name.size();) {
    bool separated = i > 0 && !IsAlnum(name[i - 1]);
    if (i < suffix && IsDigit(name[i]) && separated) {
      while (i < suffix && IsDigit(name[i])) ++i;
      out += '*';
      continue;
    }
    out += name[i++];
  }
  process_name_ = std::move(out);
  frames_[0] = process_name_;
}

bool InitTransform(const FoldConfig& config, StackTransform* transform,
                   std::string* err) {
  using ProcessSuffix = StackTransform::ProcessSuffix;
  ProcessSuffix suffix = config.perf.include_tid   ? ProcessSuffix::kTid
                         : config.perf.include_pid ? ProcessSuffix::kPid
                                                   : ProcessSuffix::kNone;
  return transform->Init(config.transforms, suffix, err);
}

bool InitStackSelection(const FoldConfig& config, StackFilter* filter,
                        StackTransform* transform, std::string* err) {
  return filter->Init(config.include, config.exclude, err) &&
         InitTransform(config, transform, err);
}

std::optional<int> SelectStacks(const FoldConfig& config, StackFilter* filter,
                                StackTransform* transform, const Diag& diag) {
  std::string err;
  if (InitStackSelection(config, filter, transform, &err)) return std::nullopt;
  diag.Error(err);
  return kExitUsage;
}

bool ShapeStackLine(const StackFilter& filter, const StackTransform& transform,
                    std::string_view line, std::string* out) {
  if (filter.active() && !filter.Keep(line)) return false;
  if (transform.active()) {
    if (transform.Apply(line, out) != StackTransform::Result::kKept) {
      return false;
    }
    if (transform.reshapes()) return true;
  }
  out->assign(line);
  return true;
}

}  // namespace flamefold
