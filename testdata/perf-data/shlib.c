/* The program of the "dwarf-shlib" golden case (see
   testdata/perf-data/record.sh): a call through a shared library and back,
   built -O2 -g without frame pointers. It uses no libc, so that the
   recording needs only this program and libtiny.so to be unwound: _start
   is its own and marks the end of the stack in its CFI. */
unsigned long tiny_hash(const unsigned char* p, unsigned long n);
unsigned long tiny_apply(unsigned long (*fn)(unsigned long), unsigned long n);

static volatile unsigned long sink;
static unsigned char buffer[4096];

__attribute__((noinline)) static unsigned long step(unsigned long x) {
  for (int i = 0; i < 40; ++i) x = x * 6364136223846793005UL + 1442695040888963407UL;
  return x >> 7;
}

__attribute__((noinline)) static unsigned long rounds(long n) {
  unsigned long s = 0;
  for (long r = 0; r < n; ++r) {
    s += tiny_apply(step, 2000);
    buffer[r % sizeof buffer] = (unsigned char)s;
    s += tiny_hash(buffer, sizeof buffer);
  }
  return s;
}

static long parse(const char* s) {
  long v = 0;
  while (s && *s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
  return v;
}

__attribute__((used, noreturn)) void start_c(long* sp) {
  long argc = sp[0];
  const char** argv = (const char**)(sp + 1);
  sink = rounds(argc > 1 ? parse(argv[1]) : 100);
  __asm__ volatile("mov $60, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::: "memory");
  __builtin_unreachable();
}

__asm__(".text\n.globl _start\n.type _start,@function\n_start:\n"
        ".cfi_startproc\n.cfi_undefined rip\n"
        "xor %ebp, %ebp\nmov %rsp, %rdi\nand $-16, %rsp\ncall start_c\nhlt\n"
        ".cfi_endproc\n.size _start, .-_start\n");
