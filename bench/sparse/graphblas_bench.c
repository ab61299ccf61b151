//===- graphblas_bench.c - GraphBLAS anchors of the sparse bench ----------===//
//
// The sparse kernels of bench/sparse/run.py, computed with SuiteSparse:
// GraphBLAS on a Matrix Market file, each timed inside this process (file
// reading excluded) as the best and median of several repetitions.
//
//   graphblas_bench kernels FILE.mtx [--threads T] [--reps N] [--budget S]
//                   [--kernels spmv,spmtv,...] [--format csr|auto]
//   graphblas_bench pagerank FILE.mtx OUT.csv [--threads T] [--iters 20]
//                   [--alpha 0.85]
//   graphblas_bench components FILE.mtx OUT.csv [--threads T]
//   graphblas_bench version
//
// "kernels" prints one line per kernel:
//   kernel=spmv threads=1 reps=10 best_s=... median_s=... checksum=...
// "pagerank" and "components" are the end-to-end runs (read the file,
// compute, write the result as CSV, one value per line) and print
//   e2e=pagerank threads=2 read_s=... compute_s=... write_s=... checksum=...
//
// The inputs and checksums are those of bench/sparse/scipy_kernels.py, so the
// harness compares them: x[j] = (j+1)/n, u[i] = (i+1)/m, X[j,l] = x[j]*(l+1);
// the checksum of a result R is sum_i ((i+1)/rows(R)) * rowSum_i(R) (a vector
// is weighted by its own index whatever its orientation; a scalar is itself).
//
// Build: cc -O3 -march=native -fopenmp graphblas_bench.c -lgraphblas -lm
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <GraphBLAS.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static void die(const char *message, const char *detail) {
  fprintf(stderr, "graphblas_bench: %s%s%s\n", message, detail ? ": " : "",
          detail ? detail : "");
  exit(1);
}

