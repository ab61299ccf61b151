//===- SparseConversion.cpp - Dense to CSR, CSR to dense, transpose -------===//
//
// Dense to CSR is two passes, as the compiler allocates the buffers in
// between: count the non-zeros of every row (rowptr), then fill. CSR to
// dense (also with replace() mapping every cell, whose result is dense when
// the implicit zeros match its pattern) fills each row, then scatters. The
// transpose is a counting sort by column; with several threads each one
// counts and scatters its own range of rows, and since thread t's rows come
// before thread t+1's in every output row, the result is sorted without a
// sort.
//
//===----------------------------------------------------------------------===//

#include "SparseSupport.h"

using namespace amls::runtime::sparse;

namespace {

/// Non-zeros of a row of `cols` cells `stride` apart (NaN is non-zero).
int64_t countRow(const double *row, int64_t cols, int64_t stride) {
  int64_t count = 0;
  if (stride == 1) {
    for (int64_t j = 0; j < cols; ++j)
      count += row[j] != 0.0;
  } else {
    for (int64_t j = 0; j < cols; ++j)
      count += row[j * stride] != 0.0;
  }
  return count;
}

/// Threads for a pass over the cells of a dense matrix.
int64_t threadsForCells(int64_t rows, int64_t cols) {
  return std::min(threadsFor(rows * cols, 4 * kMinWorkPerThread),
                  std::max<int64_t>(rows, 1));
}

/// o = f(a) for an f with f(0) = `zero`: every cell set to `zero`, then
/// f of every stored value scattered into its row.
template <typename Map>
void scatterToDense(const CsrView &a, const DenseView &o, const char *kernel,
                    double zero, Map f) {
  checkResultShape(o, a.rows, a.cols, a, kernel);
  int64_t threads =
      std::min(threadsFor(a.rows * a.cols + a.nnz(), 4 * kMinWorkPerThread),
               std::max<int64_t>(a.rows, 1));
  runThreads(threads, [&](int64_t t) {
    for (int64_t r = a.rows * t / threads; r < a.rows * (t + 1) / threads;
         ++r) {
      double *row = &o.at(r, 0);
      if (o.colStride == 1) {
        std::fill(row, row + a.cols, zero);
        for (int64_t k = a.begin(r); k < a.end(r); ++k)
          row[a.colidx[k]] = f(a.values[k]);
      } else {
        for (int64_t j = 0; j < a.cols; ++j)
          row[j * o.colStride] = zero;
        for (int64_t k = a.begin(r); k < a.end(r); ++k)
          row[a.colidx[k] * o.colStride] = f(a.values[k]);
      }
    }
  });
}

} // namespace

extern "C" int64_t _mlir_ciface_amls_rt_csr_count_dense(AmlsMatrixF64 *x,
                                                        AmlsVectorI64 *rowptr) {
  static const char *kKernel = "dense to CSR";
  DenseView m = denseOf(x);
  check(rowptr->sizes[0] == m.rows + 1, kKernel, [&] {
    return "row offsets of " + std::to_string(rowptr->sizes[0]) +
           " entries for " + std::to_string(m.rows) + " rows";
  });
  check(m.cols <= std::numeric_limits<int32_t>::max(), kKernel, [&] {
    return "a " + shape(m.rows, m.cols) +
           " matrix has too many columns for CSR (at most 2147483647)";
  });
  int64_t *offsets = rowptr->aligned + rowptr->offset;
  int64_t threads = threadsForCells(m.rows, m.cols);
  runThreads(threads, [&](int64_t t) {
    for (int64_t r = m.rows * t / threads; r < m.rows * (t + 1) / threads; ++r)
      offsets[r + 1] = countRow(&m.at(r, 0), m.cols, m.colStride);
  });
  offsets[0] = 0;
  for (int64_t r = 0; r < m.rows; ++r)
    offsets[r + 1] += offsets[r];
  return offsets[m.rows];
}

