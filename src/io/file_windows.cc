#include "io/file_windows.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

namespace flamefold {
namespace {

// The windows mapped now, for the SIGBUS handler: a slot per open
// FileWindows, [begin, end) of its current window (0, 0 between windows).
// Slots are claimed with a compare-and-swap on `taken`, so the handler reads
// them without a lock.
constexpr int kSlots = 64;
struct Slot {
  std::atomic<bool> taken{false};
  std::atomic<uintptr_t> begin{0}, end{0};
};
Slot g_slots[kSlots];
struct sigaction g_previous;

int ClaimSlot() {
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (g_slots[i].taken.compare_exchange_strong(expected, true)) return i;
  }
  return -1;
}

bool InWindow(uintptr_t addr) {
  for (const Slot& s : g_slots) {
    if (addr >= s.begin.load(std::memory_order_relaxed) &&
        addr < s.end.load(std::memory_order_relaxed)) {
      return true;
    }
  }
  return false;
}

void WriteAll(const char* s) {
  size_t n = std::strlen(s);
  while (n > 0) {
    ssize_t w = write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<size_t>(w);
  }
}

// Async-signal-safe: atomics, write and _exit only.
void OnSigbus(int sig, siginfo_t* info, void* context) {
  if (InWindow(reinterpret_cast<uintptr_t>(info->si_addr))) {
    WriteAll(program_invocation_short_name);
    WriteAll(": error: an input file got shorter while it was being read\n");
    _exit(1);
  }
  if (g_previous.sa_flags & SA_SIGINFO) {
    g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL &&
             g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
  } else {
    // Returning faults again, now with the default action.
    signal(SIGBUS, SIG_DFL);
  }
}

void InstallHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = OnSigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &g_previous);
  });
}

}  // namespace

std::unique_ptr<FileWindows> FileWindows::Open(int fd, size_t window) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    return nullptr;  // a pipe; or /proc's files, whose size says nothing
  }
  off_t offset = lseek(fd, 0, SEEK_CUR);
  if (offset < 0) return nullptr;
  // Some file systems cannot map files: they are read instead.
  void* probe = mmap(nullptr, 1, PROT_READ, MAP_PRIVATE, fd, 0);
  if (probe == MAP_FAILED) return nullptr;
  munmap(probe, 1);
  int slot = ClaimSlot();
  if (slot < 0) return nullptr;
  InstallHandler();
  return std::unique_ptr<FileWindows>(
      new FileWindows(fd, static_cast<uint64_t>(offset), window, slot));
}

FileWindows::FileWindows(int fd, uint64_t offset, size_t window, int slot)
    : fd_(fd), offset_(offset), window_(window), slot_(slot) {}

FileWindows::~FileWindows() {
  Unmap();
  g_slots[slot_].taken.store(false);
}

void FileWindows::Unmap() {
  if (map_ == nullptr) return;
  g_slots[slot_].begin.store(0);
  g_slots[slot_].end.store(0);
  munmap(map_, map_bytes_);
  map_ = nullptr;
}

bool FileWindows::Next(std::string_view* view, std::string* err) {
  Unmap();
  // The size is asked again for each window (a syscall per 4 MiB): a file
  // that grew is read on, and one cut short ends where it now ends rather
  // than faulting.
  struct stat st;
  if (fstat(fd_, &st) != 0) {
    *err = std::strerror(errno);
    return false;
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (offset_ >= size) {
    *view = {};
    return true;
  }
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t start = offset_ / page * page;
  const uint64_t end = std::min<uint64_t>(offset_ + window_, size);
  map_bytes_ = end - start;
  void* map = mmap(nullptr, map_bytes_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd_,
                   static_cast<off_t>(start));
  if (map == MAP_FAILED) {
    *err = std::strerror(errno);
    return false;
  }
  map_ = map;
  const uintptr_t at = reinterpret_cast<uintptr_t>(map_);
  g_slots[slot_].begin.store(at);
  g_slots[slot_].end.store(at + map_bytes_);
  *view = std::string_view(static_cast<const char*>(map_) + (offset_ - start),
                           end - offset_);
  offset_ = end;
  return true;
}

}  // namespace flamefold
