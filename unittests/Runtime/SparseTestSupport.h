//===- SparseTestSupport.h - CSR test matrices and oracles ------*- C++ -*-===//
//
// The CSR kernels' tests compare every kernel with a plain dense loop over
// the same matrix. This header builds the test matrices (random ones with
// empty rows and columns, all-zero, fully stored, one row or column, no
// rows or columns, stored zeros, a few very long columns, power-law rows,
// a matrix much wider than its entries, one large enough for two threads,
// one row holding most of the entries)
// and the descriptors the kernels take. Buffers start a few elements into
// their storage, so that kernels must honour descriptor offsets.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_UNITTESTS_RUNTIME_SPARSETESTSUPPORT_H
#define AMLS_UNITTESTS_RUNTIME_SPARSETESTSUPPORT_H

#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace amls::sparsetest {

/// Elements before a buffer's first one (the descriptor's offset).
constexpr int64_t kPad = 3;

/// A 1-D buffer passed as a memref descriptor with offset kPad.
template <typename T, typename Descriptor> class Buffer {
public:
  explicit Buffer(int64_t size = 0, T fill = T()) : storage(size + kPad, fill) {
    std::fill(storage.begin(), storage.begin() + kPad, T(-77));
  }
  Buffer(const std::vector<T> &values) : Buffer(values.size()) {
    std::copy(values.begin(), values.end(), storage.begin() + kPad);
  }

  int64_t size() const { return static_cast<int64_t>(storage.size()) - kPad; }
  T &operator[](int64_t i) { return storage[kPad + i]; }
  T operator[](int64_t i) const { return storage[kPad + i]; }
  std::vector<T> values() const {
    return std::vector<T>(storage.begin() + kPad, storage.end());
  }
  Descriptor *desc() {
    descriptor = {storage.data(), storage.data(), kPad, {size()}, {1}};
    return &descriptor;
  }

private:
  std::vector<T> storage;
  Descriptor descriptor;
};

using I64 = Buffer<int64_t, AmlsVectorI64>;
using I32 = Buffer<int32_t, AmlsVectorI32>;
using F64 = Buffer<double, AmlsVectorF64>;

/// A CSR matrix owned by a test.
struct Csr {
  int64_t rows = 0, cols = 0;
  I64 rowptr{1, 0};
  I32 colidx;
  F64 values;

  int64_t nnz() const { return rowptr[rows]; }
  /// Whether (r, c) is stored, and its value (0 if not).
  bool stored(int64_t r, int64_t c) const {
    for (int64_t k = rowptr[r]; k < rowptr[r + 1]; ++k)
      if (colidx[k] == c)
        return true;
    return false;
  }
  std::vector<double> dense() const {
    std::vector<double> cells(rows * cols, 0.0);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t k = rowptr[r]; k < rowptr[r + 1]; ++k)
        cells[r * cols + colidx[k]] = values[k];
    return cells;
  }
  /// Stored-ness of every cell, row-major.
  std::vector<char> pattern() const {
    std::vector<char> cells(rows * cols, 0);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t k = rowptr[r]; k < rowptr[r + 1]; ++k)
        cells[r * cols + colidx[k]] = 1;
    return cells;
  }
};

/// A CSR matrix storing the cells of `dense` for which `keep` holds.
template <typename Keep>
Csr csrOf(int64_t rows, int64_t cols, const std::vector<double> &dense,
          Keep keep) {
  Csr m;
  m.rows = rows;
  m.cols = cols;
  std::vector<int64_t> rowptr{0};
  std::vector<int32_t> colidx;
  std::vector<double> values;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c)
      if (keep(r, c)) {
        colidx.push_back(static_cast<int32_t>(c));
        values.push_back(dense[r * cols + c]);
      }
    rowptr.push_back(static_cast<int64_t>(colidx.size()));
  }
  m.rowptr = I64(rowptr);
  m.colidx = I32(colidx);
  m.values = F64(values);
  return m;
}

inline Csr csrOfNonZeros(int64_t rows, int64_t cols,
                         const std::vector<double> &dense) {
  return csrOf(rows, cols, dense,
               [&](int64_t r, int64_t c) { return dense[r * cols + c] != 0; });
}

/// Layouts of dense operands: row-major, row-major with padded rows and an
/// offset, column-major (a transposed view) with padding.
enum class Layout { RowMajor, Padded, ColumnMajor };

/// A dense matrix in one of the layouts.
struct Dense {
  Dense(int64_t rows, int64_t cols, Layout layout = Layout::RowMajor)
      : rows(rows), cols(cols) {
    switch (layout) {
    case Layout::RowMajor:
      rowStride = cols;
      colStride = 1;
      offset = 0;
      break;
    case Layout::Padded:
      rowStride = cols + 2;
      colStride = 1;
      offset = 1;
      break;
    case Layout::ColumnMajor:
      rowStride = 1;
      colStride = rows + 3;
      offset = 2;
      break;
    }
    storage.assign(offset +
                       std::max<int64_t>(rows * rowStride, cols * colStride) +
                       cols + rows + 4,
                   -999.0);
    if (layout == Layout::RowMajor)
      std::fill(storage.begin(), storage.begin() + rows * cols, 0.0);
  }
  Dense(int64_t rows, int64_t cols, const std::vector<double> &cells,
        Layout layout = Layout::RowMajor)
      : Dense(rows, cols, layout) {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        at(r, c) = cells[r * cols + c];
  }

