/* libtiny.so: the shared library of the "dwarf-shlib" golden case (see
   testdata/perf-data/record.sh). Built -O2 -g without frame pointers and
   without libc: it hashes a buffer and calls back into the program. */
typedef unsigned long (*tiny_step)(unsigned long);

static inline unsigned long rotl(unsigned long x, int r) {
  return (x << r) | (x >> (64 - r));
}

__attribute__((noinline)) unsigned long tiny_hash(const unsigned char* p,
                                                  unsigned long n) {
  unsigned long h = 1469598103934665603UL;
  for (unsigned long i = 0; i < n; ++i) h = rotl(h ^ p[i], 5) * 1099511628211UL;
  return h;
}

/* Calls `fn` (in the program) n times: the program's frames appear above
   and below this library's. */
unsigned long tiny_apply(tiny_step fn, unsigned long n) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; ++i) s += fn(rotl(s, 7) + i);
  return s;
}
