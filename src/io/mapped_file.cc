#include "io/mapped_file.h"

#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <algorithm>
#include <cstring>
#include <mutex>

namespace flamefold {
namespace {

// The files mapped now, for the SIGBUS handler: a fixed table of atomics,
// which a signal handler may read (it may not take a lock).
struct GuardSlot {
  std::atomic<uintptr_t> begin{0};  // 0: free
  std::atomic<uintptr_t> end{0};
  std::atomic<const char*> message{nullptr};
  std::atomic<size_t> length{0};
};
constexpr int kGuardSlots = 32;
GuardSlot g_slots[kGuardSlots];
std::mutex g_slots_mu;  // taken to claim and free slots, never by the handler
struct sigaction g_previous;

// A SIGBUS in a mapped file's range: the file shrank under it. Anything
// else goes to the action there was before.
void OnSigbus(int sig, siginfo_t* info, void* context) {
  const auto at = reinterpret_cast<uintptr_t>(info->si_addr);
  for (GuardSlot& s : g_slots) {
    const uintptr_t begin = s.begin.load(std::memory_order_acquire);
    if (begin != 0 && at >= begin && at < s.end.load()) {
      const char* m = s.message.load();
      ssize_t ignored = write(2, m, s.length.load());
      (void)ignored;
      _exit(1);
    }
  }
  sigaction(SIGBUS, &g_previous, nullptr);
  if (info->si_code <= 0) {  // sent by a process: send it again
    raise(sig);
  } else if ((g_previous.sa_flags & SA_SIGINFO) != 0 &&
             g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(sig, info, context);
  }
  // Else the faulting access runs again, under the previous action.
}

// Claims a slot for [begin, end) and installs the handler (once); -1 when
// every slot is taken.
int ClaimGuard(uintptr_t begin, uintptr_t end, const std::string* message) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = OnSigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, &g_previous);
  });
  std::lock_guard<std::mutex> lock(g_slots_mu);
  for (int i = 0; i < kGuardSlots; ++i) {
    GuardSlot& s = g_slots[i];
    if (s.begin.load() != 0) continue;
    s.end.store(end);
    s.message.store(message->data());
    s.length.store(message->size());
    s.begin.store(begin, std::memory_order_release);
    return i;
  }
  return -1;
}

void FreeGuard(int slot) {
  std::lock_guard<std::mutex> lock(g_slots_mu);
  g_slots[slot].begin.store(0, std::memory_order_release);
}

size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

std::unique_ptr<MappedFile> MappedFile::Map(int fd, int64_t offset,
                                            size_t min_bytes,
                                            const std::string& name) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || offset < 0 ||
      st.st_size < offset ||
      static_cast<uint64_t>(st.st_size - offset) < min_bytes) {
    return nullptr;
  }
  const size_t page = PageSize();
  const int64_t start = offset - offset % static_cast<int64_t>(page);
  const size_t map_size = static_cast<size_t>(st.st_size - start);
  void* map = mmap(nullptr, map_size, PROT_READ, MAP_PRIVATE, fd, start);
  if (map == MAP_FAILED) return nullptr;
  std::unique_ptr<MappedFile> f(new MappedFile);
  f->fd_ = fd;
  f->map_ = static_cast<char*>(map);
  f->map_size_ = map_size;
  f->data_ = f->map_ + (offset - start);
  f->size_ = static_cast<size_t>(st.st_size - offset);
  f->end_offset_ = st.st_size;
  f->shrank_message_ = std::string(program_invocation_short_name) +
                       ": error: " + name +
                       ": the file shrank while it was read\n";
  const auto begin = reinterpret_cast<uintptr_t>(f->map_);
  f->guard_slot_ = ClaimGuard(begin, begin + map_size, &f->shrank_message_);
  if (f->guard_slot_ < 0) return nullptr;  // the destructor unmaps
  madvise(f->map_, map_size, MADV_SEQUENTIAL);
  return f;
}

MappedFile::~MappedFile() {
  if (guard_slot_ >= 0) FreeGuard(guard_slot_);
  if (map_ != nullptr) munmap(map_, map_size_);
}

void MappedFile::Prefetch(size_t end) {
#if defined(MADV_POPULATE_READ)
  const size_t page = PageSize();
  size_t to = std::min(map_size_, static_cast<size_t>(data_ - map_) + end);
  to = to - to % page;
  if (to <= prefetched_) return;
  const size_t from = std::max(prefetched_, released_);
  if (to > from) madvise(map_ + from, to - from, MADV_POPULATE_READ);
  prefetched_ = to;
#else
  (void)end;
#endif
}

void MappedFile::Release(size_t end) {
  const size_t page = PageSize();
  size_t to = std::min(map_size_, static_cast<size_t>(data_ - map_) + end);
  to = to - to % page;
  if (to <= released_) return;
  madvise(map_ + released_, to - released_, MADV_DONTNEED);
  released_ = to;
}

void ForEachLineWindow(MappedFile* map, size_t window, size_t* pos,
                       const std::function<bool(std::string_view)>& lines) {
  const std::string_view all = map->bytes();
  while (all.size() - *pos > window) {
    map->Prefetch(*pos + 2 * window);
    const size_t end = all.rfind('\n', *pos + window - 1);
    if (end == std::string_view::npos || end < *pos) return;  // a long line
    const size_t from = *pos;
    *pos = end + 1;
    if (!lines(all.substr(from, end + 1 - from))) return;
    map->Release(*pos);
  }
}

bool MappedFileSource::Read(char* buf, size_t cap, size_t* got,
                            std::string* err) {
  for (;;) {
    ssize_t n = pread(fd_, buf, cap, offset_);
    if (n >= 0) {
      *got = static_cast<size_t>(n);
      offset_ += n;
      return true;
    }
    if (errno == EINTR) continue;
    *err = std::strerror(errno);
    return false;
  }
}

}  // namespace flamefold
