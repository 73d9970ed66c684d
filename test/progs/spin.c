#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void leaf(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) static void middle(unsigned long n) { leaf(n); leaf(n / 2); }
int main(int argc, char** argv) { unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 50000000; for (int i = 0; i < 4; i++) middle(n); return 0; }
