//===- CudaRuntimeTest.cpp - libamls_cuda_runtime without a device -------===//
//
// What the GPU runtime does on a machine without a GPU: loading the driver
// and saying what is missing, the toolkit's stub driver refusing to
// initialize, chip names, the pool taking its blocks from another source
// (how --target=gpu backs it with managed memory), and dense products:
// cuBLAS loaded or named missing, the column-major call planned for a
// row-major product (checked against a reference gemm), and what runs on
// the CPU instead; the bulk migrations' small blocks and device check.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
#include "AMLS/Runtime/CUDA.h"
#include "AMLS/Runtime/Failure.h"
#include "AMLS/Runtime/Memory.h"

#include "CudaTestSupport.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <vector>

using namespace amls::runtime;

namespace {

bool exists(const char *path) {
  struct stat info;
  return stat(path, &info) == 0;
}

TEST(CudaRuntimeTest, MissingDriverIsNamed) {
  std::string problem = cuda::loadDriver("libamls-no-such-driver.so.1");
  EXPECT_NE(problem.find("no CUDA driver"), std::string::npos) << problem;
  EXPECT_NE(problem.find("libamls-no-such-driver.so.1"), std::string::npos)
      << problem;
}

TEST(CudaRuntimeTest, LibraryWithoutTheDriverFunctionsIsRefused) {
  std::string problem = cuda::loadDriver("libm.so.6");
  EXPECT_EQ(problem, "no CUDA driver: libm.so.6 lacks cuInit");
}

TEST(CudaRuntimeTest, StubDriverHasNoDevice) {
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (exists("/dev/nvidiactl"))
    GTEST_SKIP() << "a real driver is installed";
  AMLS_REQUIRE_CUDA_TOOLKIT(exists(stub),
                            std::string("the stub driver ") + stub);
  // The stub has every entry point, so it loads; cuInit then refuses.
  EXPECT_EQ(cuda::loadDriver(stub), "");
  std::string problem = cuda::initialize();
  EXPECT_NE(problem.find("no CUDA device: cuInit failed: "
                         "CUDA_ERROR_STUB_LIBRARY"),
            std::string::npos)
      << problem;
  // The answer is kept.
  EXPECT_EQ(cuda::initialize(), problem);
}

TEST(CudaRuntimeTest, ChipNames) {
  EXPECT_EQ(cuda::chipName(9, 0), "sm_90");
  EXPECT_EQ(cuda::chipName(8, 6), "sm_86");
  EXPECT_EQ(cuda::chipName(10, 0), "sm_100");
}

TEST(CublasTest, MissingLibraryIsNamed) {
  std::string problem = cuda::loadCublas("libamls-no-such-cublas.so");
  EXPECT_NE(problem.find("no cuBLAS"), std::string::npos) << problem;
  EXPECT_NE(problem.find("libamls-no-such-cublas.so"), std::string::npos)
      << problem;
}

TEST(CublasTest, LibraryWithoutTheFunctionsIsRefused) {
  EXPECT_EQ(cuda::loadCublas("libm.so.6"),
            "no cuBLAS: libm.so.6 lacks cublasCreate_v2");
}

TEST(CublasTest, TheToolkitsLibraryLoads) {
  // cuBLAS loads without a driver (it needs one only to create a handle).
  AMLS_REQUIRE_CUDA_TOOLKIT(exists("/usr/local/cuda/lib64/libcublas.so"),
                            "the toolkit's cuBLAS");
  EXPECT_EQ(cuda::loadCublas(), "") << cuda::cublasLibraryCandidates();
}

/// BLAS's column-major gemm as the reference says it: C := op(X) op(Y) + C,
/// op(X) m x k, op(Y) k x n, all column-major with leading dimensions.
void referenceGemm(bool transposeX, bool transposeY, int m, int n, int k,
                   const double *x, int ldx, const double *y, int ldy,
                   double *c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double sum = 0;
      for (int p = 0; p < k; ++p) {
        double xv = transposeX ? x[p + i * ldx] : x[i + p * ldx];
        double yv = transposeY ? y[j + p * ldy] : y[p + j * ldy];
        sum += xv * yv;
      }
      c[i + j * ldc] += sum;
    }
}

