#include "perfdata/perf_data_folder.h"

#include <cstdio>

#include "perfdata/perf_archive.h"

namespace flamefold {

PerfDataFolder::PerfDataFolder(const SymbolOptions& symbols,
                               std::string archive, bool print_stats,
                               const Diag& diag)
    : symbols_(symbols), archive_(std::move(archive)),
      print_stats_(print_stats), diag_(diag) {}

// A regular file read as it is (not compressed, not a pipe, not a buffer)
// is mapped rather than read: the replay asks the source (ByteSource::InFile).
bool PerfDataFolder::Fold(const std::string& file, Input* in,
                          RecordingFold* into, std::string* err) {
  recordings_.emplace_back(file, PerfDataStats());
  PerfArchive archive;
  SymbolOptions symbols = symbols_;
  if (!UsePerfArchive(archive_, file, diag_, &archive, &symbols, err)) {
    return false;
  }
  PerfDataStats& stats = recordings_.back().second;
  bool ok = FoldPerfData(file, in->source.get(), symbols, into, &stats, err);
  WarnAboutPerfData(file, stats, diag_);
  if (print_stats_) PrintStats(file, stats);
  return ok;
}

void PerfDataFolder::PrintStats(const std::string& file,
                                const PerfDataStats& stats) const {
  const char* tool = diag_.tool().c_str();
  std::fprintf(stderr,
               "%s: stats: %s: perf.data recorded on %s by perf %s: %s\n"
               "%s: stats: %s: %llu records, %llu samples "
               "(%llu in guest mode skipped)\n",
               tool, file.c_str(),
               stats.hostname.empty() ? "?" : stats.hostname.c_str(),
               stats.perf_version.empty() ? "?" : stats.perf_version.c_str(),
               stats.cmdline.empty() ? "?" : stats.cmdline.c_str(), tool,
               file.c_str(), (unsigned long long)stats.records,
               (unsigned long long)stats.samples,
               (unsigned long long)stats.samples_skipped);
  if (stats.unwound > 0) {
    std::fprintf(stderr, "%s: stats: %s: %s\n", tool, file.c_str(),
                 UnwindStopSummary(stats).c_str());
  }
}

}  // namespace flamefold
