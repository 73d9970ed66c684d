#include "batch/batch.h"

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
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "base/output.h"
#include "collapse/flamefold.h"
#include "collapse/input_kind.h"
#include "collapse/stack_limits.h"
#include "io/file_source.h"
#include "perfdata/perf_data_folder.h"
#include "report/report.h"

namespace flamefold {
namespace fs = std::filesystem;

namespace {

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

// The outputs of an input, named after its whole file name.
constexpr const char* kExts[] = {".folded", ".svg", ".report.txt"};

bool Wanted(const BatchConfig& config, int k) {
  return k == 0 ? config.folded : k == 1 ? config.svg : config.report;
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

// A path spelled so that equal files compare equal (absolute, symbolic
// links resolved where they exist).
std::string Key(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  fs::path canon = fs::weakly_canonical(abs, ec);
  return (ec ? abs.lexically_normal() : canon).string();
}

// The outputs flamebatch wrote, known from the lists it keeps: each run
// lists what it writes in OUTDIR/.flamebatch-outputs (hidden, so never an
// input), one path relative to OUTDIR per NUL-terminated record. A file in
// any list read is an output, never an input; a file in none is never
// replaced. Add() lists an output before it is renamed into place, so that
// an interrupted run still knows what it wrote.
class OutputList {
 public:
  // Reads the lists of OUTDIR and of the folders above it.
  explicit OutputList(const std::string& outdir)
      : outdir_(Key(outdir)), file_(outdir_ / kOutputListName) {
    ReadAbove(outdir_);
  }

  // Reads the list in `dir` and in each folder above it (an earlier run
  // may have used any of them as OUTDIR).
  void ReadAbove(const fs::path& dir) {
    for (fs::path d = Key(dir);; d = d.parent_path()) {
      Read(d);
      if (d == d.parent_path()) break;
    }
  }

  // Reads the list in `dir`, if there is one (once).
  void Read(const fs::path& dir) {
    fs::path d = Key(dir);
    if (!read_.insert(d.string()).second) return;
    std::string list, err;
    if (!ReadFile((d / kOutputListName).string(), &list, &err)) return;
    for (size_t pos = 0, end; (end = list.find('\0', pos)) != std::string::npos;
         pos = end + 1) {
      if (end > pos) known_.insert(Key(d / list.substr(pos, end - pos)));
    }
  }

  // Thread-safe.
  bool Has(const fs::path& p) const {
    std::string key = Key(p);
    std::lock_guard<std::mutex> lock(mu_);
    return known_.count(key) > 0;
  }

  // Thread-safe. False with *err when OUTDIR's list cannot be written.
  bool Add(const fs::path& p, std::string* err) {
    std::string key = Key(p);
    std::lock_guard<std::mutex> lock(mu_);
    if (known_.count(key) > 0) return true;
    std::string rec = fs::path(key).lexically_relative(outdir_).string();
    rec += '\0';
    int fd = open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    bool ok = fd >= 0 && write(fd, rec.data(), rec.size()) ==
                             static_cast<ssize_t>(rec.size());
    if (!ok) *err = file_.string() + ": " + std::strerror(errno);
    if (fd >= 0) close(fd);
    if (ok) known_.insert(key);
    return ok;
  }

 private:
  fs::path outdir_;
  fs::path file_;
  std::set<std::string> read_;   // folders whose list was read
  std::set<std::string> known_;  // Key() of every output listed
  mutable std::mutex mu_;
};

// One input: its path, where its outputs go ("OUTDIR/rel/dir/FILE", to
// which each output adds its ending), its label (the path relative to the
// folder given) and, when its outputs would replace a file, why it is
// refused.
struct BatchJob {
  std::string input;
  std::string out_base;
  std::string label;
  uint64_t bytes = 0;
  std::string refused;
};

// Adds `p`, found under the PATH `root` ("" for a file named on the command
// line), unless it is one of flamebatch's own outputs.
void AddJob(const BatchConfig& config, const OutputList& outputs,
            const fs::path& p, const fs::path& root, uint64_t bytes,
            std::vector<BatchJob>* jobs) {
  if (outputs.Has(p)) return;
  fs::path rel = root.empty() ? p.filename() : p.lexically_relative(root);
  fs::path base = (fs::path(config.outdir) / rel).lexically_normal();
  jobs->push_back({p.lexically_normal().string(), base.string(), rel.string(),
                   bytes, ""});
}

// Expands files and folders (recursively, passing over hidden entries and
// flamebatch's outputs, as the lists in and above them say) into jobs, each
// folder's sorted, each file once. Sets *err for a PATH that does not exist
// or cannot be read.
bool CollectJobs(const BatchConfig& config, OutputList* outputs,
                 std::vector<BatchJob>* jobs, std::string* err) {
  std::error_code ec;
  for (const std::string& path : config.paths) {
    fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
      *err = path + ": " + (ec ? ec.message() : "No such file or directory");
      return false;
    }
    bool dir = fs::is_directory(st);
    fs::path folder = dir ? fs::path(path) : fs::path(path).parent_path();
    outputs->ReadAbove(folder.empty() ? fs::path(".") : folder);
    if (!dir) {
      AddJob(config, *outputs, path, "",
             static_cast<uint64_t>(fs::file_size(path, ec)), jobs);
      continue;
    }
    std::vector<BatchJob> found;
    auto it = fs::recursive_directory_iterator(
        path, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (Hidden(it->path())) {
        if (it->is_directory()) it.disable_recursion_pending();
        continue;
      }
      if (it->is_directory()) outputs->Read(it->path());
      if (it->is_regular_file() && !PerfArchiveOfNeighbour(it->path())) {
        AddJob(config, *outputs, it->path(), path,
               static_cast<uint64_t>(it->file_size()), &found);
      }
    }
    if (ec) {
      *err = path + ": " + ec.message();
      return false;
    }
    std::sort(found.begin(), found.end(),
              [](const BatchJob& a, const BatchJob& b) { return a.input < b.input; });
    jobs->insert(jobs->end(), found.begin(), found.end());
  }
  std::set<std::string> seen;  // a file named twice is converted once
  std::erase_if(*jobs, [&](const BatchJob& j) { return !seen.insert(Key(j.input)).second; });
  return true;
}

// Refuses the inputs whose outputs would replace a file flamebatch did not
// write (another input, say) or the outputs of another input (two PATHs
// with the same file names, both converted into OUTDIR).
void RefuseCollisions(const BatchConfig& config, const OutputList& outputs,
                      std::vector<BatchJob>* jobs) {
  std::map<std::string, size_t> first;
  for (size_t i = 0; i < jobs->size(); ++i) {
    BatchJob& job = (*jobs)[i];
    auto [at, fresh] = first.emplace(Key(job.out_base), i);
    if (!fresh) {
      BatchJob& other = (*jobs)[at->second];
      for (BatchJob* j : {&job, &other}) {
        const BatchJob& o = j == &job ? other : job;
        j->refused = "its outputs (" + j->out_base + ".*) would be those of " +
                     o.input + " as well: convert them into separate folders (-o)";
      }
      continue;
    }
    for (int k = 0; k < 3 && job.refused.empty(); ++k) {
      std::string out = job.out_base + kExts[k];
      std::error_code ec;
      if (Wanted(config, k) && fs::exists(fs::symlink_status(out, ec)) &&
          !outputs.Has(out)) {
        job.refused = "its output " + out +
                      " would replace a file flamebatch did not write: move "
                      "that file, or convert into another folder (-o)";
      }
    }
  }
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
  for (int k = 0; k < 3; ++k) {
    if (!Wanted(config, k)) continue;
    if (stat((job.out_base + kExts[k]).c_str(), &out) != 0) return false;
    if (out.st_mtim.tv_sec < in.st_mtim.tv_sec ||
        (out.st_mtim.tv_sec == in.st_mtim.tv_sec &&
         out.st_mtim.tv_nsec < in.st_mtim.tv_nsec)) {
      return false;
    }
  }
  return true;
}

enum class Content { kProfile, kNotProfile, kUnreadable };

// Whether `path` holds a profile, as every tool's detector of input kinds
// (collapse/input_kind.h) tells: perf.data, perf script output or folded
// stacks. Anything else (empty, binary, prose) is kNotProfile, with *why
// saying what it is. A file that cannot be read or decoded (a cut gzip
// stream) is kUnreadable, with *why the error.
Content Classify(const std::string& path, std::string* why) {
  Input in;
  if (!OpenInput(path, &in, why)) return Content::kUnreadable;
  if (in.kind == ContentKind::kEmpty) {
    *why = "an empty file";
    return Content::kNotProfile;
  }
  if (in.kind == ContentKind::kNeither) {
    *why = in.binary ? "binary data"
                     : "text, but neither perf script output nor folded stacks";
    return Content::kNotProfile;
  }
  return Content::kProfile;
}

enum class Outcome { kConverted, kSkipped, kPassedOver, kFailed };
constexpr const char* kOutcomeNames[] = {"converted", "up to date",
                                         "passed over", "failed"};

// Where output k is written first: hidden (so a later scan passes it over),
// beside the output, unique to this process and worker slot.
std::string TempName(const BatchJob& job, int k, int slot) {
  fs::path out(job.out_base + kExts[k]);
  std::string name = "." + out.filename().string() + ".tmp." +
                     std::to_string(getpid()) + "." + std::to_string(slot);
  return (out.parent_path() / name).string();
}

// Writes the temporary outputs: the fold into tmp[0]; from it the SVG and
// the report.
int WriteTemps(const BatchConfig& config, const BatchJob& job,
               const std::string (&tmp)[3], const Diag& diag) {
  FoldConfig fold = config.fold;
  fold.inputs = {job.input};
  int status = WriteFile(tmp[0], [&](OutputSink* out) {
    PerfDataFolder recordings(fold.symbols, fold.archive, fold.stats, diag);
    return RunFold(fold, &recordings, out, diag);
  }, diag);
  if (status == kExitOk && config.svg) {
    FlameSvgConfig sc = config.svg_config;
    sc.inputs = {tmp[0]};
    sc.quiet = config.quiet;
    if (sc.graph.title.empty()) sc.graph.title = job.label;
    status = WriteFile(tmp[1], [&](OutputSink* out) {
      return RunFlameSvg(sc, out, diag);
    }, diag);
  }
  if (status == kExitOk && config.report) {
    ReportConfig rc;
    rc.fold.perf.limits = config.svg_config.limits;
    rc.fold.max_line = rc.fold.perf.limits.LineLimit(rc.fold.max_line);
    rc.fold.quiet = config.quiet;
    rc.inputs = {tmp[0]};
    rc.quiet = config.quiet;
    status = WriteFile(tmp[2], [&](OutputSink* out) {
      return RunReport(rc, out, diag);
    }, diag);
  }
  return status;
}

// Lists each wanted output as flamebatch's, then renames it into place.
int PlaceOutputs(const BatchConfig& config, const BatchJob& job,
                 const std::string (&tmp)[3], OutputList* outputs,
                 const Diag& diag) {
  int status = kExitOk;
  for (int k = 0; k < 3; ++k) {
    if (!Wanted(config, k)) continue;
    std::string out = job.out_base + kExts[k], err;
    if (!outputs->Add(out, &err)) {
      diag.Error(err);
      status = kExitDataError;
    } else if (std::rename(tmp[k].c_str(), out.c_str()) != 0) {
      diag.Error(out + ": " + std::strerror(errno));
      status = kExitDataError;
    }
  }
  return status;
}

// Converts one input, unless refused, up to date or not a profile. Each
// output is written under a temporary name and renamed when all are whole.
Outcome Convert(const BatchConfig& config, const BatchJob& job, int slot,
                OutputList* outputs) {
  Diag diag("flamebatch");
  diag.set_quiet(config.quiet);
  diag.set_context(job.input);
  if (!job.refused.empty()) {
    diag.Error(job.refused);
    return Outcome::kFailed;
  }
  if (UpToDate(config, job)) return Outcome::kSkipped;
  std::string why;
  switch (Classify(job.input, &why)) {
    case Content::kProfile: break;
    case Content::kNotProfile:
      diag.Warning("not a profile (" + why + "): passed over");
      return Outcome::kPassedOver;
    case Content::kUnreadable:
      diag.Error(why);
      return Outcome::kFailed;
  }
  std::error_code ec;
  fs::path dir = fs::path(job.out_base).parent_path();
  if (!dir.empty()) fs::create_directories(dir, ec);
  if (ec) {
    diag.Error(dir.string() + ": " + ec.message());
    return Outcome::kFailed;
  }
  std::string tmp[3];
  for (int k = 0; k < 3; ++k) SetTemp(slot, k, tmp[k] = TempName(job, k, slot));
  g_slot_used[slot] = 1;
  int status = WriteTemps(config, job, tmp, diag);
  if (status == kExitOk) status = PlaceOutputs(config, job, tmp, outputs, diag);
  for (const std::string& t : tmp) unlink(t.c_str());
  g_slot_used[slot] = 0;
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
      std::fprintf(stderr, "flamebatch: [%zu/%zu] %s: %s\n", done_, total_,
                   kOutcomeNames[static_cast<int>(outcome)], job.label.c_str());
    }
  }

