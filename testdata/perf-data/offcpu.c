/* Blocks in named functions for known times, for the off-CPU golden tests.
   On the main thread, one after the other:
     sleep_a      5 x nanosleep of 20 ms;
     write_later  a thread is started that blocks in read_pipe (a read of an
                  empty pipe); write_later sleeps 60 ms, then writes a byte;
     hold_lock    holds a mutex and sleeps 80 ms while a thread it started
                  blocks in lock_wait (pthread_mutex_lock of that mutex);
     burn         about 20 ms of CPU work.
   The calls that block go through blocked_call (noinline) so that a
   frame-pointer unwind, which loses the caller of a libc function that
   makes no frame, still finds the named function above it; the empty asm
   after each such call keeps it from becoming a jump (a tail call), which
   would take the named function off the stack.
   Prints, per named function, the milliseconds it measured itself spending
   in its blocking calls (CLOCK_MONOTONIC around each call) and the time
   that the program's design makes it block, e.g.
     sleep_a 100.412 ms (100 ms asked) */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

enum { SLEEP_A, READ_PIPE, WRITE_LATER, LOCK_WAIT, HOLD_LOCK, NAMED };
static const char *const names[NAMED] = {"sleep_a", "read_pipe",
                                         "write_later", "lock_wait",
                                         "hold_lock"};
/* read_pipe waits for write_later's sleep, lock_wait for hold_lock's. */
static const int asked_ms[NAMED] = {5 * 20, 60, 60, 80, 80};
static double blocked_ms[NAMED];
static int pipe_fds[2];
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long spin_sink;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

enum call { NAP, READ_BYTE, LOCK };

/* Makes one blocking call and adds the time it took to blocked_ms[who]. */
__attribute__((noinline)) static void blocked_call(int who, enum call what,
                                                   int ms) {
  double start = now_ms();
  if (what == NAP) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
  } else if (what == READ_BYTE) {
    char c;
    if (read(pipe_fds[0], &c, 1) != 1) perror("read");
  } else {
    pthread_mutex_lock(&held);
  }
  blocked_ms[who] += now_ms() - start;
}

__attribute__((noinline)) void sleep_a(void) {
  for (int i = 0; i < 5; ++i)
    blocked_call(SLEEP_A, NAP, asked_ms[SLEEP_A] / 5);
}

__attribute__((noinline)) void read_pipe(void) {
  blocked_call(READ_PIPE, READ_BYTE, 0);
  __asm__ volatile("");
}

__attribute__((noinline)) void write_later(void) {
  blocked_call(WRITE_LATER, NAP, asked_ms[WRITE_LATER]);
  if (write(pipe_fds[1], "x", 1) != 1) perror("write");
}

__attribute__((noinline)) void lock_wait(void) {
  blocked_call(LOCK_WAIT, LOCK, 0);
  pthread_mutex_unlock(&held);
}

__attribute__((noinline)) void hold_lock(void) {
  blocked_call(HOLD_LOCK, NAP, asked_ms[HOLD_LOCK]);
  __asm__ volatile("");
}

/* A thread's start: it runs one of the named functions. */
struct job {
  void (*run)(void);
};
static void *run_job(void *job) {
  ((struct job *)job)->run();
  return NULL;
}

__attribute__((noinline)) void burn(void) {
  double end = now_ms() + 20;
  while (now_ms() < end)
    for (int i = 0; i < 10000; ++i) spin_sink += (unsigned long)i * i;
}

int main(void) {
  pthread_t t;
  struct job reading = {read_pipe}, waiting = {lock_wait};
  if (pipe(pipe_fds) != 0) return 1;
  sleep_a();
  pthread_create(&t, NULL, run_job, &reading);
  write_later();
  pthread_join(t, NULL);
  pthread_mutex_lock(&held);
  pthread_create(&t, NULL, run_job, &waiting);
  hold_lock();
  pthread_mutex_unlock(&held);
  pthread_join(t, NULL);
  burn();
  for (int i = 0; i < NAMED; ++i)
    printf("%s %.3f ms (%d ms asked)\n", names[i], blocked_ms[i],
           asked_ms[i]);
  return 0;
}
