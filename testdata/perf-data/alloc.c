/* Allocations of known sizes on known paths, for the --weight golden tests.
   "alloc malloc N": N rounds of malloc calls of 24, 1000 and 40000 bytes
   from three functions (a uprobe on libc's malloc records their sizes).
   "alloc kernel N": N rounds of system calls that make the kernel allocate
   (pipes, a /proc file read through its seq_file buffer). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *volatile keep;

__attribute__((noinline)) void small_allocs(void) {
  for (int i = 0; i < 3; ++i) {
    char *p = malloc(24);
    memset(p, i, 24);
    keep = p;
    free(p);
  }
}

__attribute__((noinline)) void medium_alloc(void) {
  char *p = malloc(1000);
  memset(p, 1, 1000);
  keep = p;
  free(p);
}

__attribute__((noinline)) void large_alloc(void) {
  char *p = malloc(40000);
  memset(p, 2, 40000);
  keep = p;
  free(p);
}

__attribute__((noinline)) void malloc_round(void) {
  small_allocs();
  medium_alloc();
  large_alloc();
}

__attribute__((noinline)) void make_pipe(void) {
  int fds[2];
  if (pipe(fds) == 0) {
    close(fds[0]);
    close(fds[1]);
  }
}

__attribute__((noinline)) void read_proc(void) {
  char buf[256];
  int fd = open("/proc/self/stat", O_RDONLY);
  if (fd < 0) return;
  keep = (void *)(long)read(fd, buf, sizeof buf);
  close(fd);
}

__attribute__((noinline)) void kernel_round(void) {
  make_pipe();
  read_proc();
}

int main(int argc, char **argv) {
  int rounds = argc > 2 ? atoi(argv[2]) : 10;
  int kernel = argc > 1 && strcmp(argv[1], "kernel") == 0;
  for (int i = 0; i < rounds; ++i) {
    if (kernel) {
      kernel_round();
    } else {
      malloc_round();
    }
  }
  return 0;
}