/// An m x n matrix stored row-major (or column-major) with `pad` unused
/// elements after each row (column).
struct Stored {
  int64_t rows, cols;
  bool rowMajor;
  int64_t leading;
  std::vector<double> cells;
  Stored(int64_t rows, int64_t cols, bool rowMajor, int64_t pad)
      : rows(rows), cols(cols), rowMajor(rowMajor),
        leading((rowMajor ? cols : rows) + pad),
        cells(leading * (rowMajor ? rows : cols), -1.0) {}
  double &at(int64_t r, int64_t c) {
    return rowMajor ? cells[r * leading + c] : cells[r + c * leading];
  }
  cuda::MatrixLayout layout() const {
    return rowMajor ? cuda::MatrixLayout{rows, cols, leading, 1}
                    : cuda::MatrixLayout{rows, cols, 1, leading};
  }
};

/// The operands of C += A B for one shape (m x k times k x n) and one of
/// four layouts of A and B (padded leading dimensions; C row-major and
/// padded), filled with small integers, and the check of C afterwards.
struct Product {
  Stored a, b, c;
  std::vector<double> before;
  Product(int64_t m, int64_t k, int64_t n, int layouts)
      : a(m, k, layouts & 1, 2), b(k, n, layouts & 2, 1),
        c(m, n, /*rowMajor=*/true, 3) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p)
        a.at(i, p) = double(i * 7 + p * 3 % 5) - 4;
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        b.at(p, j) = double(p * 2 - j * 5 % 7) + 1;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        c.at(i, j) = double(i + j);
    before = c.cells;
  }
  /// C is its initial value plus A B, and the padding after its rows is
  /// untouched.
  void expectProduct(const std::string &what) {
    for (int64_t i = 0; i < c.rows; ++i)
      for (int64_t j = 0; j < c.cols; ++j) {
        double expected = double(i + j);
        for (int64_t p = 0; p < a.cols; ++p)
          expected += a.at(i, p) * b.at(p, j);
        EXPECT_EQ(c.at(i, j), expected) << what << ", cell " << i << "," << j;
      }
    for (int64_t i = 0; i < c.rows; ++i)
      for (int64_t j = c.cols; j < c.leading; ++j)
        EXPECT_EQ(c.cells[i * c.leading + j], before[i * c.leading + j]);
  }
};

struct Shape {
  int64_t m, k, n;
};

/// Calls `test` on the operands of C += A B for each of `shapes` (m x k
/// times k x n) in each of the four layouts of A and B, with a description.
template <typename Test>
void forEachProduct(std::initializer_list<Shape> shapes, Test test) {
  for (Shape shape : shapes)
    for (int layouts = 0; layouts < 4; ++layouts) {
      Product product(shape.m, shape.k, shape.n, layouts);
      test(product, std::to_string(shape.m) + "x" + std::to_string(shape.k) +
                        "x" + std::to_string(shape.n) + ", layouts " +
                        std::to_string(layouts));
    }
}

TEST(CublasTest, GemmPlanComputesTheRowMajorProduct) {
  // Every layout of A and B, padded leading dimensions, and vector shapes:
  // the planned column-major call gives C += A B (C row-major).
  forEachProduct({{3, 4, 5}, {1, 4, 5}, {3, 4, 1}, {3, 1, 5}, {6, 6, 6}},
                 [](Product &product, const std::string &what) {
                   Stored &a = product.a, &b = product.b, &c = product.c;
                   std::optional<cuda::CublasGemm> plan =
                       cuda::planCublasGemm(a.layout(), b.layout(), c.layout());
                   ASSERT_TRUE(plan) << what;
                   referenceGemm(plan->transposeFirst, plan->transposeSecond,
                                 plan->m, plan->n, plan->k, b.cells.data(),
                                 plan->ldFirst, a.cells.data(), plan->ldSecond,
                                 c.cells.data(), plan->ldResult);
                   product.expectProduct(what);
                 });
}