  double &at(int64_t r, int64_t c) {
    return storage[offset + r * rowStride + c * colStride];
  }
  std::vector<double> cells() {
    std::vector<double> result(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        result[r * cols + c] = at(r, c);
    return result;
  }
  AmlsMatrixF64 *desc() {
    descriptor = {storage.data(),
                  storage.data(),
                  offset,
                  {rows, cols},
                  {rowStride, colStride}};
    return &descriptor;
  }

  int64_t rows, cols, rowStride = 0, colStride = 0, offset = 0;
  std::vector<double> storage;
  AmlsMatrixF64 descriptor;
};

inline std::vector<double> randomCells(int64_t n, uint64_t seed,
                                       double low = -2, double high = 2) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(low, high);
  std::vector<double> cells(n);
  for (double &cell : cells)
    cell = value(rng);
  return cells;
}

/// The test matrices by name (see the file comment); `special` marks the
/// one holding NaN, infinities and signed zeros.
inline std::vector<std::string> caseNames() {
  return {"random",   "zeros",  "full",        "row",     "column",
          "norows",   "nocols", "storedzeros", "special", "longcolumns",
          "powerlaw", "wide",   "big",         "heavyrow"};
}

inline Csr makeCase(const std::string &name) {
  std::mt19937_64 rng(std::hash<std::string>()(name));
  std::uniform_real_distribution<double> value(-2, 2), unit(0, 1);
  auto random = [&](int64_t rows, int64_t cols, double density,
                    auto &&extraKeep) {
    std::vector<double> cells(rows * cols);
    std::vector<char> keep(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        cells[r * cols + c] = value(rng);
        keep[r * cols + c] = unit(rng) < density || extraKeep(r, c) ? 1 : 0;
      }
    return csrOf(rows, cols, cells,
                 [&](int64_t r, int64_t c) { return keep[r * cols + c]; });
  };
  auto none = [](int64_t, int64_t) { return false; };
  if (name == "random") {
    // Rows 3 and 10 and columns 5 and 6 empty.
    std::vector<double> cells = randomCells(37 * 23, 1);
    return csrOf(37, 23, cells, [&](int64_t r, int64_t c) {
      return r != 3 && r != 10 && c != 5 && c != 6 && (r * 7 + c * 3) % 5 == 0;
    });
  }
  if (name == "zeros")
    return random(9, 7, 0.0, none);
  if (name == "full")
    return random(11, 6, 1.0, none);
  if (name == "row")
    return random(1, 40, 0.3, none);
  if (name == "column")
    return random(50, 1, 0.4, none);
  if (name == "norows")
    return random(0, 5, 0.5, none);
  if (name == "nocols")
    return random(6, 0, 0.5, none);
  if (name == "storedzeros") {
    Csr m = random(20, 15, 0.3, none);
    for (int64_t k = 0; k < m.nnz(); k += 4)
      m.values[k] = k % 8 ? 0.0 : -0.0;
    return m;
  }
  if (name == "special") {
    double nan = std::numeric_limits<double>::quiet_NaN(),
           inf = std::numeric_limits<double>::infinity();
    std::vector<double> cells = {nan, 1,    0,    0,  0,   //
                                 0,   -inf, 2,    0,  0,   //
                                 0,   0,    -0.0, 0,  0,   //
                                 inf, 0,    0,    0,  nan, //
                                 -3,  -1,   -2,   0,  -4,  //
                                 -1,  -2,   -3,   -4, -5};
    // Row 4 stores its zero, row 2 a negative zero.
    return csrOf(6, 5, cells, [&](int64_t r, int64_t c) {
      return cells[r * 5 + c] != 0 || r == 4 || (r == 2 && c == 2);
    });
  }
  if (name == "longcolumns")
    // Columns 0, 7 and 39 full: most entries meet in a few columns.
    return random(20000, 40, 0.05, [](int64_t, int64_t c) {
      return c == 0 || c == 7 || c == 39;
    });
  if (name == "powerlaw") {
    // Row degrees fall as 1 / rank, the heavy rows scattered.
    int64_t n = 2000;
    std::vector<int64_t> rank(n);
    for (int64_t i = 0; i < n; ++i)
      rank[i] = i;
    std::shuffle(rank.begin(), rank.end(), rng);
    std::vector<double> cells(n * n);
    std::vector<char> keep(n * n, 0);
    for (int64_t r = 0; r < n; ++r) {
      int64_t degree = std::min<int64_t>(n, 10000 / (rank[r] + 1) + 1);
      for (int64_t d = 0; d < degree; ++d) {
        int64_t c = static_cast<int64_t>(unit(rng) * n) % n;
        keep[r * n + c] = 1;
        cells[r * n + c] = value(rng);
      }
    }
    return csrOf(n, n, cells,
                 [&](int64_t r, int64_t c) { return keep[r * n + c]; });
  }
  if (name == "wide")
    return random(30, 60000, 0.04, none);
  if (name == "big")
    return random(600, 500, 0.5, none);
  if (name == "heavyrow")
  // Row 5 full: 50,000 of about 70,000 entries in one row (a split by
  // entries gives it a thread of its own); rows 0-3 empty.
  {
    int64_t rows = 40, cols = 50000;
    std::vector<double> cells = randomCells(rows * cols, 3);
    std::vector<char> keep(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        keep[r * cols + c] = r == 5 || (r > 3 && unit(rng) < 0.01);
    return csrOf(rows, cols, cells,
                 [&](int64_t r, int64_t c) { return keep[r * cols + c]; });
  }
  ADD_FAILURE() << "no test matrix " << name;
  return Csr();
}

/// Cases by name, built once per test binary.
inline const Csr &testCase(const std::string &name) {
  static std::map<std::string, Csr> cache;
  auto found = cache.find(name);
  if (found == cache.end())
    found = cache.emplace(name, makeCase(name)).first;
  return found->second;
}

/// Whether result buffers hold exactly the matrix `want`: the same stored
/// entries (stored zeros included) with the same values.
inline void expectSameCsr(const Csr &want, const std::vector<int64_t> &rowptr,
                          const std::vector<int32_t> &colidx,
                          const std::vector<double> &values) {
  ASSERT_EQ(rowptr, want.rowptr.values());
  ASSERT_EQ(colidx, want.colidx.values());
  ASSERT_EQ(values.size(), static_cast<size_t>(want.nnz()));
  for (int64_t k = 0; k < want.nnz(); ++k)
    EXPECT_TRUE(std::isnan(values[k]) ? std::isnan(want.values[k])
                                      : values[k] == want.values[k] &&
                                            std::signbit(values[k]) ==
                                                std::signbit(want.values[k]))
        << "entry " << k << ": " << values[k] << " != " << want.values[k];
}

/// Whether the CSR buffers are well formed: offsets from 0 to nnz, columns
/// ascending and in range.
/// (std::vector or the runtime's memory::Vector.)
template <typename Offsets, typename Columns>
::testing::AssertionResult wellFormed(const Offsets &rowptr,
                                      const Columns &colidx, int64_t rows,
                                      int64_t cols) {
  if (static_cast<int64_t>(rowptr.size()) != rows + 1 || rowptr[0] != 0 ||
      rowptr[rows] != static_cast<int64_t>(colidx.size()))
    return ::testing::AssertionFailure() << "bad row offsets";
  for (int64_t r = 0; r < rows; ++r) {
    if (rowptr[r] > rowptr[r + 1])
      return ::testing::AssertionFailure() << "row " << r << " decreasing";
    for (int64_t k = rowptr[r]; k < rowptr[r + 1]; ++k) {
      if (colidx[k] < 0 || colidx[k] >= cols)
        return ::testing::AssertionFailure()
               << "row " << r << ": column " << colidx[k] << " out of range";
      if (k > rowptr[r] && colidx[k] <= colidx[k - 1])
        return ::testing::AssertionFailure()
               << "row " << r << ": columns not ascending";
    }
  }
  return ::testing::AssertionSuccess();
}

/// Equal, NaN equal to NaN.
inline bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

/// |got - want| within a relative 1e-11 of `magnitude` (the sum of the
/// terms' absolute values), or both the same non-finite value.
inline ::testing::AssertionResult close(double got, double want,
                                        double magnitude) {
  if (same(got, want))
    return ::testing::AssertionSuccess();
  if (std::isfinite(want) && std::fabs(got - want) <= 1e-11 * magnitude)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << got << " != " << want << " (magnitude " << magnitude << ")";
}

/// Kernels use `threads` threads while this lives.
class ThreadScope {
public:
  explicit ThreadScope(int32_t threads) : previous(amls_rt_get_num_threads()) {
    amls_rt_set_num_threads(threads);
  }
  ~ThreadScope() { amls_rt_set_num_threads(previous); }

private:
  int32_t previous;
};

/// Parameters: a test matrix and a thread count.
using CaseAndThreads = std::tuple<std::string, int32_t>;

inline std::string
caseLabel(const ::testing::TestParamInfo<CaseAndThreads> &info) {
  return std::get<0>(info.param) + "_" +
         std::to_string(std::get<1>(info.param)) + "threads";
}

/// A test over one named case at one thread count.
class SparseCase : public testing::TestWithParam<CaseAndThreads> {
protected:
  void SetUp() override {
    threads = std::make_unique<ThreadScope>(std::get<1>(GetParam()));
    a = testCase(std::get<0>(GetParam()));
  }
  std::unique_ptr<ThreadScope> threads;
  Csr a;
};

inline auto allCases() {
  return ::testing::Combine(::testing::ValuesIn(caseNames()),
                            ::testing::Values(1, 2));
}

} // namespace amls::sparsetest

#endif // AMLS_UNITTESTS_RUNTIME_SPARSETESTSUPPORT_H
