//===- CusparseTest.cpp - CSR products on cuSPARSE, without a device ------===//
//
// What libamls_cuda_runtime's CSR products do on a machine without a GPU:
// cuSPARSE loaded or named missing, the SpMV/SpMM call planned for each
// product (executed by a reference of cuSPARSE's definitions and compared
// with the product itself), what the plan refuses, and the CSR kernels
// computing what cuSPARSE cannot take.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
#include "AMLS/Runtime/CUDA.h"

#include "CudaTestSupport.h"

#include "gtest/gtest.h"

#include <climits>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace amls::runtime;

extern "C" void _mlir_ciface_amls_rt_gpu_csr_spmm(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsMatrixF64 *b, AmlsMatrixF64 *c);

extern "C" int64_t
_mlir_ciface_amls_rt_gpu_csr_count_dense(AmlsMatrixF64 *x,
                                         AmlsVectorI64 *rowptr);
extern "C" void _mlir_ciface_amls_rt_gpu_csr_from_dense(AmlsMatrixF64 *x,
                                                        AmlsVectorI64 *rowptr,
                                                        AmlsVectorI32 *colidx,
                                                        AmlsVectorF64 *values);

namespace {

using cuda::SparseProduct;

TEST(CusparseTest, MissingLibraryIsNamed) {
  std::string problem = cuda::loadCusparse("libamls-no-such-cusparse.so");
  EXPECT_NE(problem.find("no cuSPARSE"), std::string::npos) << problem;
  EXPECT_NE(problem.find("libamls-no-such-cusparse.so"), std::string::npos)
      << problem;
}

TEST(CusparseTest, LibraryWithoutTheFunctionsIsRefused) {
  EXPECT_EQ(cuda::loadCusparse("libm.so.6"),
            "no cuSPARSE: libm.so.6 lacks cusparseCreate");
}

TEST(CusparseTest, TheToolkitsLibraryLoads) {
  struct stat info;
  AMLS_REQUIRE_CUDA_TOOLKIT(
      stat("/usr/local/cuda/lib64/libcusparse.so", &info) == 0,
      "the toolkit's cuSPARSE");
  EXPECT_EQ(cuda::loadCusparse(), "") << cuda::cusparseLibraryCandidates();
}

/// A rows x cols CSR matrix with an empty row and an empty column, and its
/// cells (which the expected products read).
struct Sparse {
  int64_t rows, cols;
  std::vector<int64_t> rowptr{0};
  std::vector<int32_t> colidx;
  std::vector<double> values;
  Sparse(int64_t rows, int64_t cols) : rows(rows), cols(cols) {
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j + 1 < cols; ++j)
        if (i != 2 && (i * 3 + j) % 4 == 0) {
          colidx.push_back(static_cast<int32_t>(j));
          values.push_back(double(i - j) + 0.5);
        }
      rowptr.push_back(static_cast<int64_t>(colidx.size()));
    }
  }
  double at(int64_t i, int64_t j) const {
    for (int64_t k = rowptr[i]; k < rowptr[i + 1]; ++k)
      if (colidx[k] == j)
        return values[k];
    return 0;
  }
};

/// A dense rows x cols operand stored row- or column-major with padding,
/// or as a column of a wider matrix (`stride` > 1).
struct Dense {
  int64_t rows, cols, rowStride, colStride;
  std::vector<double> cells;
  Dense(int64_t rows, int64_t cols, bool rowMajor, int64_t pad)
      : rows(rows), cols(cols), rowStride(rowMajor ? cols + pad : 1),
        colStride(rowMajor ? 1 : rows + pad),
        cells((rowMajor ? rows * (cols + pad) : cols * (rows + pad)), -7.0) {}
  double &at(int64_t i, int64_t j) {
    return cells[i * rowStride + j * colStride];
  }
  cuda::MatrixLayout layout() const {
    return {rows, cols, rowStride, colStride};
  }
};

