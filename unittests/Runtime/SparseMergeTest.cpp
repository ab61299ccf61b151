//===- SparseMergeTest.cpp - CSR op CSR and value reductions --------------===//
//
// Element-wise merges of two CSR matrices against loops over every cell:
// the union of the patterns for +, -, min, max, the intersection for *,
// results that are 0 not stored. Each matrix is merged with another
// pattern, with a copy of itself in other buffers (the general merge), with
// itself (the same buffers: the pattern is reused) and with other values
// over its own pattern buffers, some of whose results cancel. Also the
// reductions over the value array at 1 and 2 threads.
//
//===----------------------------------------------------------------------===//

#include "SparseTestSupport.h"

using namespace amls::sparsetest;

namespace {

enum Op {
  Add = AMLS_MERGE_ADD,
  Sub = AMLS_MERGE_SUB,
  Mul = AMLS_MERGE_MUL,
  Min = AMLS_MERGE_MIN,
  Max = AMLS_MERGE_MAX
};

/// arith.minimumf / maximumf: NaN if either is, -0 < +0.
double minimumf(double x, double y) {
  if (std::isnan(x) || std::isnan(y))
    return NAN;
  if (x == y)
    return std::signbit(x) ? x : y;
  return std::min(x, y);
}
double maximumf(double x, double y) {
  if (std::isnan(x) || std::isnan(y))
    return NAN;
  if (x == y)
    return std::signbit(x) ? y : x;
  return std::max(x, y);
}

double apply(int op, double x, double y) {
  switch (op) {
  case Add:
    return x + y;
  case Sub:
    return x - y;
  case Mul:
    return x * y;
  case Min:
    return minimumf(x, y);
  default:
    return maximumf(x, y);
  }
}

/// The merge by cells: f where either (for *, both) stores, kept if != 0.
Csr reference(const Csr &a, const Csr &b, int op) {
  std::vector<double> x = a.dense(), y = b.dense(), result(a.rows * a.cols);
  std::vector<char> px = a.pattern(), py = b.pattern(), keep(a.rows * a.cols);
  for (int64_t c = 0; c < a.rows * a.cols; ++c) {
    bool stored = op == Mul ? px[c] && py[c] : px[c] || py[c];
    result[c] = apply(op, x[c], y[c]);
    keep[c] = stored && result[c] != 0.0;
  }
  return csrOf(a.rows, a.cols, result,
               [&](int64_t r, int64_t c) { return keep[r * a.cols + c]; });
}

/// Runs count and fill on (a, b) given as descriptors.
struct Merged {
  std::vector<int64_t> rowptr;
  std::vector<int32_t> colidx;
  std::vector<double> values;
};
Merged merge(Csr &a, AmlsVectorI64 *bRowptr, AmlsVectorI32 *bColidx,
             AmlsVectorF64 *bValues, int op) {
  I64 rowptr(a.rows + 1, -5);
  int64_t nnz = _mlir_ciface_amls_rt_csr_merge_count(
      a.rowptr.desc(), a.colidx.desc(), a.values.desc(), a.cols, bRowptr,
      bColidx, bValues, a.cols, op, rowptr.desc());
  EXPECT_EQ(nnz, rowptr[a.rows]);
  I32 colidx(nnz, -1);
  F64 values(nnz, -99.0);
  _mlir_ciface_amls_rt_csr_merge_fill(a.rowptr.desc(), a.colidx.desc(),
                                      a.values.desc(), a.cols, bRowptr, bColidx,
                                      bValues, a.cols, op, rowptr.desc(),
                                      colidx.desc(), values.desc());
  return {rowptr.values(), colidx.values(), values.values()};
}

/// Merges a with `b` for every op in `ops`, b's buffers given by
/// `rowptr`, `colidx` and `values` (a's own, b's, or a mix).
void expectMerges(Csr &a, const Csr &b, AmlsVectorI64 *rowptr,
                  AmlsVectorI32 *colidx, AmlsVectorF64 *values,
                  std::initializer_list<int> ops = {Add, Sub, Mul, Min, Max}) {
  for (int op : ops) {
    SCOPED_TRACE("op " + std::to_string(op));
    Merged got = merge(a, rowptr, colidx, values, op);
    ASSERT_TRUE(wellFormed(got.rowptr, got.colidx, a.rows, a.cols));
    expectSameCsr(reference(a, b, op), got.rowptr, got.colidx, got.values);
  }
}

class SparseMerge : public SparseCase {};

TEST_P(SparseMerge, OtherPatternsMatchDenseLoops) {
  // Half of a's entries (every other) plus entries a does not store.
  std::vector<double> cells = a.dense(),
                      noise = randomCells(a.rows * a.cols, 7);
  std::vector<char> pattern = a.pattern();
  int64_t seen = 0;
  Csr b = csrOf(a.rows, a.cols, noise, [&](int64_t r, int64_t c) {
    int64_t cell = r * a.cols + c;
    if (pattern[cell])
      return (seen++ % 2) == 0;
    return (r * 31 + c * 17) % 23 == 0;
  });
  expectMerges(a, b, b.rowptr.desc(), b.colidx.desc(), b.values.desc());
}

TEST_P(SparseMerge, ACopyOfItselfMatchesDenseLoops) {
  Csr copy = a;
  expectMerges(a, copy, copy.rowptr.desc(), copy.colidx.desc(),
               copy.values.desc());
}

TEST_P(SparseMerge, ItselfReusesThePattern) {
  // The same buffers, as X * X passes them: x - x cancels everywhere.
  expectMerges(a, a, a.rowptr.desc(), a.colidx.desc(), a.values.desc());
}

TEST_P(SparseMerge, OtherValuesOverThePatternBuffers) {
  // X * f(X) for a sparse-safe f shares X's pattern buffers; some of the
  // other values are 0 or cancel, so some rows lose entries and others not.
  Csr b = a;
  for (int64_t k = 0; k < b.nnz(); ++k)
    b.values[k] = k % 7 == 3 ? 0.0 : k % 5 == 1 ? a.values[k] : -a.values[k];
  expectMerges(a, b, a.rowptr.desc(), a.colidx.desc(), b.values.desc());
}

TEST_P(SparseMerge, CancellationsInTheFirstRowsOnly) {
  // Later rows keep all their entries at other offsets than a's: the
  // reused pattern is shifted.
  Csr b = a;
  for (int64_t k = 0; k < std::min<int64_t>(b.nnz(), 5); ++k)
    b.values[k] = 0.0;
  expectMerges(a, b, a.rowptr.desc(), a.colidx.desc(), b.values.desc(),
               {Mul, Sub});
}

INSTANTIATE_TEST_SUITE_P(Cases, SparseMerge, allCases(), caseLabel);

TEST(SparseValuesReduce, MatchesALoopAtOneAndTwoThreads) {
  std::vector<double> cells = randomCells(1000003, 11);
  F64 values(cells);
  for (int32_t threads : {1, 2}) {
    ThreadScope scope(threads);
    double sum = 0, sumsq = 0, magnitude = 0, lo = INFINITY, hi = -INFINITY;
    for (double x : cells) {
      sum += x;
      sumsq += x * x;
      magnitude += std::fabs(x);
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    EXPECT_TRUE(close(_mlir_ciface_amls_rt_values_reduce(values.desc(), 0), sum,
                      magnitude));
    EXPECT_TRUE(close(_mlir_ciface_amls_rt_values_reduce(values.desc(), 1),
                      sumsq, sumsq));
    EXPECT_EQ(_mlir_ciface_amls_rt_values_reduce(values.desc(), 2), lo);
    EXPECT_EQ(_mlir_ciface_amls_rt_values_reduce(values.desc(), 3), hi);
  }
}

// Op codes outside ABI.h's enums stop with a message instead of running
// as some other op.
TEST(SparseMergeDeathTest, RejectsUnknownCodes) {
  Csr a = makeCase("big");
  EXPECT_EXIT(merge(a, a.rowptr.desc(), a.colidx.desc(), a.values.desc(), 7),
              ::testing::ExitedWithCode(1), "CSR merge.*unknown merge op 7");
  F64 values(std::vector<double>{1, 2, 3});
  EXPECT_EXIT(_mlir_ciface_amls_rt_values_reduce(values.desc(), 9),
              ::testing::ExitedWithCode(1), "unknown aggregation kind 9");
}

} // namespace
