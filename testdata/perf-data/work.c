/* A small CPU-bound program for perf.data golden tests: a few functions
   with frame pointers, some system calls for kernel stacks. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) long leaf_add(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i) s += i ^ (s >> 3);
  sink += s;
  return s;
}

__attribute__((noinline)) long leaf_mul(long n) {
  long s = 1;
  for (long i = 1; i < n; ++i) s = s * 3 + i;
  sink += s;
  return s;
}

__attribute__((noinline)) long middle(long n) {
  return leaf_add(n) + leaf_mul(n / 2);
}

__attribute__((noinline)) void do_syscalls(int n) {
  int fd = open("/dev/null", O_WRONLY);
  char buf[512] = {0};
  for (int i = 0; i < n; ++i) sink += write(fd, buf, sizeof buf) + getppid();
  close(fd);
}

__attribute__((noinline)) long top(long rounds, int syscalls) {
  long t = 0;
  for (long r = 0; r < rounds; ++r) {
    t += middle(200000);
    t += leaf_mul(100000);
    if (syscalls) do_syscalls(2000);
  }
  return t;
}

int main(int argc, char** argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 400;
  int syscalls = argc > 2 ? atoi(argv[2]) : 0;
  sink = top(rounds, syscalls);
  return 0;
}