/// What cuSPARSE's SpMV and SpMM compute (alpha 1, beta 0), as its
/// documentation defines them: C' = op(A) B' with B' and C' read as their
/// descriptors say.
void referenceCusparse(const cuda::CusparsePlan &plan, const Sparse &a,
                       const double *dense, double *result) {
  auto cell = [](const cuda::CusparseDense &m, int64_t i, int64_t j) {
    return m.rowMajor ? i * m.ld + j : i + j * m.ld;
  };
  int64_t opRows = plan.transposeSparse ? a.cols : a.rows;
  int64_t opCols = plan.transposeSparse ? a.rows : a.cols;
  int64_t width = plan.vector ? 1 : plan.dense.cols;
  for (int64_t i = 0; i < opRows; ++i)
    for (int64_t q = 0; q < width; ++q) {
      double sum = 0;
      for (int64_t p = 0; p < opCols; ++p) {
        double entry = plan.transposeSparse ? a.at(p, i) : a.at(i, p);
        sum += entry * (plan.vector ? dense[p] : dense[cell(plan.dense, p, q)]);
      }
      (plan.vector ? result[i] : result[cell(plan.result, i, q)]) = sum;
    }
}

struct Case {
  SparseProduct kind;
  int64_t width;       // B's columns, or D's rows for DenseSparse
  bool denseRowMajor;  // the dense operand's storage
  bool resultRowMajor; // the result's
  int64_t pad;         // elements after each row or column
  bool expectVector;
};

TEST(CusparseTest, PlanComputesTheProducts) {
  Sparse a(7, 5);
  const Case cases[] = {
      // C = A B: SpMV for contiguous vectors, SpMM for matrices of one
      // order (also strided vectors, as one-column matrices).
      {SparseProduct::SparseDense, 1, true, true, 0, true},
      {SparseProduct::SparseDense, 1, true, true, 2, false},
      {SparseProduct::SparseDense, 3, true, true, 2, false},
      {SparseProduct::SparseDense, 3, false, false, 1, false},
      // C = t(A) B.
      {SparseProduct::TransposedSparseDense, 1, true, true, 0, true},
      {SparseProduct::TransposedSparseDense, 4, true, true, 3, false},
      {SparseProduct::TransposedSparseDense, 4, false, false, 0, false},
      // C = D A as t(C) = t(A) t(D): a row-major D and C are column-major
      // as cuSPARSE reads them; a single row is SpMV's.
      {SparseProduct::DenseSparse, 1, true, true, 0, true},
      {SparseProduct::DenseSparse, 3, true, true, 2, false},
      {SparseProduct::DenseSparse, 3, false, false, 1, false},
  };
  for (const Case &c : cases) {
    bool dense = c.kind == SparseProduct::DenseSparse;
    bool transposed = c.kind == SparseProduct::TransposedSparseDense;
    int64_t inner = transposed || dense ? a.rows : a.cols;
    int64_t outer = transposed || dense ? a.cols : a.rows;
    Dense b = dense ? Dense(c.width, inner, c.denseRowMajor, c.pad)
                    : Dense(inner, c.width, c.denseRowMajor, c.pad);
    Dense result = dense ? Dense(c.width, outer, c.resultRowMajor, c.pad)
                         : Dense(outer, c.width, c.resultRowMajor, c.pad);
    for (int64_t i = 0; i < b.rows; ++i)
      for (int64_t j = 0; j < b.cols; ++j)
        b.at(i, j) = double((i * 5 + j * 3) % 11) - 4;
    std::string what = "kind " + std::to_string(int(c.kind)) + ", width " +
                       std::to_string(c.width) + ", pad " +
                       std::to_string(c.pad) +
                       (c.denseRowMajor ? ", row-major" : ", column-major");
    std::optional<cuda::CusparsePlan> plan = cuda::planCusparseProduct(
        c.kind, a.rows, a.cols, a.values.size(), b.layout(), result.layout());
    ASSERT_TRUE(plan) << what;
    EXPECT_EQ(plan->vector, c.expectVector) << what;
    EXPECT_EQ(plan->transposeSparse, c.kind != SparseProduct::SparseDense)
        << what;
    std::vector<double> before = result.cells;
    referenceCusparse(*plan, a, b.cells.data(), result.cells.data());
    // Every cell is the product's; the padding is untouched.
    std::vector<bool> cellOfResult(result.cells.size(), false);
    for (int64_t i = 0; i < result.rows; ++i)
      for (int64_t j = 0; j < result.cols; ++j) {
        double expected = 0;
        for (int64_t p = 0; p < inner; ++p)
          expected += dense
                          ? b.at(i, p) * a.at(p, j)
                          : (transposed ? a.at(p, i) : a.at(i, p)) * b.at(p, j);
        EXPECT_EQ(result.at(i, j), expected)
            << what << ", cell " << i << "," << j;
        cellOfResult[i * result.rowStride + j * result.colStride] = true;
      }
    for (size_t k = 0; k < result.cells.size(); ++k)
      if (!cellOfResult[k]) {
        EXPECT_EQ(result.cells[k], before[k]) << what << ", padding " << k;
      }
  }
}

