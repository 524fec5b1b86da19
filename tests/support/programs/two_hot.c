/* A program with two hot functions whose balance the arguments set:
   work() calls alpha_loop(A) then beta_loop(B). Profiled twice with the
   balance moved, for report's flame graphs (tests/e2e/report_profiles_test.cc
   runs it; tests/fixtures/perf/script-two-hot-*.txt.gz were recorded from
   it). Built with symbols and frame pointers. Prints its own run time. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void alpha_loop(unsigned long n) {
  for (unsigned long i = 0; i < n; ++i) sink += i * i;
}

__attribute__((noinline)) void beta_loop(unsigned long n) {
  for (unsigned long i = 0; i < n; ++i) sink += i ^ 3;
}

__attribute__((noinline)) void work(unsigned long a, unsigned long b) {
  alpha_loop(a);
  beta_loop(b);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: two_hot ALPHA_LOOPS BETA_LOOPS\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  work(strtoul(argv[1], 0, 10), strtoul(argv[2], 0, 10));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("seconds: %.6f\n",
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
  return 0;
}