/// y += op(M) x for a column-major rows x cols M: what cuBLAS's gemv
/// computes with alpha = beta = 1.
void referenceGemv(bool transpose, int rows, int cols, const double *m, int ld,
                   const double *x, int incX, double *y, int incY) {
  int outputs = transpose ? cols : rows, inputs = transpose ? rows : cols;
  for (int i = 0; i < outputs; ++i) {
    double sum = 0;
    for (int p = 0; p < inputs; ++p)
      sum += (transpose ? m[p + i * ld] : m[i + p * ld]) * x[p * incX];
    y[i * incY] += sum;
  }
}

TEST(CublasTest, GemvPlanComputesTheRowMajorProduct) {
  // Matrix-vector and vector-matrix products (and a dot product), every
  // layout of the matrix, padded leading dimensions, vectors that are a
  // column of a wider matrix (stride): the planned gemv gives C += A B.
  forEachProduct({{5, 4, 1}, {1, 4, 5}, {1, 6, 1}, {7, 1, 1}, {1, 1, 3}},
                 [](Product &product, const std::string &what) {
                   Stored &a = product.a, &b = product.b, &c = product.c;
                   std::optional<cuda::CublasGemv> plan =
                       cuda::planCublasGemv(a.layout(), b.layout(), c.layout());
                   ASSERT_TRUE(plan) << what;
                   const Stored &matrix = plan->matrixIsFirst ? a : b;
                   const Stored &vector = plan->matrixIsFirst ? b : a;
                   referenceGemv(plan->transpose, plan->rows, plan->cols,
                                 matrix.cells.data(), plan->ld,
                                 vector.cells.data(), plan->incVector,
                                 c.cells.data(), plan->incResult);
                   product.expectProduct(what);
                 });
}

TEST(CublasTest, GemvPlanOnlyForVectors) {
  cuda::MatrixLayout square{4, 4, 4, 1}, column{4, 1, 1, 1};
  // C with several rows and columns is gemm's; a matrix operand without a
  // unit stride is not cuBLAS's at all.
  EXPECT_FALSE(cuda::planCublasGemv(square, square, square));
  EXPECT_TRUE(cuda::planCublasGemv(square, column, column));
  EXPECT_FALSE(cuda::planCublasGemv({4, 4, 8, 2}, column, column));
  EXPECT_FALSE(
      cuda::planCublasGemv({4, 4, int64_t(1) << 32, 1}, column, column));
}

/// The calls CublasSyrk describes, as the BLAS reference defines them
/// (alpha, beta and the scratch as the runtime passes them): C += S + t(S),
/// S the lower triangle of op(M) t(op(M)) with its diagonal halved.
void referenceSymmetricProduct(const cuda::CublasSyrk &plan, const double *m,
                               double *c) {
  int n = plan.n;
  std::vector<double> s(size_t(n) * n, 0.0);
  // syrk, lower: S(i,j) = sum_p op(M)(i,p) op(M)(j,p) for i >= j.
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      double sum = 0;
      for (int p = 0; p < plan.k; ++p) {
        auto at = [&](int row) {
          return plan.transpose ? m[p + row * plan.ld] : m[row + p * plan.ld];
        };
        sum += at(i) * at(j);
      }
      s[i + j * n] = sum;
    }
  for (int i = 0; i < n; ++i) // scal(n, 1/2, S, n + 1)
    s[i * (n + 1)] *= 0.5;
  for (bool transpose : {false, true}) // geam, in place: C = C + op(S)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        c[i + j * plan.ldResult] += transpose ? s[j + i * n] : s[i + j * n];
}