extern "C" void _mlir_ciface_amls_rt_csr_from_dense(AmlsMatrixF64 *x,
                                                    AmlsVectorI64 *rowptr,
                                                    AmlsVectorI32 *colidx,
                                                    AmlsVectorF64 *values) {
  DenseView m = denseOf(x);
  CsrOut out = csrOutOf(rowptr, colidx, values);
  int64_t threads = threadsForCells(m.rows, m.cols);
  runThreads(threads, [&](int64_t t) {
    for (int64_t r = m.rows * t / threads; r < m.rows * (t + 1) / threads;
         ++r) {
      const double *row = &m.at(r, 0);
      int64_t k = out.rowptr[r];
      for (int64_t j = 0; j < m.cols; ++j) {
        double value = row[j * m.colStride];
        if (value != 0.0) {
          out.colidx[k] = static_cast<int32_t>(j);
          out.values[k] = value;
          ++k;
        }
      }
    }
  });
}

extern "C" void _mlir_ciface_amls_rt_csr_to_dense(AmlsVectorI64 *a_rowptr,
                                                  AmlsVectorI32 *a_colidx,
                                                  AmlsVectorF64 *a_values,
                                                  int64_t a_cols,
                                                  AmlsMatrixF64 *out) {
  scatterToDense(csrOf(a_rowptr, a_colidx, a_values, a_cols), denseOf(out),
                 "CSR to dense", 0.0, [](double value) { return value; });
}

extern "C" void _mlir_ciface_amls_rt_csr_replace_to_dense(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, double pattern, double replacement, AmlsMatrixF64 *out) {
  // As the dense lowering compares: equal, or both NaN.
  auto replace = [&](double value) {
    bool matches = value == pattern || (value != value && pattern != pattern);
    return matches ? replacement : value;
  };
  scatterToDense(csrOf(a_rowptr, a_colidx, a_values, a_cols), denseOf(out),
                 "replace of a CSR matrix", replace(0.0), replace);
}

namespace {

/// Columns per block of transposeInBlocks: their positions (128 KiB) stay
/// in L2 while the block's entries are placed.
constexpr int64_t kTransposeBlockBits = 14;

/// An entry on its way to its column's block.
struct TransposeEntry {
  int32_t row, col;
  double value;
};

/// The placement of t(a)'s entries (out.rowptr already set) for many
/// columns: scattering each entry straight to its column misses the caches
/// three times (the column's position, its index and its value; graph_1m:
/// a quarter of PageRank's time). Instead each thread appends its entries
/// to the block of 2^14 columns they belong to (a few sequential streams),
/// then each block is placed with its positions in L2. Entries keep their
/// row order within a column: a block lists thread 0's entries, then
/// thread 1's. Needs 16 bytes per entry of scratch: false, having done
/// nothing, where the matrix is small enough for the direct scatter or the
/// scratch would crowd the memory budget.
bool transposeInBlocks(const CsrView &a, const CsrOut &out,
                       const std::vector<int64_t> &bounds) {
  int64_t nnz = a.nnz();
  int64_t blocks = (a.cols >> kTransposeBlockBits) + 1;
  memory::Statistics stats = memory::getStatistics();
  uint64_t scratch = static_cast<uint64_t>(nnz) * sizeof(TransposeEntry);
  if (a.cols < (int64_t(1) << 17) || nnz < (int64_t(1) << 20) ||
      stats.liveBytes + scratch > memory::getLimit() / 2)
    return false;
  auto threads = static_cast<int64_t>(bounds.size()) - 1;
  // cursor[t * blocks + b]: where thread t appends its next entry of block
  // b, from its entries counted per block.
  std::vector<int64_t> cursor(threads * blocks, 0);
  runThreads(threads, [&](int64_t t) {
    int64_t *counts = cursor.data() + t * blocks;
    for (int64_t k = a.begin(bounds[t]); k < a.begin(bounds[t + 1]); ++k)
      ++counts[a.colidx[k] >> kTransposeBlockBits];
  });
  int64_t start = 0;
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t t = 0; t < threads; ++t) {
      int64_t count = cursor[t * blocks + b];
      cursor[t * blocks + b] = start;
      start += count;
    }
  memory::Vector<TransposeEntry> staged(nnz);
  runThreads(threads, [&](int64_t t) {
    int64_t *ends = cursor.data() + t * blocks;
    for (int64_t r = bounds[t]; r < bounds[t + 1]; ++r)
      for (int64_t k = a.begin(r); k < a.end(r); ++k) {
        int32_t c = a.colidx[k];
        staged[ends[c >> kTransposeBlockBits]++] = {static_cast<int32_t>(r), c,
                                                    a.values[k]};
      }
  });
  // Block b's entries start where its first column's do.
  runChunks(threads, blocks, 1, [&](int64_t, int64_t first, int64_t last) {
    std::vector<int64_t> positions(int64_t(1) << kTransposeBlockBits);
    for (int64_t b = first; b < last; ++b) {
      int64_t column = b << kTransposeBlockBits;
      int64_t width = std::min(a.cols - column, int64_t(positions.size()));
      std::copy(out.rowptr + column, out.rowptr + column + width,
                positions.begin());
      for (int64_t e = out.rowptr[column]; e < out.rowptr[column + width];
           ++e) {
        const TransposeEntry &entry = staged[e];
        int64_t p = positions[entry.col - column]++;
        out.colidx[p] = entry.row;
        out.values[p] = entry.value;
      }
    }
  });
  return true;
}

} // namespace

