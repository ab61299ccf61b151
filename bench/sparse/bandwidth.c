//===- bandwidth.c - The machine's read bandwidth for the sparse bench ----===//
//
// Sums a large array of doubles (default 1.5 GiB, far beyond the caches) with
// OpenMP at each thread count given, best and median of several passes, and
// prints one line per thread count:
//
//   threads=1 bytes=1610612736 reps=10 best_gbs=... median_gbs=... sum=...
//
// GB/s is bytes / seconds / 1e9. The array is initialized in parallel with
// the same static schedule, so each thread reads pages it touched first.
//
//   bandwidth [--gib 1.5] [--reps 10] THREADS...
//
// Build: cc -O3 -march=native -fopenmp bandwidth.c -o bandwidth
//
//===----------------------------------------------------------------------===//

#include <omp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// One pass: the sum of all n values with `threads` threads. Each thread
// sums its contiguous share with vector partial sums.
static double sumArray(const double *values, long n, int threads) {
  double total = 0;
#pragma omp parallel for num_threads(threads) schedule(static)                 \
    reduction(+ : total)
  for (long block = 0; block < threads; ++block) {
    long begin = n / threads * block;
    long end = block == threads - 1 ? n : begin + n / threads;
    double sum = 0;
#pragma omp simd reduction(+ : sum)
    for (long i = begin; i < end; ++i)
      sum += values[i];
    total += sum;
  }
  return total;
}

int main(int argc, char **argv) {
  double gib = 1.5;
  int reps = 10, first = 1;
  while (first + 1 < argc && argv[first][0] == '-') {
    if (!strcmp(argv[first], "--gib"))
      gib = atof(argv[first + 1]);
    else if (!strcmp(argv[first], "--reps"))
      reps = atoi(argv[first + 1]);
    else
      break;
    first += 2;
  }
  if (first >= argc || gib <= 0 || reps < 1) {
    fprintf(stderr, "usage: bandwidth [--gib G] [--reps N] THREADS...\n");
    return 2;
  }
  long n = (long)(gib * (1L << 30) / sizeof(double));
  double *values = malloc((size_t)n * sizeof(double));
  if (!values) {
    fprintf(stderr, "bandwidth: cannot allocate %.2f GiB\n", gib);
    return 1;
  }
  int maxThreads = omp_get_num_procs();
#pragma omp parallel for num_threads(maxThreads) schedule(static)
  for (long i = 0; i < n; ++i)
    values[i] = (double)(i & 1023);

  double *times = malloc((size_t)reps * sizeof(double));
  for (int a = first; a < argc; ++a) {
    int threads = atoi(argv[a]);
    if (threads < 1) {
      fprintf(stderr, "bandwidth: bad thread count '%s'\n", argv[a]);
      return 2;
    }
    double sum = sumArray(values, n, threads); // warm-up
    for (int r = 0; r < reps; ++r) {
      double start = omp_get_wtime();
      sum = sumArray(values, n, threads);
      times[r] = omp_get_wtime() - start;
    }
    qsort(times, (size_t)reps, sizeof(double), compareDoubles);
    double bytes = (double)n * sizeof(double);
    double median = reps % 2 ? times[reps / 2]
                             : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
    printf("threads=%d bytes=%.0f reps=%d best_gbs=%.2f median_gbs=%.2f "
           "sum=%.0f\n",
           threads, bytes, reps, bytes / times[0] / 1e9, bytes / median / 1e9,
           sum);
    fflush(stdout);
  }
  free(times);
  free(values);
  return 0;
}