TEST(CublasTest, SyrkPlanComputesTheSymmetricProduct) {
  // X (rows x cols) stored row- or column-major with padding: t(X) X is
  // A = t(X)'s view times B = X, X t(X) is A = X times B = t(X)'s view.
  for (bool rowMajor : {true, false})
    for (bool left : {true, false})
      for (auto [rows, cols] :
           {std::pair<int64_t, int64_t>{7, 3}, {3, 7}, {5, 1}, {2, 2}}) {
        Stored x(rows, cols, rowMajor, 2);
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t j = 0; j < cols; ++j)
            x.at(i, j) = double((i * 5 + j * 3) % 7) - 3;
        cuda::MatrixLayout plain = x.layout();
        cuda::MatrixLayout transposed{plain.cols, plain.rows, plain.colStride,
                                      plain.rowStride};
        cuda::MatrixLayout a = left ? transposed : plain;
        cuda::MatrixLayout b = left ? plain : transposed;
        std::string what = std::string(left ? "t(X) X" : "X t(X)") + ", " +
                           std::to_string(rows) + "x" + std::to_string(cols) +
                           (rowMajor ? " row-major" : " column-major");
        if (a.rows < 2) {
          EXPECT_FALSE(cuda::planCublasSyrk(a, b, {1, 1, 1, 1}, 1)) << what;
          continue;
        }
        Stored c(a.rows, a.rows, /*rowMajor=*/true, 3);
        for (int64_t i = 0; i < c.rows; ++i)
          for (int64_t j = 0; j < c.cols; ++j)
            c.at(i, j) = double(i - 2 * j);
        std::vector<double> before = c.cells;
        // Any inner dimension, for the arithmetic (the default threshold
        // is checked below).
        std::optional<cuda::CublasSyrk> plan =
            cuda::planCublasSyrk(a, b, c.layout(), /*minInner=*/1);
        ASSERT_TRUE(plan) << what;
        EXPECT_EQ(plan->n, a.rows) << what;
        EXPECT_EQ(plan->k, a.cols) << what;
        referenceSymmetricProduct(*plan, x.cells.data(), c.cells.data());
        for (int64_t i = 0; i < c.rows; ++i)
          for (int64_t j = 0; j < c.cols; ++j) {
            double expected = double(i - 2 * j);
            for (int64_t p = 0; p < a.cols; ++p)
              expected +=
                  left ? x.at(p, i) * x.at(p, j) : x.at(i, p) * x.at(j, p);
            EXPECT_EQ(c.at(i, j), expected)
                << what << ", cell " << i << "," << j;
          }
        for (int64_t i = 0; i < c.rows; ++i)
          for (int64_t j = c.cols; j < c.leading; ++j)
            EXPECT_EQ(c.cells[i * c.leading + j], before[i * c.leading + j]);
      }
}

TEST(CublasTest, SyrkPlanOnlyForATransposedSelf) {
  cuda::MatrixLayout x{6, 4, 4, 1}, xT{4, 6, 1, 4}, c{4, 4, 4, 1};
  EXPECT_TRUE(cuda::planCublasSyrk(xT, x, c, 1));
  // A short inner dimension is gemm's (the default threshold), a long one
  // syrk's; an order beyond cuBLAS's int indices of the scratch is gemm's.
  EXPECT_FALSE(cuda::planCublasSyrk(xT, x, c));
  cuda::MatrixLayout tall{cuda::kSyrkMinInner, 4, 4, 1},
      tallT{4, cuda::kSyrkMinInner, 1, 4};
  EXPECT_TRUE(cuda::planCublasSyrk(tallT, tall, c));
  cuda::MatrixLayout wide{cuda::kSyrkMaxOrder + 1, 600, 600, 1},
      wideT{600, cuda::kSyrkMaxOrder + 1, 1, 600};
  EXPECT_FALSE(
      cuda::planCublasSyrk(wide, wideT,
                           {cuda::kSyrkMaxOrder + 1, cuda::kSyrkMaxOrder + 1,
                            cuda::kSyrkMaxOrder + 1, 1}));
  // B is not A's transposed view: another layout, another shape, a plain
  // product of X with a matrix of the same layout.
  EXPECT_FALSE(cuda::planCublasSyrk(xT, {6, 4, 5, 1}, c, 1));
  EXPECT_FALSE(cuda::planCublasSyrk({4, 4, 4, 1}, {4, 4, 4, 1}, c, 1));
  // A vector C (gemv's), a C of the wrong size, no unit stride.
  EXPECT_FALSE(
      cuda::planCublasSyrk({1, 6, 1, 4}, {6, 1, 4, 1}, {1, 1, 1, 1}, 1));
  EXPECT_FALSE(cuda::planCublasSyrk(xT, x, {5, 5, 5, 1}, 1));
  EXPECT_FALSE(cuda::planCublasSyrk({4, 6, 2, 8}, {6, 4, 8, 2}, c, 1));
}