TEST(CusparseTest, ToDensePlanWritesEveryCell) {
  // SparseToDense as cuSPARSE defines it, through the planned descriptor:
  // every cell of the result is A's (zeros included), the padding is not.
  Sparse a(7, 5);
  for (bool rowMajor : {true, false}) {
    Dense out(7, 5, rowMajor, 3);
    std::vector<double> before = out.cells;
    std::optional<cuda::CusparsePlan> plan = cuda::planCusparseToDense(
        a.rows, a.cols, a.values.size(), out.layout());
    ASSERT_TRUE(plan);
    EXPECT_TRUE(plan->toDense);
    EXPECT_EQ(plan->result.rowMajor, rowMajor);
    std::vector<bool> cellOfResult(out.cells.size(), false);
    for (int64_t i = 0; i < a.rows; ++i)
      for (int64_t j = 0; j < a.cols; ++j) {
        int64_t at = plan->result.rowMajor ? i * plan->result.ld + j
                                           : i + j * plan->result.ld;
        out.cells[at] = a.at(i, j);
        cellOfResult[at] = true;
      }
    for (int64_t i = 0; i < a.rows; ++i)
      for (int64_t j = 0; j < a.cols; ++j)
        EXPECT_EQ(out.at(i, j), a.at(i, j)) << i << "," << j;
    for (size_t k = 0; k < out.cells.size(); ++k)
      if (!cellOfResult[k]) {
        EXPECT_EQ(out.cells[k], before[k]) << "padding " << k;
      }
  }
  // Another shape, no unit stride, an empty matrix, 32-bit indices.
  EXPECT_FALSE(cuda::planCusparseToDense(7, 5, 10, {7, 4, 4, 1}));
  EXPECT_FALSE(cuda::planCusparseToDense(7, 5, 10, {7, 5, 10, 2}));
  EXPECT_FALSE(cuda::planCusparseToDense(0, 5, 0, {0, 5, 5, 1}));
  EXPECT_FALSE(
      cuda::planCusparseToDense(7, 5, int64_t(INT_MAX) + 1, {7, 5, 5, 1}));
}

TEST(CusparseTest, FromDensePlanReadsTheStoredOrder) {
  std::optional<cuda::CusparseDense> rowMajor =
      cuda::planCusparseFromDense({7, 5, 6, 1});
  ASSERT_TRUE(rowMajor);
  EXPECT_TRUE(rowMajor->rowMajor);
  EXPECT_EQ(rowMajor->ld, 6);
  std::optional<cuda::CusparseDense> columnMajor =
      cuda::planCusparseFromDense({7, 5, 1, 8});
  ASSERT_TRUE(columnMajor);
  EXPECT_FALSE(columnMajor->rowMajor);
  EXPECT_EQ(columnMajor->ld, 8);
  // Empty, no unit stride, more cells than 32-bit indices count.
  EXPECT_FALSE(cuda::planCusparseFromDense({0, 5, 5, 1}));
  EXPECT_FALSE(cuda::planCusparseFromDense({7, 5, 10, 2}));
  EXPECT_FALSE(cuda::planCusparseFromDense({65536, 65536, 65536, 1}));
}

