/* A program with one hot function, for the perf-profile tests: hot_loop
   runs ten times as many iterations as cold_loop, so a profile of it must
   show hot_loop's self share well above cold_loop's. `hot_loop N M` gives
   cold_loop M iterations instead of N/10 (the hot function moves to
   cold_loop when M is ten times N). Built with symbols and frame pointers
   (tests/CMakeLists.txt). Prints its own run time. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void hot_loop(unsigned long n) {
  for (unsigned long i = 0; i < n; ++i) sink += i * i;
}

/* The same cost an iteration as hot_loop's (not folded into it: the body
   differs), so that moving the iterations moves the time. */
__attribute__((noinline)) void cold_loop(unsigned long n) {
  for (unsigned long i = 0; i < n; ++i) sink += i * i + 1;
}

int main(int argc, char** argv) {
  const unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 100000000UL;
  const unsigned long m = argc > 2 ? strtoul(argv[2], 0, 10) : n / 10;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  hot_loop(n);
  cold_loop(m);
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("seconds: %.6f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
  return 0;
}
