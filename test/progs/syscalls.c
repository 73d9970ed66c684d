/* A kernel-heavy program: many small write(2) and read(2) calls through a
 * pipe and on /dev/null, so that sampled stacks run deep into the kernel.
 * Profiled by the commands in testdata/README.md. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void __attribute__((noinline)) PingPong(int fds[2], long rounds) {
  char byte = 'x';
  for (long i = 0; i < rounds; ++i) {
    if (write(fds[1], &byte, 1) != 1 || read(fds[0], &byte, 1) != 1) exit(1);
  }
}

static void __attribute__((noinline)) WriteNull(long rounds) {
  int fd = open("/dev/null", O_WRONLY);
  char buf[16] = {0};
  if (fd < 0) exit(1);
  for (long i = 0; i < rounds; ++i) {
    if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) exit(1);
  }
  close(fd);
}

int main(int argc, char** argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 300000;
  int fds[2];
  if (pipe(fds) != 0) return 1;
  PingPong(fds, rounds);
  WriteNull(rounds * 2);
  printf("done %ld\n", rounds);
  return 0;
}
