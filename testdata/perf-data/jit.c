/* Runs generated machine code from an anonymous executable mapping and
   describes it in /tmp/perf-PID.map, as a JIT compiler would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* x86-64: mov rax, rdi; 1: dec rax; jnz 1b; ret */
static const unsigned char kSpin[] = {0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8,
                                      0x75, 0xfb, 0xc3};

__attribute__((noinline)) void run_jit(void (*f)(long), long n) { f(n); }

int main(int argc, char** argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 40;
  unsigned char* code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (code == MAP_FAILED) return 1;
  memcpy(code, kSpin, sizeof kSpin);
  memcpy(code + 64, kSpin, sizeof kSpin);
  char path[64];
  snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
  FILE* map = fopen(path, "w");
  fprintf(map, "%lx %zx Interpreter::spin_fast\n", (unsigned long)code,
          sizeof kSpin);
  fprintf(map, "%lx %zx LambdaForm$MH/0x123::invoke(Object)\n",
          (unsigned long)(code + 64), sizeof kSpin);
  fclose(map);
  for (long r = 0; r < rounds; ++r) {
    run_jit((void (*)(long))code, 3000000);
    run_jit((void (*)(long))(code + 64), 1500000);
  }
  return 0;
}
