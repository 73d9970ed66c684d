/* A toy JIT: copies a counting loop into an executable page, calls it, and
 * writes /tmp/perf-PID.map so that perf script names the JIT frame the way
 * a real JIT (a JVM with perf-map-agent, node --perf-basic-prof) does.
 * Profiled by the commands in testdata/README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef long (*LoopFn)(long);

/* x86-64: push rbp; mov rbp,rsp; mov rax,rdi; 1: dec rax; jnz 1b; pop rbp; ret
 * (keeps a frame pointer so the frame-pointer unwinder finds the caller). */
static const unsigned char kLoopCode[] = {0x55, 0x48, 0x89, 0xe5, 0x48, 0x89, 0xf8, 0x48,
                                          0xff, 0xc8, 0x75, 0xfb, 0x5d, 0xc3};

static LoopFn Compile(const char* name) {
  void* page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
                    -1, 0);
  if (page == MAP_FAILED) exit(1);
  memcpy(page, kLoopCode, sizeof kLoopCode);
  char path[64];
  snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
  FILE* map = fopen(path, "a");
  if (!map) exit(1);
  fprintf(map, "%lx %zx %s\n", (unsigned long)page, sizeof kLoopCode, name);
  fclose(map);
  return (LoopFn)page;
}

static long __attribute__((noinline)) RunJitted(LoopFn fn, long n) { return fn(n) + 1; }

static long __attribute__((noinline)) Interpret(long n) {
  volatile long x = n;
  while (x > 0) x = x - 1;
  return x;
}

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000000;
  LoopFn hot = Compile("LJavaHot;::spin");
  LoopFn cold = Compile("Interpreter::jitted_loop(long)");
  long r = RunJitted(hot, n) + RunJitted(cold, n / 2) + Interpret(n / 4);
  printf("%ld\n", r);
  return 0;
}