TEST(CublasTest, GemmPlanRefusesWhatCublasCannotTake) {
  cuda::MatrixLayout plain{4, 4, 4, 1};
  // No unit stride (every other column), a column-major C, a leading
  // dimension beyond int.
  EXPECT_FALSE(cuda::planCublasGemm({4, 4, 8, 2}, plain, plain));
  EXPECT_FALSE(cuda::planCublasGemm(plain, plain, {4, 4, 1, 4}));
  EXPECT_FALSE(cuda::planCublasGemm(plain, {4, 4, int64_t(1) << 32, 1}, plain));
}

std::atomic<int> sourceBlocks{0};
void *allocateCounted(uint64_t bytes) {
  ++sourceBlocks;
  return std::aligned_alloc(memory::kAlignment, bytes);
}
void releaseCounted(void *block) {
  --sourceBlocks;
  std::free(block);
}
const memory::BlockSource countedSource = {allocateCounted, releaseCounted};

TEST(MemoryBlockSourceTest, BlocksComeFromTheInstalledSource) {
  memory::trim();
  void *before = memory::allocate(4096);
  memory::setBlockSource(&countedSource);
  void *first = memory::allocate(4096);
  void *second = memory::allocate(1 << 20);
  EXPECT_EQ(sourceBlocks.load(), 2);
  // Freed and allocated again: reused from the pool, no new block.
  memory::release(first);
  void *again = memory::allocate(4096);
  EXPECT_EQ(sourceBlocks.load(), 2);
  // A system block freed now is not cached for the new source's users.
  memory::release(before);
  void *third = memory::allocate(4096);
  EXPECT_EQ(sourceBlocks.load(), 3);
  memory::release(again);
  memory::release(second);
  memory::release(third);
  // Back to the system: the cached blocks return to their source.
  memory::setBlockSource(nullptr);
  EXPECT_EQ(sourceBlocks.load(), 0);
  void *system = memory::allocate(4096);
  EXPECT_EQ(sourceBlocks.load(), 0);
  memory::release(system);
}

/// Blocks whose header sits alone in the page before the payload (the
/// managed memory of --target=gpu).
std::atomic<void *> lastBlock{nullptr};
void *allocatePaged(uint64_t bytes) {
  void *block = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  lastBlock = block;
  ++sourceBlocks;
  return block;
}
const memory::BlockSource pagedSource = {allocatePaged, releaseCounted,
                                         /*headerBytes=*/4096};

TEST(MemoryBlockSourceTest, HeaderPageKeepsThePayloadApart) {
  memory::trim();
  memory::setBlockSource(&pagedSource);
  for (uint64_t bytes : {uint64_t(8), uint64_t(4096), uint64_t(1) << 20}) {
    void *buffer = memory::allocate(bytes);
    // The payload starts on the page after the block's first.
    EXPECT_EQ(static_cast<char *>(buffer) -
                  static_cast<char *>(lastBlock.load()),
              4096);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer) % 4096, 0u);
    std::memset(buffer, 0xab, bytes);
    memory::release(buffer);
    // Reused: the pool recognises its own block with the page in front.
    int blocks = sourceBlocks.load();
    void *again = memory::allocate(bytes);
    EXPECT_EQ(again, buffer);
    EXPECT_EQ(sourceBlocks.load(), blocks);
    memory::release(again);
  }
  memory::setBlockSource(nullptr);
  EXPECT_EQ(sourceBlocks.load(), 0);
}

} // namespace

extern "C" void _mlir_ciface_amls_rt_gpu_gemm_f64(AmlsMatrixF64 *a,
                                                  AmlsMatrixF64 *b,
                                                  AmlsMatrixF64 *c);

