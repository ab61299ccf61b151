//===- SparseReorg.cpp - Slices, binds and rev of CSR matrices ------------===//
//
// A slice finds each row's column range by binary search (columns are
// sorted) and copies it, counted first so that the compiler can allocate
// the result. cbind appends each row of b, its columns shifted, to the row
// of a; rbind appends b's buffers to a's; rev copies the rows in reverse
// order (the row offsets first, then the rows in parallel).
//
//===----------------------------------------------------------------------===//

#include "SparseSupport.h"

using namespace amls::runtime::sparse;

namespace {

/// The entries [first, last) of row r of `a` within columns [begin, end).
void columnRange(const CsrView &a, int64_t r, int64_t begin, int64_t end,
                 int64_t &first, int64_t &last) {
  if (begin == 0 && end == a.cols) {
    first = a.begin(r);
    last = a.end(r);
  } else {
    first = lowerBound(a, r, begin);
    last = lowerBound(a, r, end);
  }
}

void checkSlice(const CsrView &a, int64_t rowBegin, int64_t rowEnd,
                int64_t colBegin, int64_t colEnd, const AmlsVectorI64 *out) {
  check(0 <= rowBegin && rowBegin <= rowEnd && rowEnd <= a.rows &&
            0 <= colBegin && colBegin <= colEnd && colEnd <= a.cols,
        "CSR slice", [&] {
          return "rows [" + std::to_string(rowBegin) + ", " +
                 std::to_string(rowEnd) + ") and columns [" +
                 std::to_string(colBegin) + ", " + std::to_string(colEnd) +
                 ") of a " + shape(a.rows, a.cols) + " matrix";
        });
  check(out->sizes[0] == rowEnd - rowBegin + 1, "CSR slice", [&] {
    return "row offsets of " + std::to_string(out->sizes[0]) + " entries for " +
           std::to_string(rowEnd - rowBegin) + " rows";
  });
}

void checkBind(const CsrView &a, const CsrView &b,
               const AmlsVectorI64 *outRowptr, bool columns) {
  const char *kernel = columns ? "cbind of CSR" : "rbind of CSR";
  check(columns ? a.rows == b.rows : a.cols == b.cols, kernel, [&] {
    return "a " + shape(a.rows, a.cols) + " and a " + shape(b.rows, b.cols) +
           " matrix";
  });
  int64_t rows = columns ? a.rows : a.rows + b.rows;
  check(outRowptr->sizes[0] == rows + 1, kernel, [&] {
    return "row offsets of " + std::to_string(outRowptr->sizes[0]) +
           " entries for " + std::to_string(rows) + " rows";
  });
  check(!columns || a.cols + b.cols <= std::numeric_limits<int32_t>::max(),
        kernel, [&] {
          return "the result has " + std::to_string(a.cols + b.cols) +
                 " columns, more than CSR holds (2147483647)";
        });
}

} // namespace

extern "C" int64_t _mlir_ciface_amls_rt_csr_slice_count(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, int64_t row_begin, int64_t row_end, int64_t col_begin,
    int64_t col_end, AmlsVectorI64 *out_rowptr) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  checkSlice(a, row_begin, row_end, col_begin, col_end, out_rowptr);
  int64_t *offsets = out_rowptr->aligned + out_rowptr->offset;
  int64_t rows = row_end - row_begin;
  forRowRanges(a.rowptr + row_begin, rows, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      int64_t first, last;
      columnRange(a, row_begin + i, col_begin, col_end, first, last);
      offsets[i + 1] = last - first;
    }
  });
  offsets[0] = 0;
  for (int64_t i = 0; i < rows; ++i)
    offsets[i + 1] += offsets[i];
  return offsets[rows];
}

extern "C" void _mlir_ciface_amls_rt_csr_slice_fill(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, int64_t row_begin, int64_t row_end, int64_t col_begin,
    int64_t col_end, AmlsVectorI64 *out_rowptr, AmlsVectorI32 *out_colidx,
    AmlsVectorF64 *out_values) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  checkSlice(a, row_begin, row_end, col_begin, col_end, out_rowptr);
  CsrOut out = csrOutOf(out_rowptr, out_colidx, out_values);
  auto shift = static_cast<int32_t>(col_begin);
  forRowRanges(
      out.rowptr, row_end - row_begin, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          int64_t first, last;
          columnRange(a, row_begin + i, col_begin, col_end, first, last);
          int64_t to = out.rowptr[i];
          std::copy(a.values + first, a.values + last, out.values + to);
          for (int64_t k = first; k < last; ++k)
            out.colidx[to + k - first] = a.colidx[k] - shift;
        }
      });
}

