#include "flamefold/batch.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>

#include "flamefold/fold.h"
#include "flamefold/options.h"
#include "flamefold/output.h"
#include "flamefold/report.h"
#include "flamefold/tool_main.h"

namespace flamefold {
namespace fs = std::filesystem;

namespace {

constexpr OptionSpec kSpecs[] = {
    {"o|outdir", OptType::kString, false, false, "OUTDIR",
     "write outputs under OUTDIR (default: the current directory)"},
    {"jobs|j", OptType::kInt, false, false, "N",
     "convert N inputs at once (default: one per core)"},
    {"folded", OptType::kFlag, false, false, "", "write NAME.folded"},
    {"svg", OptType::kFlag, false, false, "", "write NAME.svg"},
    {"report", OptType::kFlag, false, false, "",
     "write NAME.report.txt (flamereport's text report)"},
    {"force", OptType::kFlag, false, false, "",
     "convert even when the outputs are newer than the input"},
    {"quiet|q", OptType::kFlag, false, false, "",
     "no warnings and no progress"},
    {"help|h", OptType::kFlag, false, false, "", "print this help and exit"},
    {"version|V", OptType::kFlag, false, false, "",
     "print the version and exit"},
};

// Temporary outputs being written, so that SIGINT/SIGTERM can remove them:
// an interrupted batch leaves no partial file behind. One slot per worker.
constexpr int kMaxSlots = 256;
constexpr int kPathMax = 4096;
char g_temp_paths[kMaxSlots][3][kPathMax];
volatile sig_atomic_t g_slot_used[kMaxSlots];

extern "C" void RemoveTempsAndDie(int sig) {
  for (int i = 0; i < kMaxSlots; ++i) {
    if (!g_slot_used[i]) continue;
    for (int k = 0; k < 3; ++k) {
      if (g_temp_paths[i][k][0] != '\0') unlink(g_temp_paths[i][k]);
    }
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void SetTemp(int slot, int k, const std::string& path) {
  g_temp_paths[slot][k][0] = '\0';
  if (path.size() < kPathMax) {
    std::memcpy(g_temp_paths[slot][k], path.c_str(), path.size() + 1);
  }
}

bool Hidden(const fs::path& p) {
  std::string name = p.filename().string();
  return !name.empty() && name[0] == '.';
}

// True for DATA.tar.bz2 beside a file DATA: the `perf archive` that
// flamefold reads along with DATA (perf's name for it), not a profile.
bool PerfArchiveOfNeighbour(const fs::path& p) {
  const std::string s = p.string(), ext = ".tar.bz2";
  if (s.size() <= ext.size() ||
      s.compare(s.size() - ext.size(), ext.size(), ext) != 0) {
    return false;
  }
  std::error_code ec;
  return fs::is_regular_file(s.substr(0, s.size() - ext.size()), ec);
}

bool Within(const fs::path& p, const fs::path& dir) {
  auto rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

// WriteOutput, removing the file when the body or the write fails.
int WriteFile(const std::string& path, const std::function<int(OutputSink*)>& body,
              const Diag& diag) {
  int status = WriteOutput(diag, path, body);
  if (status != kExitOk) unlink(path.c_str());
  return status;
}

bool UpToDate(const BatchConfig& config, const BatchJob& job) {
  if (config.force) return false;
  struct stat in, out;
  if (stat(job.input.c_str(), &in) != 0) return false;
  for (const auto& [want, ext] : {std::pair{config.folded, ".folded"},
                                  {config.svg, ".svg"},
                                  {config.report, ".report.txt"}}) {
    if (!want) continue;
    if (stat((job.out_base + ext).c_str(), &out) != 0) return false;
    if (out.st_mtim.tv_sec < in.st_mtim.tv_sec ||
        (out.st_mtim.tv_sec == in.st_mtim.tv_sec &&
         out.st_mtim.tv_nsec < in.st_mtim.tv_nsec)) {
      return false;
    }
  }
  return true;
}

enum class Outcome { kConverted, kSkipped, kFailed };

// fold -> temporary folded file; from it the SVG and the report; then each
// temporary output is renamed into place.
Outcome Convert(const BatchConfig& config, const BatchJob& job, int slot) {
  Diag diag("flamebatch");
  diag.set_quiet(config.quiet);
  diag.set_context(job.input);
  if (UpToDate(config, job)) return Outcome::kSkipped;
  std::error_code ec;
  fs::create_directories(fs::path(job.out_base).parent_path(), ec);
  if (ec) {
    diag.Error(fs::path(job.out_base).parent_path().string() + ": " + ec.message());
    return Outcome::kFailed;
  }
  std::string tag = ".tmp." + std::to_string(getpid()) + "." + std::to_string(slot);
  std::string folded = job.out_base + ".folded" + tag;
  std::string svg = job.out_base + ".svg" + tag;
  std::string report = job.out_base + ".report.txt" + tag;
  SetTemp(slot, 0, folded);
  SetTemp(slot, 1, svg);
  SetTemp(slot, 2, report);
  g_slot_used[slot] = 1;
  auto cleanup = [&] {
    unlink(folded.c_str());
    unlink(svg.c_str());
    unlink(report.c_str());
    g_slot_used[slot] = 0;
  };
  FoldConfig fold;
  fold.inputs = {job.input};
  fold.quiet = config.quiet;
  fold.perf.include_pid = false;
  fold.perf.limits = config.svg_config.limits;  // flamesvg's options
  int status = WriteFile(folded, [&](OutputSink* out) {
    return RunFold(fold, out, diag);
  }, diag);
  if (status == kExitOk && config.svg) {
    FlameSvgConfig sc = config.svg_config;
    sc.inputs = {folded};
    sc.quiet = config.quiet;
    if (sc.graph.title.empty()) sc.graph.title = job.label;
    status = WriteFile(svg, [&](OutputSink* out) {
      return RunFlameSvg(sc, out, diag);
    }, diag);
  }
  if (status == kExitOk && config.report) {
    ReportConfig rc;
    rc.limits = config.svg_config.limits;
    rc.inputs = {folded};
    rc.quiet = config.quiet;
    status = WriteFile(report, [&](OutputSink* out) {
      return RunReport(rc, out, diag);
    }, diag);
  }
  if (status == kExitOk) {
    for (const auto& [want, tmp, ext] :
         {std::tuple{config.svg, svg, ".svg"},
          {config.report, report, ".report.txt"},
          {config.folded, folded, ".folded"}}) {
      if (want && std::rename(tmp.c_str(), (job.out_base + ext).c_str()) != 0) {
        diag.Error(job.out_base + ext + ": " + std::strerror(errno));
        status = kExitDataError;
      }
    }
  }
  cleanup();
  return status == kExitOk ? Outcome::kConverted : Outcome::kFailed;
}

// Progress on stderr: a line redrawn in place on a terminal, plain lines
// otherwise. Called under the batch mutex.
class Progress {
 public:
  Progress(size_t total, uint64_t total_bytes, bool quiet)
      : total_(total), total_bytes_(total_bytes), quiet_(quiet),
        tty_(isatty(2) != 0), start_(std::chrono::steady_clock::now()) {}

  void Done(const BatchJob& job, Outcome outcome) {
    ++done_;
    bytes_ += job.bytes;
    if (quiet_) return;
    double secs = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - start_).count();
    double mbps = secs > 0 ? bytes_ / 1e6 / secs : 0;
    if (tty_) {
      double left = mbps > 0 ? (total_bytes_ - bytes_) / 1e6 / mbps : 0;
      int width = 30, filled = static_cast<int>(width * done_ / std::max<size_t>(total_, 1));
      std::fprintf(stderr, "\r\x1b[K[%s%s] %zu/%zu files, %.1f MB/s, %d:%02d left",
                   std::string(filled, '#').c_str(),
                   std::string(width - filled, '.').c_str(), done_, total_, mbps,
                   static_cast<int>(left) / 60, static_cast<int>(left) % 60);
      if (done_ == total_) std::fputc('\n', stderr);
    } else {
      const char* what = outcome == Outcome::kConverted ? "converted"
                         : outcome == Outcome::kSkipped ? "up to date"
                                                        : "failed";
      std::fprintf(stderr, "flamebatch: [%zu/%zu] %s: %s\n", done_, total_,
                   what, job.label.c_str());
    }
  }

 private:
  size_t total_, done_ = 0;
  uint64_t total_bytes_, bytes_ = 0;
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

std::string OutputName(const std::string& file_name) {
  std::string name = file_name;
  auto strip = [&](std::string_view ext) {
    if (name.size() > ext.size() &&
        name.compare(name.size() - ext.size(), ext.size(), ext) == 0) {
      name.resize(name.size() - ext.size());
      return true;
    }
    return false;
  };
  strip(".gz") || strip(".zst");
  for (std::string_view ext : {".txt", ".data", ".folded", ".perf", ".stacks"}) {
    if (strip(ext)) break;
  }
  return name;
}

std::string BatchHelp() {
  return "Usage: flamebatch [OPTIONS] [FLAMESVG OPTIONS] PATH...\n"
         "Converts archived profiles (perf.data, perf script text plain or\n"
         "gzip/zstd, folded stacks; found by content) in files and folders\n"
         "(recursively) into OUTDIR/relative/path/NAME.folded and NAME.svg,\n"
         "several at once. Inputs whose outputs are newer are skipped.\n\n"
         "Options (spelled in full):\n" +
         FormatOptionHelp(kSpecs) +
         "Any flamesvg option (see flamesvg --help) applies to every SVG;\n"
         "without --title, each SVG is titled with its input's path.\n"
         "flamesvg's --max-stack-depth and --max-frame-length apply to the\n"
         "folding as well (and so to NAME.folded and the report).\n\n"
         "Example: flamebatch -o graphs --jobs 4 --report archive/\n"
         "Exit status: 0 all converted or up to date, 1 an input failed, 2 usage error.\n";
}

BatchArgs ParseBatchArgs(int argc, char** argv, BatchConfig* config,
                         std::string* err) {
  ParsedOptions opts;
  if (!ParseOptionsPassThrough(kSpecs, argc, argv, &opts, err)) {
    return BatchArgs::kUsageError;
  }
  if (opts.Has("help")) return BatchArgs::kHelp;
  if (opts.Has("version")) return BatchArgs::kVersion;
  std::vector<std::string> rest = opts.operands();
  std::vector<char*> svg_argv{const_cast<char*>("flamebatch")};
  for (std::string& a : rest) svg_argv.push_back(a.data());
  switch (ParseFlameSvgArgs(static_cast<int>(svg_argv.size()), svg_argv.data(),
                            &config->svg_config, err)) {
    case SvgArgsResult::kRun: break;
    case SvgArgsResult::kHelp: return BatchArgs::kHelp;
    case SvgArgsResult::kVersion: return BatchArgs::kVersion;
    case SvgArgsResult::kUsageError: return BatchArgs::kUsageError;
  }
  config->paths = config->svg_config.inputs;
  config->svg_config.inputs.clear();
  if (config->paths.empty()) {
    *err = "no PATH given: name the files or folders to convert";
    return BatchArgs::kUsageError;
  }
  if (!config->svg_config.output.empty()) {
    *err = "-o names the output folder in flamebatch";
    return BatchArgs::kUsageError;
  }
  config->outdir = opts.Get("o", ".");
  bool any = opts.Has("folded") || opts.Has("svg");
  config->folded = !any || opts.Has("folded");
  config->svg = !any || opts.Has("svg");
  config->report = opts.Has("report");
  config->force = opts.Has("force");
  config->quiet = opts.Has("quiet");
  long cores = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  config->jobs = static_cast<int>(cores);
  if (opts.Has("jobs")) {
    long long n = std::atoll(opts.Get("jobs").c_str());
    if (n < 0) {
      *err = "--jobs takes a number, 0 or more";
      return BatchArgs::kUsageError;
    }
    config->jobs = static_cast<int>(n == 0 ? cores : std::min(n, 64LL));
  }
  // --cp reads and rewrites one palette.map: conversions take turns.
  if (config->svg_config.use_palette_map) config->jobs = 1;
  return BatchArgs::kRun;
}

bool CollectJobs(const BatchConfig& config, std::vector<BatchJob>* jobs,
                 std::string* err) {
  std::error_code ec;
  fs::path outdir = fs::weakly_canonical(fs::absolute(config.outdir), ec);
  for (const std::string& path : config.paths) {
    fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
      *err = path + ": " + (ec ? ec.message() : "No such file or directory");
      return false;
    }
    if (!fs::is_directory(st)) {
      fs::path p(path);
      BatchJob job{path, (fs::path(config.outdir) / OutputName(p.filename().string())).string(),
                   p.filename().string(), static_cast<uint64_t>(fs::file_size(p, ec))};
      jobs->push_back(job);
      continue;
    }
    std::vector<BatchJob> found;
    auto it = fs::recursive_directory_iterator(
        path, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const fs::path& p = it->path();
      fs::path abs = fs::weakly_canonical(fs::absolute(p), ec);
      if (Hidden(p) || Within(abs, outdir) || abs == outdir) {
        if (it->is_directory()) it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file() || PerfArchiveOfNeighbour(p)) continue;
      fs::path rel = p.lexically_relative(path);
      fs::path base = fs::path(config.outdir) / rel.parent_path() /
                      OutputName(p.filename().string());
      found.push_back({p.string(), base.string(), rel.string(),
                       static_cast<uint64_t>(it->file_size())});
    }
    if (ec) {
      *err = path + ": " + ec.message();
      return false;
    }
    std::sort(found.begin(), found.end(),
              [](const BatchJob& a, const BatchJob& b) { return a.input < b.input; });
    jobs->insert(jobs->end(), found.begin(), found.end());
  }
  return true;
}

int RunBatch(const BatchConfig& config, const Diag& diag) {
  std::vector<BatchJob> jobs;
  std::string err;
  if (!CollectJobs(config, &jobs, &err)) {
    diag.Error(err);
    return kExitDataError;
  }
  std::signal(SIGINT, RemoveTempsAndDie);
  std::signal(SIGTERM, RemoveTempsAndDie);
  std::signal(SIGPIPE, SIG_IGN);
  uint64_t total_bytes = 0;
  for (const BatchJob& j : jobs) total_bytes += j.bytes;
  Progress progress(jobs.size(), total_bytes, config.quiet);
  std::mutex mu;
  std::atomic<size_t> next{0};
  size_t converted = 0, skipped = 0, failed = 0;
  auto work = [&](int slot) {
    for (size_t i; (i = next++) < jobs.size();) {
      Outcome o = Convert(config, jobs[i], slot);
      std::lock_guard<std::mutex> lock(mu);
      (o == Outcome::kConverted ? converted : o == Outcome::kSkipped ? skipped : failed)++;
      progress.Done(jobs[i], o);
    }
  };
  int n = std::clamp(config.jobs, 1, kMaxSlots);
  std::vector<std::thread> threads;
  for (int s = 1; s < n; ++s) threads.emplace_back(work, s);
  work(0);
  for (std::thread& t : threads) t.join();
  std::fprintf(stderr, "flamebatch: %zu converted, %zu up to date, %zu failed\n",
               converted, skipped, failed);
  return failed > 0 ? kExitDataError : kExitOk;
}

}  // namespace flamefold
