// The C++ API (include/flamefold/): a thin layer over the tools' own
// entry points. Options become the command line the tool would parse
// (ParseFoldArgs, ParseFlameSvgArgs), so that they are validated and
// combined exactly as the tools do; the runs are RunFold and RunFlameSvg,
// with buffers opened by name and messages caught rather than printed.
// The library is built with hidden visibility: what the public headers
// declare is all it exports.
#pragma GCC visibility push(default)
#include "flamefold/flamefold.h"
#pragma GCC visibility pop

#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "base/diag.h"
#include "base/output.h"
#include "cli/flamefold_cli.h"
#include "cli/flamesvg_cli.h"
#include "collapse/flamefold.h"
#include "collapse/input_kind.h"
#include "perfdata/perf_data_folder.h"
#include "flamefold_config.h"
#include "io/byte_source.h"

namespace flamefold::api {

namespace {

// A tool's command line, built from API options; argv() points into it.
// It reads no configuration file: a program's options are all its own.
class Args {
 public:
  explicit Args(std::string tool) {
    args_.push_back(std::move(tool));
    args_.push_back("--no-config");
  }
  void Flag(const char* name, bool on) {
    if (on) args_.push_back(std::string("--") + name);
  }
  /// "--name VALUE" when `value` is not empty (empty is the default).
  void Value(const char* name, const std::string& value) {
    if (value.empty()) return;
    args_.push_back(std::string("--") + name);
    args_.push_back(value);
  }
  template <typename Number>
  void Value(const char* name, const std::optional<Number>& value) {
    if (value) Value(name, Text(*value));
  }
  int argc() const { return static_cast<int>(args_.size()); }
  char** argv() {
    argv_.clear();
    for (std::string& a : args_) argv_.push_back(a.data());
    argv_.push_back(nullptr);
    return argv_.data();
  }

 private:
  static std::string Text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.17g", v);
    return buf;
  }
  static std::string Text(long long v) { return std::to_string(v); }
  static std::string Text(int v) { return std::to_string(v); }
  static std::string Text(uint64_t v) { return std::to_string(v); }
  std::vector<std::string> args_;
  std::vector<char*> argv_;
};

Args FoldArgs(const FoldOptions& o) {
  Args a("flamefold");
  a.Flag("pid", o.pid);
  a.Flag("tid", o.tid);
  a.Flag("kernel", o.kernel);
  a.Flag("jit", o.jit);
  a.Flag("all", o.all);
  a.Flag("addrs", o.addrs);
  a.Value("event-filter", o.event_filter);
  a.Flag("srcline", o.srcline);
  a.Flag("inline", o.inline_frames);
  a.Flag("context", o.context);
  a.Flag("modern", o.modern);
  a.Value("weight", o.weight);
  a.Value("symfs", o.symfs);
  a.Value("archive", o.archive);
  a.Value("kallsyms", o.kallsyms);
  a.Value("buildid-dir", o.buildid_dir);
  for (const std::string& re : o.include) a.Value("include", re);
  for (const std::string& re : o.exclude) a.Value("exclude", re);
  a.Value("jobs", o.jobs);
  a.Value("max-line-length", o.max_line_length);
  a.Value("max-stack-depth", o.max_stack_depth);
  a.Value("max-frame-length", o.max_frame_length);
  a.Flag("quiet", o.quiet);
  return a;
}

Args SvgArgs(const SvgOptions& o) {
  Args a("flamesvg");
  a.Value("title", o.title);
  a.Value("subtitle", o.subtitle);
  a.Value("width", o.width);
  a.Value("height", o.height);
  a.Value("minwidth", o.minwidth);
  a.Value("fonttype", o.fonttype);
  a.Value("fontsize", o.fontsize);
  a.Value("fontwidth", o.fontwidth);
  a.Value("countname", o.countname);
  a.Value("nametype", o.nametype);
  a.Value("nameattr", o.nameattr);
  a.Value("total", o.total);
  a.Value("factor", o.factor);
  a.Value("encoding", o.encoding);
  a.Value("colors", o.colors);
  a.Value("bgcolors", o.bgcolors);
  a.Flag("hash", o.hash);
  a.Flag("random", o.random);
  a.Flag("cp", o.cp);
  a.Value("palfile", o.palfile);
  a.Flag("reverse", o.reverse);
  a.Flag("inverted", o.inverted);
  a.Flag("flamechart", o.flamechart);
  a.Flag("negate", o.negate);
  a.Value("notes", o.notes);
  a.Value("max-frames", o.max_frames);
  a.Value("max-stack-depth", o.max_stack_depth);
  a.Value("max-line-length", o.max_line_length);
  a.Value("max-frame-length", o.max_frame_length);
  a.Flag("quiet", o.quiet);
  return a;
}

// Fails when two buffers share a name: messages, and the opener below,
// tell inputs apart by name.
bool BufferNamesUnique(const std::vector<Input>& inputs, std::string* err) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (inputs[i].is_buffer() && inputs[j].is_buffer() &&
          inputs[i].name() == inputs[j].name()) {
        *err = "two buffers are named '" + inputs[i].name() + "'";
        return false;
      }
    }
  }
  return true;
}

