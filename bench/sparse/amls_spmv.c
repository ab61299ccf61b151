//===- amls_spmv.c - The runtime's SpMV alone, for its achieved bandwidth -===//
//
// Times the call compiled programs make for `A %*% x` (amls_rt_csr_spmm
// with a one-column x) on its own, in one process, as graphblas_bench.c
// times GraphBLAS and scipy_kernels.py SciPy: the matrix is read through
// the runtime's CSR reader (the arrays a program takes over), then the
// kernel runs `reps` times into a result allocated once. The program-level
// number of run.py (a DML loop, (T(K2) - T(K1)) / (K2 - K1)) also carries
// the loop's allocation, guard and the VM's noise between two processes;
// this one is the kernel's achieved bandwidth.
//
//   amls_spmv PATH THREADS [REPS]
//   -> kernel=spmv threads=2 reps=20 best_s=... median_s=... checksum=...
//
// Checksum as scipy_kernels.py: x[j] = j / n; sum_i (i / m) * y[i].
// Build (run.py): cc -O2 amls_spmv.c -I include -L build/lib -lamls_runtime
// (no -fopenmp: the runtime brings LLVM's libomp).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: amls_spmv PATH THREADS [REPS]\n");
    return 2;
  }
  int threads = atoi(argv[2]);
  int reps = argc > 3 ? atoi(argv[3]) : 20;
  if (threads < 1 || reps < 1) {
    fprintf(stderr, "amls_spmv: THREADS and REPS must be positive\n");
    return 2;
  }
  amls_rt_set_num_threads(threads);
  void *handle = amls_rt_csr_read(argv[1], AMLS_FILE_MATRIX_MARKET, -1, -1, "");
  int64_t m = amls_rt_csr_handle_rows(handle),
          n = amls_rt_csr_handle_cols(handle);
  AmlsVectorI64 rowptr;
  AmlsVectorI32 colidx;
  AmlsVectorF64 values;
  _mlir_ciface_amls_rt_csr_take_rowptr(&rowptr, handle, "rowptr");
  _mlir_ciface_amls_rt_csr_take_colidx(&colidx, handle, "colidx");
  _mlir_ciface_amls_rt_csr_take_values(&values, handle, "values");
  amls_rt_csr_free_handle(handle);

  double *x = malloc(sizeof(double) * (n ? n : 1));
  double *y = malloc(sizeof(double) * (m ? m : 1));
  double *times = malloc(sizeof(double) * reps);
  if (!x || !y || !times) {
    fprintf(stderr, "amls_spmv: out of memory\n");
    return 1;
  }
  for (int64_t j = 0; j < n; ++j)
    x[j] = (double)(j + 1) / n;
  AmlsMatrixF64 xDesc = {x, x, 0, {n, 1}, {1, 1}};
  AmlsMatrixF64 yDesc = {y, y, 0, {m, 1}, {1, 1}};
  // One call before timing: the threads start and y's pages are touched.
  _mlir_ciface_amls_rt_csr_spmm(&rowptr, &colidx, &values, n, &xDesc, &yDesc);
  for (int r = 0; r < reps; ++r) {
    double start = now();
    _mlir_ciface_amls_rt_csr_spmm(&rowptr, &colidx, &values, n, &xDesc,
                                  &yDesc);
    times[r] = now() - start;
  }
  double checksum = 0;
  for (int64_t i = 0; i < m; ++i)
    checksum += (double)(i + 1) / m * y[i];
  qsort(times, reps, sizeof(double), compareDoubles);
  printf("kernel=spmv threads=%d reps=%d best_s=%.9g median_s=%.9g "
         "checksum=%.17g\n",
         threads, reps, times[0], times[reps / 2], checksum);
  free(x);
  free(y);
  free(times);
  return 0;
}