namespace {

TEST(CublasTest, ProductsCublasCannotTakeRunOnTheCPU) {
  // A with every other column of a 3 x 4 array (no unit stride): the
  // CPU's BLAS computes C += A B over the same memory, without a device.
  double wide[12] = {1, 9, 2, 9, 3, 9, 4, 9, 5, 9, 6, 9};
  double bCells[2] = {10, 1};
  double cCells[3] = {0.5, 0.5, 0.5};
  AmlsMatrixF64 a{wide, wide, 0, {3, 2}, {4, 2}};
  AmlsMatrixF64 b{bCells, bCells, 0, {2, 1}, {1, 1}};
  AmlsMatrixF64 c{cCells, cCells, 0, {3, 1}, {1, 1}};
  cuda::resetStatistics();
  _mlir_ciface_amls_rt_gpu_gemm_f64(&a, &b, &c);
  // A = [1 2; 3 4; 5 6]: A (10, 1) = (12, 34, 56).
  EXPECT_EQ(cCells[0], 12.5);
  EXPECT_EQ(cCells[1], 34.5);
  EXPECT_EQ(cCells[2], 56.5);
  EXPECT_EQ(cuda::getStatistics().cpuProducts, 1u);
  EXPECT_EQ(cuda::getStatistics().cublasProducts, 0u);
}

TEST(CublasTest, ProductsOnCublasNeedTheDevice) {
  AMLS_REQUIRE_CUDA_TOOLKIT(cuda::loadCublas().empty(), "cuBLAS");
  double aCells[4] = {1, 2, 3, 4}, bCells[4] = {5, 6, 7, 8};
  double cCells[4] = {0, 0, 0, 0};
  AmlsMatrixF64 a{aCells, aCells, 0, {2, 2}, {2, 1}};
  AmlsMatrixF64 b{bCells, bCells, 0, {2, 2}, {2, 1}};
  AmlsMatrixF64 c{cCells, cCells, 0, {2, 2}, {2, 1}};
  // Without a device the program stops saying so (host memory is not
  // what cuBLAS takes, and nothing was computed).
  if (!amls::runtime::testing::runNeedingTheDevice(
          [&] { _mlir_ciface_amls_rt_gpu_gemm_f64(&a, &b, &c); }))
    return;
  // A device: these operands are host memory (not managed), which cuBLAS
  // is not given; the CPU computes [1 2; 3 4] [5 6; 7 8] = [19 22; 43 50].
  EXPECT_EQ(cuda::getStatistics().cublasProducts, 0u);
  EXPECT_EQ(cCells[0], 19);
  EXPECT_EQ(cCells[1], 22);
  EXPECT_EQ(cCells[2], 43);
  EXPECT_EQ(cCells[3], 50);
}

} // namespace

namespace {

TEST(CudaRuntimeTest, PrefetchLeavesSmallBlocksAlone) {
  // Blocks that stay on the host are not migrated, and no driver is
  // needed to decide that.
  std::vector<double> cells(16);
  cuda::resetStatistics();
  amls_rt_gpu_prefetch(reinterpret_cast<int64_t>(cells.data()),
                       int64_t(cuda::kHostPreferredBytes), 1);
  EXPECT_EQ(cuda::getStatistics().migrationsToDevice, 0u);
  EXPECT_EQ(cuda::getStatistics().migrationsToHost, 0u);
}

TEST(CudaRuntimeTest, PrefetchOfLargeBlocksNeedsTheDevice) {
  std::vector<double> cells(cuda::kHostPreferredBytes / sizeof(double) + 1);
  cuda::resetStatistics();
  if (!amls::runtime::testing::runNeedingTheDevice([&] {
        amls_rt_gpu_prefetch(reinterpret_cast<int64_t>(cells.data()),
                             int64_t(cells.size() * sizeof(double)), 1);
      }))
    return;
  // A device: host memory is not managed, and stays where it is.
  EXPECT_EQ(cuda::getStatistics().migrationsToDevice, 0u);
}

} // namespace
