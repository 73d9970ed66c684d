// Recorded with --call-graph dwarf (testdata/README.md, record.sh dframe):
// _start and run() have .eh_frame (behind .eh_frame_hdr); leaf() and mid(),
// from dframe-nocfi.c, only .debug_frame, which perf 6.1 as Debian builds
// it does not read: their frames end the walk or go on by libunwind's
// frame-pointer guess.
long mid(long x);
static long now(void) {
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(201L), "D"(0L) : "rcx", "r11", "memory");
  return r;
}
__attribute__((noinline)) long run(void) {
  long t0 = now(), s = 0;
  while (now() - t0 < 2) {
    for (long i = 0; i < 1000; i++) s += mid(i);
  }
  return s;
}
void _start(void) {
  long s = run();
  __asm__ volatile("syscall" : : "a"(231L), "D"(s & 1) : "rcx", "r11", "memory");
  __builtin_unreachable();
}