TEST(CusparseTest, FromDenseCuSparseCannotTakeRunsOnTheCPU) {
  // Every other column of a 3 x 8 array (no unit stride): both phases run
  // on the CPU's kernels, without a device, and agree.
  double cells[24] = {0, 9, 1.5, 9, 0, 9, 2, 9, //
                      0, 9, 0,   9, 0, 9, 0, 9, //
                      3, 9, 0,   9, 4, 9, 0, 9};
  AmlsMatrixF64 x{cells, cells, 0, {3, 4}, {8, 2}};
  std::vector<int64_t> rowptr(4, -1);
  AmlsVectorI64 pointers{rowptr.data(), rowptr.data(), 0, {4}, {1}};
  cuda::resetStatistics();
  int64_t nnz = _mlir_ciface_amls_rt_gpu_csr_count_dense(&x, &pointers);
  ASSERT_EQ(nnz, 4);
  EXPECT_EQ(rowptr, (std::vector<int64_t>{0, 2, 2, 4}));
  std::vector<int32_t> colidx(4, -1);
  std::vector<double> values(4, -1);
  AmlsVectorI32 columns{colidx.data(), colidx.data(), 0, {4}, {1}};
  AmlsVectorF64 entries{values.data(), values.data(), 0, {4}, {1}};
  _mlir_ciface_amls_rt_gpu_csr_from_dense(&x, &pointers, &columns, &entries);
  EXPECT_EQ(colidx, (std::vector<int32_t>{1, 3, 0, 2}));
  EXPECT_EQ(values, (std::vector<double>{1.5, 2, 3, 4}));
  EXPECT_EQ(cuda::getStatistics().cpuSparseCalls, 2u);
  EXPECT_EQ(cuda::getStatistics().cusparseCalls, 0u);
}

TEST(CusparseTest, FromDenseOnCusparseNeedsTheDevice) {
  AMLS_REQUIRE_CUDA_TOOLKIT(cuda::loadCusparse().empty(), "cuSPARSE");
  double cells[6] = {0, 1, 0, 2, 0, 3};
  AmlsMatrixF64 x{cells, cells, 0, {2, 3}, {3, 1}};
  std::vector<int64_t> rowptr(3, -1);
  AmlsVectorI64 pointers{rowptr.data(), rowptr.data(), 0, {3}, {1}};
  int64_t nnz = -1;
  if (!amls::runtime::testing::runNeedingTheDevice([&] {
        nnz = _mlir_ciface_amls_rt_gpu_csr_count_dense(&x, &pointers);
      }))
    return;
  // A device: host memory is not given to cuSPARSE; the CPU counts.
  EXPECT_EQ(nnz, 3);
  EXPECT_EQ(rowptr, (std::vector<int64_t>{0, 1, 3}));
}

TEST(CusparseTest, PlanRefusesWhatCusparseCannotTake) {
  cuda::MatrixLayout b{5, 3, 3, 1}, c{7, 3, 3, 1};
  auto plan = [](SparseProduct kind, int64_t rows, int64_t cols, int64_t nnz,
                 cuda::MatrixLayout dense, cuda::MatrixLayout result) {
    return cuda::planCusparseProduct(kind, rows, cols, nnz, dense, result);
  };
  EXPECT_TRUE(plan(SparseProduct::SparseDense, 7, 5, 10, b, c));
  // Shapes that do not match (the CSR kernel reports them).
  EXPECT_FALSE(plan(SparseProduct::SparseDense, 7, 6, 10, b, c));
  EXPECT_FALSE(plan(SparseProduct::SparseDense, 7, 5, 10, b, {7, 4, 4, 1}));
  EXPECT_FALSE(plan(SparseProduct::TransposedSparseDense, 7, 5, 10, b, c));
  // Empty operands, and sizes beyond 32-bit indices.
  EXPECT_FALSE(
      plan(SparseProduct::SparseDense, 7, 5, 10, {5, 0, 1, 1}, {7, 0, 1, 1}));
  EXPECT_FALSE(
      plan(SparseProduct::SparseDense, 7, 5, int64_t(INT_MAX) + 1, b, c));
  // B and C in different orders, or B without a unit stride.
  EXPECT_FALSE(plan(SparseProduct::SparseDense, 7, 5, 10, {5, 3, 1, 5}, c));
  EXPECT_FALSE(plan(SparseProduct::SparseDense, 7, 5, 10, {5, 3, 6, 2}, c));
  // D A with a column-major D (a transposed view) and a row-major C.
  EXPECT_FALSE(
      plan(SparseProduct::DenseSparse, 7, 5, 10, {3, 7, 1, 3}, {3, 5, 5, 1}));
}

