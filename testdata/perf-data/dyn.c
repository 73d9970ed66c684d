/* A dynamically linked C program for the perf.data goldens: its time goes
   through libc and back (qsort calls our comparison), into libc's string
   functions, and into the kernel (write to /dev/null). Built without frame
   pointers for DWARF unwinding, with them for frame-pointer call graphs. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) static int by_value(const void* a, const void* b) {
  unsigned x = *(const unsigned*)a, y = *(const unsigned*)b;
  return (x > y) - (x < y);
}

__attribute__((noinline)) static void sort_round(unsigned* v, size_t n,
                                                 unsigned seed) {
  for (size_t i = 0; i < n; ++i) v[i] = (unsigned)(i * 2654435761u) ^ seed;
  qsort(v, n, sizeof *v, by_value);
  sink += v[n / 2];
}

__attribute__((noinline)) static void text_round(char* buf, size_t n) {
  for (size_t i = 0; i + 1 < n; ++i) buf[i] = (char)('a' + i % 26);
  buf[n - 1] = '\0';
  char* copy = strdup(buf);
  sink += (long)strlen(copy) + (strstr(copy, "zzz") != NULL);
  free(copy);
}

__attribute__((noinline)) static void io_round(int fd, const char* buf) {
  for (int i = 0; i < 200; ++i) sink += write(fd, buf, 256);
}

int main(int argc, char** argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 100;
  size_t n = 20000;
  unsigned* v = malloc(n * sizeof *v);
  char* buf = malloc(65536);
  int fd = open("/dev/null", O_WRONLY);
  for (int r = 0; r < rounds; ++r) {
    sort_round(v, n, (unsigned)r);
    text_round(buf, 65536);
    io_round(fd, buf);
  }
  printf("%ld\n", sink);
  free(v);
  free(buf);
  return 0;
}
