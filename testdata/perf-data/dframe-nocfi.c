// Built without unwind tables: its CFI is in .debug_frame alone (see
// dframe.c).
__attribute__((noinline)) long leaf(long x) {
  long s = 0;
  for (int i = 0; i < 1000; i++) s += (x * i) ^ (s >> 3);
  return s;
}
__attribute__((noinline)) long mid(long x) { return leaf(x) + leaf(x + 1); }