 private:
  size_t total_, done_ = 0;
  uint64_t total_bytes_, bytes_ = 0;
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

int RunBatch(const BatchConfig& config, const Diag& diag) {
  OutputList outputs(config.outdir);
  std::vector<BatchJob> jobs;
  std::string err;
  if (!CollectJobs(config, &outputs, &jobs, &err)) {
    diag.Error(err);
    return kExitDataError;
  }
  if (jobs.empty()) {
    std::string paths;
    for (const std::string& p : config.paths) paths += (paths.empty() ? "" : ", ") + p;
    diag.Warning("no file to convert in " + paths +
                 " (hidden files and flamebatch's own outputs are passed over)");
  }
  RefuseCollisions(config, outputs, &jobs);
  std::signal(SIGINT, RemoveTempsAndDie);
  std::signal(SIGTERM, RemoveTempsAndDie);
  std::signal(SIGPIPE, SIG_IGN);
  uint64_t total_bytes = 0;
  for (const BatchJob& j : jobs) total_bytes += j.bytes;
  Progress progress(jobs.size(), total_bytes, config.quiet);
  std::mutex mu;
  std::atomic<size_t> next{0};
  size_t counts[4] = {};  // by Outcome
  auto work = [&](int slot) {
    for (size_t i; (i = next++) < jobs.size();) {
      Outcome o = Convert(config, jobs[i], slot, &outputs);
      std::lock_guard<std::mutex> lock(mu);
      ++counts[static_cast<int>(o)];
      progress.Done(jobs[i], o);
    }
  };
  int n = std::clamp(config.jobs, 1, kMaxSlots);
  std::vector<std::thread> threads;
  for (int s = 1; s < n; ++s) threads.emplace_back(work, s);
  work(0);
  for (std::thread& t : threads) t.join();
  std::fprintf(stderr, "flamebatch: %zu converted, %zu up to date, %zu passed over, %zu failed\n",
               counts[0], counts[1], counts[2], counts[3]);
  return counts[3] > 0 ? kExitDataError : kExitOk;
}

}  // namespace flamefold