/// The CSR arguments of a Sparse.
struct CsrArguments {
  AmlsVectorI64 rowptr;
  AmlsVectorI32 colidx;
  AmlsVectorF64 values;
  explicit CsrArguments(Sparse &a)
      : rowptr{a.rowptr.data(),
               a.rowptr.data(),
               0,
               {int64_t(a.rowptr.size())},
               {1}},
        colidx{a.colidx.data(),
               a.colidx.data(),
               0,
               {int64_t(a.colidx.size())},
               {1}},
        values{a.values.data(),
               a.values.data(),
               0,
               {int64_t(a.values.size())},
               {1}} {}
};

TEST(CusparseTest, ProductsCusparseCannotTakeRunOnTheCPU) {
  // B column-major and C row-major: the CSR kernel computes C = A B over
  // the same memory, without a device.
  Sparse a(7, 5);
  CsrArguments csr(a);
  Dense b(5, 3, /*rowMajor=*/false, 1), c(7, 3, /*rowMajor=*/true, 0);
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 3; ++j)
      b.at(i, j) = double(i + 2 * j);
  AmlsMatrixF64 bView{
      b.cells.data(), b.cells.data(), 0, {5, 3}, {b.rowStride, b.colStride}};
  AmlsMatrixF64 cView{c.cells.data(), c.cells.data(), 0, {7, 3}, {3, 1}};
  cuda::resetStatistics();
  _mlir_ciface_amls_rt_gpu_csr_spmm(&csr.rowptr, &csr.colidx, &csr.values, 5,
                                    &bView, &cView);
  for (int64_t i = 0; i < 7; ++i)
    for (int64_t j = 0; j < 3; ++j) {
      double expected = 0;
      for (int64_t p = 0; p < 5; ++p)
        expected += a.at(i, p) * b.at(p, j);
      EXPECT_EQ(c.at(i, j), expected) << i << "," << j;
    }
  EXPECT_EQ(cuda::getStatistics().cpuSparseCalls, 1u);
  EXPECT_EQ(cuda::getStatistics().cusparseCalls, 0u);
}

TEST(CusparseTest, ProductsOnCusparseNeedTheDevice) {
  AMLS_REQUIRE_CUDA_TOOLKIT(cuda::loadCusparse().empty(), "cuSPARSE");
  Sparse a(7, 5);
  CsrArguments csr(a);
  std::vector<double> bCells(5, 1.0), cCells(7, 0.0);
  AmlsMatrixF64 b{bCells.data(), bCells.data(), 0, {5, 1}, {1, 1}};
  AmlsMatrixF64 c{cCells.data(), cCells.data(), 0, {7, 1}, {1, 1}};
  // Without a device the program stops saying so.
  if (!amls::runtime::testing::runNeedingTheDevice([&] {
        _mlir_ciface_amls_rt_gpu_csr_spmm(&csr.rowptr, &csr.colidx, &csr.values,
                                          5, &b, &c);
      }))
    return;
  // A device: host memory is not given to cuSPARSE; the CSR kernel sums
  // each row of A.
  EXPECT_EQ(cuda::getStatistics().cusparseCalls, 0u);
  for (int64_t i = 0; i < 7; ++i) {
    double expected = 0;
    for (int64_t p = 0; p < 5; ++p)
      expected += a.at(i, p);
    EXPECT_EQ(cCells[i], expected) << i;
  }
}

} // namespace