// A source that is only read, never mapped (it does not say where its
// bytes lie in a file). The tools map large files (io/mapped_file.h), with
// a SIGBUS handler that ends the process if one is truncated meanwhile; a
// library must not install signal handlers in its host's process, nor
// kill it where read(2) would only come up short: the API reads.
class ReadOnly : public ByteSource {
 public:
  explicit ReadOnly(std::unique_ptr<ByteSource> source)
      : source_(std::move(source)) {}
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override {
    return source_->Read(buf, cap, got, err);
  }

 private:
  std::unique_ptr<ByteSource> source_;
};

// Opens the buffers among `inputs` by their names, anything else as a file
// (read, not mapped). `inputs` must outlive the opener.
InputOpener OpenerFor(const std::vector<Input>& inputs) {
  return [&inputs](const std::string& name, flamefold::Input* in,
                   std::string* err) {
    for (const Input& input : inputs) {
      if (input.is_buffer() && input.name() == name) {
        return OpenSource(name, std::make_unique<MemorySource>(input.bytes()),
                          in, err);
      }
    }
    if (!OpenInput(name, in, err)) return false;
    in->source = std::make_unique<ReadOnly>(std::move(in->source));
    return true;
  };
}

std::vector<std::string> Names(const std::vector<Input>& inputs) {
  std::vector<std::string> names;
  for (const Input& input : inputs) names.push_back(input.name());
  return names;
}

// The Diag a run reports through: its first error is kept for the status,
// warnings and notes go to the caller's handler, else to stderr as the tool
// prints them. Not movable: the handler points at it.
class Messages {
 public:
  Messages(std::string tool, bool quiet, MessageHandler on_message)
      : diag_(std::move(tool)), on_message_(std::move(on_message)) {
    diag_.set_quiet(quiet);
    diag_.set_handler([this](Diag::Severity severity, std::string_view text) {
      Take(severity, text);
    });
  }
  Messages(const Messages&) = delete;
  Messages& operator=(const Messages&) = delete;

  const Diag& diag() const { return diag_; }
  /// The status of a run that ended with exit status `exit`.
  Status Result(int exit) const {
    if (exit == kExitOk) return Status();
    StatusCode code = exit == kExitUsage ? StatusCode::kUsageError
                                         : StatusCode::kDataError;
    return Status(code, first_error_.empty() ? "failed" : first_error_);
  }

 private:
  void Take(Diag::Severity severity, std::string_view text) {
    if (severity == Diag::Severity::kError) {
      if (first_error_.empty()) first_error_ = text;
      return;
    }
    std::string line = diag_.tool() +
                       (severity == Diag::Severity::kWarning ? ": warning: "
                                                             : ": note: ");
    line.append(text);
    if (on_message_) {
      on_message_(line);
    } else {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
  }
  Diag diag_;
  MessageHandler on_message_;
  std::string first_error_;
};

// Hands what is written to a callback; its false is a write error.
class CallbackSink : public OutputSink {
 public:
  explicit CallbackSink(const OutputCallback& write) : write_(write) {}

 protected:
  void WriteRaw(std::string_view s) override {
    if (!write_(s)) Fail("the output callback stopped", false);
  }

 private:
  const OutputCallback& write_;
};

// Runs `body`, turning what it throws (out of memory) into a status, as
// the tools' mains do: nothing is thrown across the API.
template <typename Body>
Status Guarded(Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kDataError, "out of memory");
  } catch (const std::exception& e) {
    return Status(StatusCode::kDataError, e.what());
  }
}