extern "C" void _mlir_ciface_amls_rt_csr_transpose(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsVectorI64 *out_rowptr, AmlsVectorI32 *out_colidx,
    AmlsVectorF64 *out_values) {
  static const char *kKernel = "t() of a CSR matrix";
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  CsrOut out = csrOutOf(out_rowptr, out_colidx, out_values);
  check(out_rowptr->sizes[0] == a.cols + 1, kKernel, [&] {
    return "row offsets of " + std::to_string(out_rowptr->sizes[0]) +
           " entries for " + std::to_string(a.cols) + " rows";
  });
  check(a.rows <= std::numeric_limits<int32_t>::max(), kKernel, [&] {
    return "a " + shape(a.rows, a.cols) +
           " matrix has too many rows to become CSR columns";
  });
  int64_t nnz = a.nnz();
  // Each thread needs a count per column: worth it only while the columns
  // are few next to the entries.
  int64_t threads = threadsFor(nnz, 2 * kMinWorkPerThread);
  if (a.cols > nnz / 4)
    threads = 1;
  std::vector<int64_t> bounds = splitRows(a, threads);
  // next[t * cols + c]: where thread t writes its next entry of column c.
  memory::Vector<int64_t> next(threads * a.cols, 0);
  runThreads(threads, [&](int64_t t) {
    int64_t *counts = next.data() + t * a.cols;
    for (int64_t k = a.begin(bounds[t]); k < a.begin(bounds[t + 1]); ++k)
      ++counts[a.colidx[k]];
  });
  int64_t offset = 0;
  for (int64_t c = 0; c < a.cols; ++c) {
    out.rowptr[c] = offset;
    for (int64_t t = 0; t < threads; ++t) {
      int64_t count = next[t * a.cols + c];
      next[t * a.cols + c] = offset;
      offset += count;
    }
  }
  out.rowptr[a.cols] = offset;
  if (transposeInBlocks(a, out, bounds))
    return;
  runThreads(threads, [&](int64_t t) {
    int64_t *positions = next.data() + t * a.cols;
    for (int64_t r = bounds[t]; r < bounds[t + 1]; ++r)
      for (int64_t k = a.begin(r); k < a.end(r); ++k) {
        int64_t p = positions[a.colidx[k]]++;
        out.colidx[p] = static_cast<int32_t>(r);
        out.values[p] = a.values[k];
      }
  });
}
