//===- SparseRemoveEmpty.cpp - removeEmpty of a CSR matrix ----------------===//
//
// removeEmpty(X, margin[, select]) straight from CSR: a row (column) is
// kept when it stores a value != 0 (a stored zero does not count), or,
// with `select`, when its selector is != 0, as in the dense kernel. The
// compiler allocates the result, so it calls three times: how many rows
// (columns) are kept, each result row's entries, then the entries. Each
// call finds the kept ones again (a pass over the entries), which costs
// less than the entries' copy and keeps no state between calls.
//
//===----------------------------------------------------------------------===//

#include "SparseSupport.h"

using namespace amls::runtime::sparse;

namespace {

constexpr const char *kKernel = "removeEmpty of a CSR matrix";

/// The kept rows (columns) of a matrix.
struct Kept {
  /// For each row (column) of the input, its index in the result or -1.
  memory::Vector<int64_t> index;
  /// The kept rows (columns) in order.
  memory::Vector<int64_t> sources;
};

void checkArguments(const CsrView &a, const AmlsMatrixF64 *select,
                    int32_t margin, int32_t useSelect) {
  check(margin == AMLS_MARGIN_ROWS || margin == AMLS_MARGIN_COLS, kKernel,
        [&] { return "unknown margin " + std::to_string(margin); });
  if (!useSelect)
    return;
  bool rows = margin == AMLS_MARGIN_ROWS;
  int64_t wantRows = rows ? a.rows : 1, wantCols = rows ? 1 : a.cols;
  check(select->sizes[0] == wantRows && select->sizes[1] == wantCols, kKernel,
        [&] {
          return std::string("select must be a ") + (rows ? "column" : "row") +
                 " vector of " + shape(wantRows, wantCols) + " for a " +
                 shape(a.rows, a.cols) + " matrix, found " +
                 shape(select->sizes[0], select->sizes[1]);
        });
}

/// Marks in `nonEmpty` (one flag per column) the columns of rows
/// [begin, end) that store a value != 0.
void markColumns(const CsrView &a, int64_t begin, int64_t end,
                 uint8_t *nonEmpty) {
  for (int64_t k = a.begin(begin); k < a.begin(end); ++k)
    nonEmpty[a.colidx[k]] |= a.values[k] != 0.0;
}

/// One flag per row (margin 0) or column of `a`: whether it is kept.
std::vector<uint8_t> keptFlags(const CsrView &a, const AmlsMatrixF64 *select,
                               int32_t margin, int32_t useSelect) {
  bool rows = margin == AMLS_MARGIN_ROWS;
  int64_t n = rows ? a.rows : a.cols;
  std::vector<uint8_t> flags(n, 0);
  if (useSelect) {
    DenseView s = denseOf(select);
    for (int64_t i = 0; i < n; ++i)
      flags[i] = (rows ? s.at(i, 0) : s.at(0, i)) != 0.0;
    return flags;
  }
  if (rows) {
    forRowRanges(a.rowptr, a.rows, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r)
        flags[r] = std::any_of(a.values + a.begin(r), a.values + a.end(r),
                               [](double v) { return v != 0.0; });
    });
    return flags;
  }
  // Columns: each thread marks its rows' columns in its own flags (merged
  // after), worth it only while the columns are few next to the entries.
  int64_t threads = threadsFor(a.nnz(), 2 * kMinWorkPerThread);
  if (a.cols > a.nnz() / 4)
    threads = 1;
  std::vector<int64_t> bounds = splitRows(a, threads);
  std::vector<std::vector<uint8_t>> partial(threads - 1,
                                            std::vector<uint8_t>(a.cols, 0));
  runThreads(threads, [&](int64_t t) {
    markColumns(a, bounds[t], bounds[t + 1],
                t == 0 ? flags.data() : partial[t - 1].data());
  });
  for (const std::vector<uint8_t> &marks : partial)
    for (int64_t c = 0; c < a.cols; ++c)
      flags[c] |= marks[c];
  return flags;
}