// RunFlameSvg over `inputs` into `out`, flushed.
Status Draw(const std::vector<Input>& inputs, const SvgOptions& options,
            OutputSink* out) {
  FlameSvgConfig config;
  std::string err;
  Args args = SvgArgs(options);
  if (ParseFlameSvgArgs(args.argc(), args.argv(), &config, &err) !=
          ArgsResult::kRun ||
      !BufferNamesUnique(inputs, &err)) {
    return Status(StatusCode::kUsageError, err);
  }
  config.inputs = Names(inputs);
  config.open_input = OpenerFor(inputs);
  Messages messages("flamesvg", config.quiet, options.on_message);
  int exit = RunFlameSvg(config, out, messages.diag());
  if (!out->Flush() && exit == kExitOk) {
    return Status(StatusCode::kDataError, "write error: " + out->error());
  }
  return messages.Result(exit);
}

// The name of a FoldedStacks' text among the inputs of a drawing.
constexpr char kStacksName[] = "(folded stacks)";

}  // namespace

const char* Version() { return FLAMEFOLD_VERSION; }

std::vector<std::string_view> FoldedStack::frames() const {
  std::vector<std::string_view> frames;
  std::string_view rest = stack;
  for (size_t semi; (semi = rest.find(';')) != std::string_view::npos;) {
    frames.push_back(rest.substr(0, semi));
    rest.remove_prefix(semi + 1);
  }
  frames.push_back(rest);
  return frames;
}

// flamefold's output, and where each line's stack and count are in it.
struct FoldedStacks::Impl {
  struct Line {
    size_t begin, stack_size, count_size;
  };
  std::string text;
  std::vector<Line> lines;

  /// Indexes `text`: "STACK COUNT\n" lines, the count after the last space.
  void Index() {
    lines.clear();
    size_t begin = 0;
    while (begin < text.size()) {
      size_t end = text.find('\n', begin);
      if (end == std::string::npos) end = text.size();
      size_t space = text.rfind(' ', end);
      if (space == std::string::npos || space < begin) space = end;
      size_t count_size = space < end ? end - space - 1 : 0;
      lines.push_back({begin, space - begin, count_size});
      begin = end + 1;
    }
  }
};

FoldedStacks::FoldedStacks() : impl_(std::make_unique<Impl>()) {}
FoldedStacks::~FoldedStacks() = default;
FoldedStacks::FoldedStacks(FoldedStacks&&) noexcept = default;
FoldedStacks& FoldedStacks::operator=(FoldedStacks&&) noexcept = default;

size_t FoldedStacks::size() const { return impl_ ? impl_->lines.size() : 0; }

FoldedStack FoldedStacks::operator[](size_t i) const {
  const Impl::Line& line = impl_->lines[i];
  std::string_view text = impl_->text;
  return {text.substr(line.begin, line.stack_size),
          text.substr(line.begin + line.stack_size + 1, line.count_size)};
}

std::string_view FoldedStacks::text() const {
  return impl_ ? std::string_view(impl_->text) : std::string_view();
}

Status Fold(const std::vector<Input>& inputs, const FoldOptions& options,
            FoldedStacks* out) {
  *out = FoldedStacks();
  return Guarded([&] {
    FoldConfig config;
    std::string err;
    Args args = FoldArgs(options);
    if (ParseFoldArgs(args.argc(), args.argv(), &config, &err) !=
            ArgsResult::kRun ||
        !BufferNamesUnique(inputs, &err)) {
      return Status(StatusCode::kUsageError, err);
    }
    config.inputs = Names(inputs);
    config.open_input = OpenerFor(inputs);
    Messages messages("flamefold", config.quiet, options.on_message);
    StringSink sink;
    PerfDataFolder recordings(config.symbols, config.archive, config.stats,
                              messages.diag());
    Status status = messages.Result(
        RunFold(config, &recordings, &sink, messages.diag()));
    if (!status.ok()) return status;
    out->impl_->text = std::move(sink.str());
    out->impl_->Index();
    return status;
  });
}

Status RenderSvg(const FoldedStacks& stacks, const SvgOptions& options,
                 std::string* svg) {
  return RenderSvg({Input::Buffer(kStacksName, stacks.text())}, options, svg);
}

Status RenderSvg(const FoldedStacks& stacks, const SvgOptions& options,
                 const OutputCallback& write) {
  return RenderSvg({Input::Buffer(kStacksName, stacks.text())}, options,
                   write);
}

Status RenderSvg(const std::vector<Input>& inputs, const SvgOptions& options,
                 std::string* svg) {
  return Guarded([&] {
    StringSink sink;
    Status status = Draw(inputs, options, &sink);
    svg->swap(sink.str());
    return status;
  });
}

Status RenderSvg(const std::vector<Input>& inputs, const SvgOptions& options,
                 const OutputCallback& write) {
  return Guarded([&] {
    CallbackSink sink(write);
    return Draw(inputs, options, &sink);
  });
}

}  // namespace flamefold::api