// Every GraphBLAS call goes through CHECK: any error ends the run.
#define CHECK(call)                                                            \
  do {                                                                         \
    GrB_Info info_ = (call);                                                   \
    if (info_ != GrB_SUCCESS && info_ != GrB_NO_VALUE) {                       \
      fprintf(stderr, "graphblas_bench: %s failed (GrB_Info %d) at line %d\n", \
              #call, (int)info_, __LINE__);                                    \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void *checkedMalloc(size_t bytes) {
  void *memory = malloc(bytes ? bytes : 1);
  if (!memory)
    die("out of memory", NULL);
  return memory;
}

//===----------------------------------------------------------------------===//
// Matrix Market reader
//===----------------------------------------------------------------------===//

// Powers of ten that are exact doubles.
static const double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static const char *skipBlanks(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
    ++p;
  return p;
}

static const char *parseIndex(const char *p, const char *end, uint64_t *out) {
  p = skipBlanks(p, end);
  if (p == end || *p < '0' || *p > '9')
    die("malformed Matrix Market entry", "expected an index");
  uint64_t value = 0;
  while (p < end && *p >= '0' && *p <= '9')
    value = value * 10 + (uint64_t)(*p++ - '0');
  *out = value;
  return p;
}

// A decimal number: digits with at most one '.', no exponent, and a
// mantissa below 2^53 are converted exactly (one correctly rounded
// division); anything else goes to strtod.
static const char *parseValue(const char *p, const char *end, double *out) {
  p = skipBlanks(p, end);
  const char *start = p;
  bool negative = p < end && *p == '-';
  if (p < end && (*p == '-' || *p == '+'))
    ++p;
  uint64_t mantissa = 0;
  int digits = 0, fraction = -1;
  for (; p < end; ++p) {
    if (*p >= '0' && *p <= '9') {
      mantissa = mantissa * 10 + (uint64_t)(*p - '0');
      if (fraction >= 0)
        ++fraction;
      if (++digits > 15)
        break;
    } else if (*p == '.' && fraction < 0) {
      fraction = 0;
    } else {
      break;
    }
  }
  bool simple =
      digits > 0 && digits <= 15 &&
      (p == end || *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n');
  if (simple) {
    double value = (double)mantissa;
    if (fraction > 0)
      value /= kPow10[fraction];
    *out = negative ? -value : value;
    return p;
  }
  char buffer[64];
  size_t length = 0;
  while (start + length < end && start[length] != '\n' &&
         start[length] != ' ' && start[length] != '\t' && length < 63)
    ++length;
  memcpy(buffer, start, length);
  buffer[length] = '\0';
  char *stop;
  errno = 0;
  *out = strtod(buffer, &stop);
  if (stop == buffer || errno == ERANGE)
    die("malformed Matrix Market value", buffer);
  return start + (stop - buffer);
}

// Reads a 'coordinate real|integer|pattern general|symmetric' file into a
// GraphBLAS FP64 matrix held by row (duplicates summed, as SciPy does). With
// `csr`, the matrix stays in GraphBLAS's sparse format, as SciPy and AMLS
// hold it; otherwise GraphBLAS picks (a 10% dense matrix becomes a bitmap).
static GrB_Matrix readMatrixMarket(const char *path, bool csr) {
  FILE *file = fopen(path, "rb");
  if (!file)
    die("cannot open", path);
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = checkedMalloc((size_t)size + 1);
  if (fread(text, 1, (size_t)size, file) != (size_t)size)
    die("cannot read", path);
  fclose(file);
  text[size] = '\0';
  const char *p = text, *end = text + size;

  char object[32], layout[32], field[32], symmetry[32];
  if (sscanf(p, "%%%%MatrixMarket %31s %31s %31s %31s", object, layout, field,
             symmetry) != 4 ||
      strcmp(layout, "coordinate") != 0)
    die("expected a '%%MatrixMarket matrix coordinate' header", path);
  bool pattern = strcmp(field, "pattern") == 0;
  bool symmetric = strcmp(symmetry, "symmetric") == 0;
  if (!symmetric && strcmp(symmetry, "general") != 0)
    die("unsupported symmetry", symmetry);
  // Skip the header and comment lines.
  while (p < end && *p == '%') {
    p = memchr(p, '\n', (size_t)(end - p));
    p = p ? p + 1 : end;
  }
  uint64_t rows, cols, entries;
  p = parseIndex(p, end, &rows);
  p = parseIndex(p, end, &cols);
  p = parseIndex(p, end, &entries);

  uint64_t capacity = symmetric ? 2 * entries : entries;
  GrB_Index *rowIndex = checkedMalloc(capacity * sizeof(GrB_Index));
  GrB_Index *colIndex = checkedMalloc(capacity * sizeof(GrB_Index));
  double *values = checkedMalloc(capacity * sizeof(double));
  uint64_t count = 0;
  for (uint64_t k = 0; k < entries; ++k) {
    while (p < end && (*p == '\n' || *p == ' ' || *p == '\r' || *p == '\t'))
      ++p;
    uint64_t r, c;
    double value = 1.0;
    p = parseIndex(p, end, &r);
    p = parseIndex(p, end, &c);
    if (!pattern)
      p = parseValue(p, end, &value);
    if (r < 1 || r > rows || c < 1 || c > cols)
      die("entry outside the matrix", path);
    rowIndex[count] = r - 1;
    colIndex[count] = c - 1;
    values[count++] = value;
    if (symmetric && r != c) {
      rowIndex[count] = c - 1;
      colIndex[count] = r - 1;
      values[count++] = value;
    }
  }
  free(text);
  GrB_Matrix matrix;
  CHECK(GrB_Matrix_new(&matrix, GrB_FP64, rows, cols));
  CHECK(GxB_Matrix_Option_set(matrix, GxB_FORMAT, GxB_BY_ROW));
  if (csr)
    CHECK(GxB_Matrix_Option_set(matrix, GxB_SPARSITY_CONTROL, GxB_SPARSE));
  CHECK(GrB_Matrix_build_FP64(matrix, rowIndex, colIndex, values, count,
                              GrB_PLUS_FP64));
  CHECK(GrB_Matrix_wait(matrix, GrB_MATERIALIZE));
  free(rowIndex);
  free(colIndex);
  free(values);
  return matrix;
}

//===----------------------------------------------------------------------===//
// Inputs and checksums
//===----------------------------------------------------------------------===//

// The full vector of length n with entry i = (i+1) / n.
static GrB_Vector rampVector(GrB_Index n) {
  double *values = checkedMalloc(n * sizeof(double));
  for (GrB_Index i = 0; i < n; ++i)
    values[i] = (double)(i + 1) / (double)n;
  GrB_Vector v;
  CHECK(GrB_Vector_new(&v, GrB_FP64, n));
  CHECK(GxB_Vector_pack_Full(v, (void **)&values, n * sizeof(double), false,
                             NULL));
  return v;
}

// The full vector 1, 2, ..., n (vertex ids).
static GrB_Vector idVector(GrB_Index n) {
  double *values = checkedMalloc(n * sizeof(double));
  for (GrB_Index i = 0; i < n; ++i)
    values[i] = (double)(i + 1);
  GrB_Vector v;
  CHECK(GrB_Vector_new(&v, GrB_FP64, n));
  CHECK(GxB_Vector_pack_Full(v, (void **)&values, n * sizeof(double), false,
                             NULL));
  return v;
}

// The n x k full matrix X[j,l] = ((j+1)/n) * (l+1), held by row.
static GrB_Matrix denseOperand(GrB_Index n, GrB_Index k) {
  double *values = checkedMalloc(n * k * sizeof(double));
  for (GrB_Index j = 0; j < n; ++j)
    for (GrB_Index l = 0; l < k; ++l)
      values[j * k + l] = ((double)(j + 1) / (double)n) * (double)(l + 1);
  GrB_Matrix X;
  CHECK(GrB_Matrix_new(&X, GrB_FP64, n, k));
  CHECK(GxB_Matrix_Option_set(X, GxB_FORMAT, GxB_BY_ROW));
  CHECK(GxB_Matrix_pack_FullR(X, (void **)&values, n * k * sizeof(double),
                              false, NULL));
  return X;
}

// sum_i ((i+1)/n) * v[i] over the entries present (the others are 0).
static double vectorChecksum(GrB_Vector v) {
  GrB_Index n, count;
  CHECK(GrB_Vector_size(&n, v));
  CHECK(GrB_Vector_nvals(&count, v));
  GrB_Index *index = checkedMalloc(count * sizeof(GrB_Index));
  double *values = checkedMalloc(count * sizeof(double));
  CHECK(GrB_Vector_extractTuples_FP64(index, values, &count, v));
  double sum = 0;
  for (GrB_Index k = 0; k < count; ++k)
    sum += ((double)(index[k] + 1) / (double)n) * values[k];
  free(index);
  free(values);
  return sum;
}

// The checksum of a matrix: its row sums, weighted by row.
static double matrixChecksum(GrB_Matrix C) {
  GrB_Index rows;
  CHECK(GrB_Matrix_nrows(&rows, C));
  GrB_Vector sums;
  CHECK(GrB_Vector_new(&sums, GrB_FP64, rows));
  CHECK(GrB_Matrix_reduce_Monoid(sums, NULL, NULL, GrB_PLUS_MONOID_FP64, C,
                                 NULL));
  double checksum = vectorChecksum(sums);
  GrB_Vector_free(&sums);
  return checksum;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

typedef struct {
  GrB_Matrix A;       // the input, CSR
  GrB_Index m, n;     // its shape
  GrB_Vector x, u;    // ramps over the columns and rows
  GrB_Matrix X8, X32; // n x 8 and n x 32 dense operands
  GrB_Matrix D;       // diag(x): A * D scales column j by x[j]
  GrB_Matrix G;       // pattern(A + t(A)) without the diagonal (components)
} Inputs;

// The result of one kernel evaluation: whichever of these is set.
typedef struct {
  GrB_Vector vector;
  GrB_Matrix matrix;
  double scalar;
  bool hasScalar;
  int iterations; // components: iterations to convergence
} Result;

static void freeResult(Result *r) {
  if (r->vector)
    GrB_Vector_free(&r->vector);
  if (r->matrix)
    GrB_Matrix_free(&r->matrix);
  memset(r, 0, sizeof(*r));
}

static double resultChecksum(const Result *r) {
  if (r->vector)
    return vectorChecksum(r->vector);
  if (r->matrix)
    return matrixChecksum(r->matrix);
  return r->scalar;
}

static void runSpmv(Inputs *in, Result *r) {
  CHECK(GrB_Vector_new(&r->vector, GrB_FP64, in->m));
  CHECK(GrB_mxv(r->vector, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, in->A,
                in->x, NULL));
  CHECK(GrB_Vector_wait(r->vector, GrB_MATERIALIZE));
}

static void runSpmtv(Inputs *in, Result *r) {
  CHECK(GrB_Vector_new(&r->vector, GrB_FP64, in->n));
  CHECK(GrB_vxm(r->vector, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, in->u,
                in->A, NULL));
  CHECK(GrB_Vector_wait(r->vector, GrB_MATERIALIZE));
}

static void runSpmm(Inputs *in, Result *r, GrB_Matrix X) {
  GrB_Index k;
  CHECK(GrB_Matrix_ncols(&k, X));
  CHECK(GrB_Matrix_new(&r->matrix, GrB_FP64, in->m, k));
  CHECK(GrB_mxm(r->matrix, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, in->A, X,
                NULL));
  CHECK(GrB_Matrix_wait(r->matrix, GrB_MATERIALIZE));
}

static void runSpmm8(Inputs *in, Result *r) { runSpmm(in, r, in->X8); }
static void runSpmm32(Inputs *in, Result *r) { runSpmm(in, r, in->X32); }

// A * t(x) (every row scaled by the row vector): A times diag(x).
static void runEwRow(Inputs *in, Result *r) {
  CHECK(GrB_Matrix_new(&r->matrix, GrB_FP64, in->m, in->n));
  CHECK(GrB_mxm(r->matrix, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, in->A,
                in->D, NULL));
  CHECK(GrB_Matrix_wait(r->matrix, GrB_MATERIALIZE));
}

static void runEwSelf(Inputs *in, Result *r) {
  CHECK(GrB_Matrix_new(&r->matrix, GrB_FP64, in->m, in->n));
  CHECK(GrB_Matrix_eWiseMult_BinaryOp(r->matrix, NULL, NULL, GrB_TIMES_FP64,
                                      in->A, in->A, NULL));
  CHECK(GrB_Matrix_wait(r->matrix, GrB_MATERIALIZE));
}

static void runRowSums(Inputs *in, Result *r) {
  CHECK(GrB_Vector_new(&r->vector, GrB_FP64, in->m));
  CHECK(GrB_Matrix_reduce_Monoid(r->vector, NULL, NULL, GrB_PLUS_MONOID_FP64,
                                 in->A, NULL));
  CHECK(GrB_Vector_wait(r->vector, GrB_MATERIALIZE));
}

static void runColSums(Inputs *in, Result *r) {
  CHECK(GrB_Vector_new(&r->vector, GrB_FP64, in->n));
  CHECK(GrB_Matrix_reduce_Monoid(r->vector, NULL, NULL, GrB_PLUS_MONOID_FP64,
                                 in->A, GrB_DESC_T0));
  CHECK(GrB_Vector_wait(r->vector, GrB_MATERIALIZE));
}

static void runSum(Inputs *in, Result *r) {
  CHECK(GrB_Matrix_reduce_FP64(&r->scalar, NULL, GrB_PLUS_MONOID_FP64, in->A,
                               NULL));
  r->hasScalar = true;
}

// A %*% A with a sorted result (GrB_wait finishes the sort GrB_mxm may
// leave pending).
static void runSpgemm(Inputs *in, Result *r) {
  CHECK(GrB_Matrix_new(&r->matrix, GrB_FP64, in->m, in->n));
  CHECK(GrB_mxm(r->matrix, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, in->A,
                in->A, NULL));
  CHECK(GrB_Matrix_wait(r->matrix, GrB_MATERIALIZE));
}

// examples/pagerank.dml: G = t(A / rowSums(A)); p = 1/n; then `iters` times
// p = alpha * (G %*% p) + (1 - alpha) * sum(p) / n.
static GrB_Vector pageRank(GrB_Matrix A, int iters, double alpha) {
  GrB_Index n;
  CHECK(GrB_Matrix_nrows(&n, A));
  GrB_Vector degree;
  CHECK(GrB_Vector_new(&degree, GrB_FP64, n));
  CHECK(GrB_Matrix_reduce_Monoid(degree, NULL, NULL, GrB_PLUS_MONOID_FP64, A,
                                 NULL));
  GrB_Matrix D, scaled, G;
  CHECK(GrB_Matrix_new(&D, GrB_FP64, n, n));
  CHECK(GxB_Matrix_diag(D, degree, 0, NULL));
  // scaled(i,j) = rdiv(d(i), A(i,j)) = A(i,j) / d(i): an exact division.
  CHECK(GrB_Matrix_new(&scaled, GrB_FP64, n, n));
  CHECK(GrB_mxm(scaled, NULL, NULL, GxB_PLUS_RDIV_FP64, D, A, NULL));
  CHECK(GrB_Matrix_new(&G, GrB_FP64, n, n));
  CHECK(GrB_transpose(G, NULL, NULL, scaled, NULL));
  CHECK(GrB_Matrix_wait(G, GrB_MATERIALIZE));
  GrB_Matrix_free(&scaled);
  GrB_Matrix_free(&D);
  GrB_Vector_free(&degree);

  GrB_Vector p, t;
  CHECK(GrB_Vector_new(&p, GrB_FP64, n));
  CHECK(GrB_Vector_new(&t, GrB_FP64, n));
  CHECK(
      GrB_Vector_assign_FP64(p, NULL, NULL, 1.0 / (double)n, GrB_ALL, n, NULL));
  for (int i = 0; i < iters; ++i) {
    double sum;
    CHECK(GrB_mxv(t, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, G, p, NULL));
    CHECK(GrB_Vector_reduce_FP64(&sum, NULL, GrB_PLUS_MONOID_FP64, p, NULL));
    // p = teleport everywhere, then p += alpha * t where t has entries.
    CHECK(GrB_Vector_assign_FP64(p, NULL, NULL, (1 - alpha) * sum / (double)n,
                                 GrB_ALL, n, NULL));
    CHECK(GrB_Vector_apply_BinaryOp2nd_FP64(p, NULL, GrB_PLUS_FP64,
                                            GrB_TIMES_FP64, t, alpha, NULL));
  }
  CHECK(GrB_Vector_wait(p, GrB_MATERIALIZE));
  GrB_Vector_free(&t);
  GrB_Matrix_free(&G);
  return p;
}

// examples/components.dml on a graph G without self-edges: c = 1..n; repeat
// u = max(rowMaxs(G * t(c)), c) (one max.second product accumulated into
// c's copy) until no label changes.
static GrB_Vector components(GrB_Matrix G, int *iterations) {
  GrB_Index n;
  CHECK(GrB_Matrix_nrows(&n, G));
  GrB_Vector c = idVector(n), changed;
  CHECK(GrB_Vector_new(&changed, GrB_FP64, n));
  *iterations = 0;
  double diff;
  do {
    GrB_Vector u;
    CHECK(GrB_Vector_dup(&u, c));
    CHECK(GrB_mxv(u, NULL, GrB_MAX_FP64, GrB_MAX_SECOND_SEMIRING_FP64, G, c,
                  NULL));
    CHECK(GrB_Vector_eWiseMult_BinaryOp(changed, NULL, NULL, GrB_NE_FP64, u, c,
                                        NULL));
    CHECK(GrB_Vector_reduce_FP64(&diff, NULL, GrB_PLUS_MONOID_FP64, changed,
                                 NULL));
    GrB_Vector_free(&c);
    c = u;
    ++*iterations;
  } while (diff > 0);
  GrB_Vector_free(&changed);
  CHECK(GrB_Vector_wait(c, GrB_MATERIALIZE));
  return c;
}

static void runPageRank(Inputs *in, Result *r) {
  r->vector = pageRank(in->A, 20, 0.85);
}

static void runComponents(Inputs *in, Result *r) {
  r->vector = components(in->G, &r->iterations);
}

typedef struct {
  const char *name;
  void (*run)(Inputs *, Result *);
  bool squareOnly;
} Kernel;

static const Kernel kKernels[] = {
    {"spmv", runSpmv, false},        {"spmtv", runSpmtv, false},
    {"spmm8", runSpmm8, false},      {"spmm32", runSpmm32, false},
    {"ew_row", runEwRow, false},     {"ew_self", runEwSelf, false},
    {"rowsums", runRowSums, false},  {"colsums", runColSums, false},
    {"sum", runSum, false},          {"spgemm", runSpgemm, true},
    {"pagerank", runPageRank, true}, {"components", runComponents, true},
};

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// Prepares the inputs a kernel needs (untimed), the first time.
static void prepare(Inputs *in, const char *kernel) {
  if (!strcmp(kernel, "spmv") && !in->x)
    in->x = rampVector(in->n);
  if (!strcmp(kernel, "spmtv") && !in->u)
    in->u = rampVector(in->m);
  if (!strcmp(kernel, "spmm8") && !in->X8)
    in->X8 = denseOperand(in->n, 8);
  if (!strcmp(kernel, "spmm32") && !in->X32)
    in->X32 = denseOperand(in->n, 32);
  if (!strcmp(kernel, "ew_row") && !in->D) {
    GrB_Vector x = rampVector(in->n);
    CHECK(GrB_Matrix_new(&in->D, GrB_FP64, in->n, in->n));
    CHECK(GxB_Matrix_diag(in->D, x, 0, NULL));
    CHECK(GrB_Matrix_wait(in->D, GrB_MATERIALIZE));
    GrB_Vector_free(&x);
  }
  if (!strcmp(kernel, "components") && !in->G) {
    GrB_Matrix both;
    CHECK(GrB_Matrix_new(&both, GrB_FP64, in->n, in->n));
    CHECK(GrB_Matrix_eWiseAdd_BinaryOp(both, NULL, NULL, GrB_ONEB_FP64, in->A,
                                       in->A, GrB_DESC_T1));
    CHECK(GrB_Matrix_new(&in->G, GrB_FP64, in->n, in->n));
    CHECK(
        GrB_Matrix_select_FP64(in->G, NULL, NULL, GrB_OFFDIAG, both, 0, NULL));
    CHECK(GrB_Matrix_wait(in->G, GrB_MATERIALIZE));
    GrB_Matrix_free(&both);
  }
}

// Times one kernel: at least 3 and at most `reps` repetitions, stopping once
// `budget` seconds have been spent; prints its line.
static void timeKernel(Inputs *in, const Kernel *kernel, int threads, int reps,
                       double budget) {
  prepare(in, kernel->name);
  double *times = checkedMalloc((size_t)reps * sizeof(double));
  Result result = {0};
  int done = 0;
  double spent = 0;
  while (done < reps && (done < 3 || spent < budget)) {
    freeResult(&result);
    double start = now();
    kernel->run(in, &result);
    times[done] = now() - start;
    spent += times[done++];
  }
  double checksum = resultChecksum(&result);
  qsort(times, (size_t)done, sizeof(double), compareDoubles);
  double median = done % 2 ? times[done / 2]
                           : 0.5 * (times[done / 2 - 1] + times[done / 2]);
  printf("kernel=%s threads=%d reps=%d best_s=%.6e median_s=%.6e "
         "checksum=%.17g",
         kernel->name, threads, done, times[0], median, checksum);
  if (result.iterations)
    printf(" iterations=%d", result.iterations);
  printf("\n");
  fflush(stdout);
  freeResult(&result);
  free(times);
}

static bool listed(const char *list, const char *name) {
  if (!list)
    return true;
  size_t length = strlen(name);
  for (const char *p = list; (p = strstr(p, name)); p += length)
    if ((p == list || p[-1] == ',') && (p[length] == ',' || !p[length]))
      return true;
  return false;
}

static void writeVector(GrB_Vector v, const char *path) {
  GrB_Index n, count;
  CHECK(GrB_Vector_size(&n, v));
  CHECK(GrB_Vector_nvals(&count, v));
  GrB_Index *index = checkedMalloc(count * sizeof(GrB_Index));
  double *values = checkedMalloc(count * sizeof(double));
  CHECK(GrB_Vector_extractTuples_FP64(index, values, &count, v));
  FILE *out = fopen(path, "w");
  if (!out)
    die("cannot write", path);
  GrB_Index next = 0;
  for (GrB_Index i = 0; i < n; ++i) {
    double value = 0;
    if (next < count && index[next] == i)
      value = values[next++];
    fprintf(out, "%.17g\n", value);
  }
  if (fclose(out) != 0)
    die("cannot write", path);
  free(index);
  free(values);
}

static void usage(void) {
  fprintf(stderr,
          "usage: graphblas_bench kernels FILE.mtx [--threads T] [--reps N] "
          "[--budget S] [--kernels a,b] [--format csr|auto]\n"
          "       graphblas_bench pagerank FILE.mtx OUT.csv [--threads T] "
          "[--iters N] [--alpha A]\n"
          "       graphblas_bench components FILE.mtx OUT.csv [--threads T]\n");
  exit(2);
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "version")) {
    printf("SuiteSparse:GraphBLAS %d.%d.%d\n", GxB_IMPLEMENTATION_MAJOR,
           GxB_IMPLEMENTATION_MINOR, GxB_IMPLEMENTATION_SUB);
    return 0;
  }
  if (argc < 3)
    usage();
  const char *mode = argv[1], *path = argv[2], *output = NULL;
  int first = 3;
  bool endToEnd = !strcmp(mode, "pagerank") || !strcmp(mode, "components");
  if (endToEnd) {
    if (argc < 4)
      usage();
    output = argv[3];
    first = 4;
  } else if (strcmp(mode, "kernels") != 0) {
    usage();
  }
  int threads = 1, reps = 10, iters = 20;
  double budget = 5.0, alpha = 0.85;
  const char *kernelList = NULL;
  bool csr = true;
  for (int i = first; i < argc; ++i) {
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (!value)
      usage();
    if (!strcmp(argv[i], "--threads"))
      threads = atoi(value);
    else if (!strcmp(argv[i], "--reps"))
      reps = atoi(value);
    else if (!strcmp(argv[i], "--budget"))
      budget = atof(value);
    else if (!strcmp(argv[i], "--kernels"))
      kernelList = value;
    else if (!strcmp(argv[i], "--iters"))
      iters = atoi(value);
    else if (!strcmp(argv[i], "--alpha"))
      alpha = atof(value);
    else if (!strcmp(argv[i], "--format"))
      csr = strcmp(value, "auto") != 0;
    else
      usage();
    ++i;
  }
  if (threads < 1 || reps < 1)
    usage();

  CHECK(GrB_init(GrB_NONBLOCKING));
  CHECK(GxB_Global_Option_set(GxB_NTHREADS, threads));
  double start = now();
  GrB_Matrix A = readMatrixMarket(path, csr);
  double readSeconds = now() - start;

  if (endToEnd) {
    start = now();
    GrB_Vector v;
    int iterations = 0;
    if (!strcmp(mode, "pagerank")) {
      v = pageRank(A, iters, alpha);
    } else {
      // components.dml removes self-edges before it starts.
      GrB_Index n;
      CHECK(GrB_Matrix_nrows(&n, A));
      GrB_Matrix G;
      CHECK(GrB_Matrix_new(&G, GrB_FP64, n, n));
      CHECK(GrB_Matrix_select_FP64(G, NULL, NULL, GrB_OFFDIAG, A, 0, NULL));
      v = components(G, &iterations);
      GrB_Matrix_free(&G);
    }
    double computeSeconds = now() - start;
    start = now();
    writeVector(v, output);
    printf("e2e=%s threads=%d read_s=%.3f compute_s=%.3f write_s=%.3f "
           "checksum=%.17g iterations=%d\n",
           mode, threads, readSeconds, computeSeconds, now() - start,
           vectorChecksum(v), iterations);
    GrB_Vector_free(&v);
  } else {
    Inputs in = {.A = A};
    CHECK(GrB_Matrix_nrows(&in.m, A));
    CHECK(GrB_Matrix_ncols(&in.n, A));
    GrB_Index nnz;
    CHECK(GrB_Matrix_nvals(&nnz, A));
    printf("matrix rows=%llu cols=%llu nnz=%llu read_s=%.3f\n",
           (unsigned long long)in.m, (unsigned long long)in.n,
           (unsigned long long)nnz, readSeconds);
    for (size_t k = 0; k < sizeof(kKernels) / sizeof(kKernels[0]); ++k) {
      const Kernel *kernel = &kKernels[k];
      if (!listed(kernelList, kernel->name) ||
          (kernel->squareOnly && in.m != in.n))
        continue;
      timeKernel(&in, kernel, threads, reps, budget);
    }
    GrB_Vector_free(&in.x);
    GrB_Vector_free(&in.u);
    GrB_Matrix_free(&in.X8);
    GrB_Matrix_free(&in.X32);
    GrB_Matrix_free(&in.D);
    GrB_Matrix_free(&in.G);
  }
  GrB_Matrix_free(&A);
  CHECK(GrB_finalize());
  return 0;
}