Kept findKept(const CsrView &a, const AmlsMatrixF64 *select, int32_t margin,
              int32_t useSelect) {
  checkArguments(a, select, margin, useSelect);
  std::vector<uint8_t> flags = keptFlags(a, select, margin, useSelect);
  Kept kept;
  kept.index.assign(flags.size(), -1);
  for (size_t i = 0; i < flags.size(); ++i)
    if (flags[i]) {
      kept.index[i] = static_cast<int64_t>(kept.sources.size());
      kept.sources.push_back(static_cast<int64_t>(i));
    }
  return kept;
}

/// The result has `rows` rows, or up to `most` (empty.return's padding).
void checkRowOffsets(const AmlsVectorI64 *rowptr, int64_t most, int64_t rows) {
  check(rowptr->sizes[0] >= rows + 1 && rowptr->sizes[0] <= most + 1, kKernel,
        [&] {
          return "row offsets of " + std::to_string(rowptr->sizes[0]) +
                 " entries for " + std::to_string(rows) + " rows";
        });
}

void checkRowOffsets(const AmlsVectorI64 *rowptr, int64_t rows) {
  checkRowOffsets(rowptr, rows, rows);
}

} // namespace

extern "C" int64_t _mlir_ciface_amls_rt_csr_count_nonempty(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsMatrixF64 *select, int32_t margin, int32_t use_select) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  return static_cast<int64_t>(
      findKept(a, select, margin, use_select).sources.size());
}

extern "C" int64_t _mlir_ciface_amls_rt_csr_remove_empty_count(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsMatrixF64 *select, int32_t margin, int32_t use_select,
    AmlsVectorI64 *out_rowptr) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  Kept kept = findKept(a, select, margin, use_select);
  int64_t *offsets = out_rowptr->aligned + out_rowptr->offset;
  offsets[0] = 0;
  if (margin == AMLS_MARGIN_ROWS) {
    auto rows = static_cast<int64_t>(kept.sources.size());
    checkRowOffsets(out_rowptr, std::max<int64_t>(rows, 1), rows);
    for (int64_t i = 0; i < rows; ++i)
      offsets[i + 1] =
          offsets[i] + a.end(kept.sources[i]) - a.begin(kept.sources[i]);
    // empty.return's row of zeros, when no row is kept.
    for (int64_t i = rows; i + 1 < out_rowptr->sizes[0]; ++i)
      offsets[i + 1] = offsets[i];
    return offsets[rows];
  }
  checkRowOffsets(out_rowptr, a.rows);
  forRowRanges(a.rowptr, a.rows, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r)
      offsets[r + 1] =
          std::count_if(a.colidx + a.begin(r), a.colidx + a.end(r),
                        [&](int32_t c) { return kept.index[c] >= 0; });
  });
  for (int64_t r = 0; r < a.rows; ++r)
    offsets[r + 1] += offsets[r];
  return offsets[a.rows];
}

extern "C" void _mlir_ciface_amls_rt_csr_remove_empty_fill(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsMatrixF64 *select, int32_t margin, int32_t use_select,
    AmlsVectorI64 *out_rowptr, AmlsVectorI32 *out_colidx,
    AmlsVectorF64 *out_values) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  Kept kept = findKept(a, select, margin, use_select);
  CsrOut out = csrOutOf(out_rowptr, out_colidx, out_values);
  if (margin == AMLS_MARGIN_ROWS) {
    auto rows = static_cast<int64_t>(kept.sources.size());
    checkRowOffsets(out_rowptr, std::max<int64_t>(rows, 1), rows);
    forRowRanges(out.rowptr, rows, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        int64_t source = kept.sources[i];
        int64_t n = a.end(source) - a.begin(source);
        std::copy_n(a.colidx + a.begin(source), n, out.colidx + out.rowptr[i]);
        std::copy_n(a.values + a.begin(source), n, out.values + out.rowptr[i]);
      }
    });
    return;
  }
  checkRowOffsets(out_rowptr, a.rows);
  forRowRanges(a.rowptr, a.rows, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      int64_t to = out.rowptr[r];
      for (int64_t k = a.begin(r); k < a.end(r); ++k) {
        int64_t column = kept.index[a.colidx[k]];
        if (column < 0)
          continue;
        out.colidx[to] = static_cast<int32_t>(column);
        out.values[to++] = a.values[k];
      }
    }
  });
}