extern "C" void _mlir_ciface_amls_rt_csr_cbind(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsVectorI64 *b_rowptr, AmlsVectorI32 *b_colidx,
    AmlsVectorF64 *b_values, int64_t b_cols, AmlsVectorI64 *out_rowptr,
    AmlsVectorI32 *out_colidx, AmlsVectorF64 *out_values) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  CsrView b = csrOf(b_rowptr, b_colidx, b_values, b_cols);
  checkBind(a, b, out_rowptr, /*columns=*/true);
  CsrOut out = csrOutOf(out_rowptr, out_colidx, out_values);
  for (int64_t i = 0; i <= a.rows; ++i)
    out.rowptr[i] = a.rowptr[i] + b.rowptr[i];
  auto shift = static_cast<int32_t>(a.cols);
  forRowRanges(out.rowptr, a.rows, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      int64_t to = out.rowptr[i], na = a.end(i) - a.begin(i),
              nb = b.end(i) - b.begin(i);
      std::copy_n(a.colidx + a.begin(i), na, out.colidx + to);
      std::copy_n(a.values + a.begin(i), na, out.values + to);
      for (int64_t k = 0; k < nb; ++k)
        out.colidx[to + na + k] = b.colidx[b.begin(i) + k] + shift;
      std::copy_n(b.values + b.begin(i), nb, out.values + to + na);
    }
  });
}

extern "C" void _mlir_ciface_amls_rt_csr_rbind(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsVectorI64 *b_rowptr, AmlsVectorI32 *b_colidx,
    AmlsVectorF64 *b_values, int64_t b_cols, AmlsVectorI64 *out_rowptr,
    AmlsVectorI32 *out_colidx, AmlsVectorF64 *out_values) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  CsrView b = csrOf(b_rowptr, b_colidx, b_values, b_cols);
  checkBind(a, b, out_rowptr, /*columns=*/false);
  CsrOut out = csrOutOf(out_rowptr, out_colidx, out_values);
  int64_t nnzA = a.nnz(), nnzB = b.nnz();
  std::copy_n(a.rowptr, a.rows + 1, out.rowptr);
  for (int64_t i = 1; i <= b.rows; ++i)
    out.rowptr[a.rows + i] = nnzA + b.rowptr[i];
  std::copy_n(a.colidx, nnzA, out.colidx);
  std::copy_n(b.colidx, nnzB, out.colidx + nnzA);
  std::copy_n(a.values, nnzA, out.values);
  std::copy_n(b.values, nnzB, out.values + nnzA);
}

extern "C" void _mlir_ciface_amls_rt_csr_rev(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsVectorI64 *out_rowptr, AmlsVectorI32 *out_colidx,
    AmlsVectorF64 *out_values) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  check(out_rowptr->sizes[0] == a.rows + 1 && out_values->sizes[0] == a.nnz(),
        "rev of CSR", [&] {
          return std::to_string(out_rowptr->sizes[0]) + " row offsets and " +
                 std::to_string(out_values->sizes[0]) + " entries for a " +
                 shape(a.rows, a.cols) + " matrix of " +
                 std::to_string(a.nnz()) + " entries";
        });
  CsrOut out = csrOutOf(out_rowptr, out_colidx, out_values);
  out.rowptr[0] = 0;
  for (int64_t i = 0; i < a.rows; ++i) {
    int64_t source = a.rows - 1 - i;
    out.rowptr[i + 1] = out.rowptr[i] + a.end(source) - a.begin(source);
  }
  forRowRanges(out.rowptr, a.rows, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      int64_t source = a.rows - 1 - i, n = a.end(source) - a.begin(source);
      std::copy_n(a.colidx + a.begin(source), n, out.colidx + out.rowptr[i]);
      std::copy_n(a.values + a.begin(source), n, out.values + out.rowptr[i]);
    }
  });
}
