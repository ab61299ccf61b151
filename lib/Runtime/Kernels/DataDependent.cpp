//===- DataDependent.cpp - Ops whose result depends on the data -----------===//
//
// removeEmpty, table and order: the compiled program asks the runtime for
// the result size (where it depends on the data), allocates the result, and
// lets the runtime fill it.
//
//===----------------------------------------------------------------------===//

#include "../Core/Failure.h"
#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

using amls::runtime::fail;

namespace {

double &at(AmlsMatrixF64 *m, int64_t r, int64_t c) {
  return m->aligned[m->offset + r * m->strides[0] + c * m->strides[1]];
}

/// Whether row (AMLS_MARGIN_ROWS) or column `i` of x is kept.
bool isKept(AmlsMatrixF64 *x, AmlsMatrixF64 *select, int32_t margin,
            int32_t useSelect, int64_t i) {
  if (useSelect)
    return margin == AMLS_MARGIN_ROWS ? at(select, i, 0) != 0.0
                                      : at(select, 0, i) != 0.0;
  int64_t length = x->sizes[1 - margin];
  for (int64_t j = 0; j < length; ++j)
    if ((margin == AMLS_MARGIN_ROWS ? at(x, i, j) : at(x, j, i)) != 0.0)
      return true;
  return false;
}

void checkMargin(int32_t margin) {
  if (margin != AMLS_MARGIN_ROWS && margin != AMLS_MARGIN_COLS)
    fail("removeEmpty: unknown margin " + std::to_string(margin));
}

int64_t categoryId(double value, const char *what, int64_t row) {
  if (!(value >= 1.0) || value != std::floor(value) || value > 1e15)
    fail(std::string("table: ") + what +
         " category ids must be positive "
         "integers, found " +
         std::to_string(value) + " in row " + std::to_string(row + 1));
  return static_cast<int64_t>(value);
}

} // namespace

extern "C" int64_t _mlir_ciface_amls_rt_count_nonempty(AmlsMatrixF64 *x,
                                                       AmlsMatrixF64 *select,
                                                       int32_t margin,
                                                       int32_t useSelect) {
  checkMargin(margin);
  int64_t count = 0;
  for (int64_t i = 0; i < x->sizes[margin]; ++i)
    count += isKept(x, select, margin, useSelect, i);
  return count;
}

extern "C" void _mlir_ciface_amls_rt_remove_empty(AmlsMatrixF64 *x,
                                                  AmlsMatrixF64 *select,
                                                  AmlsMatrixF64 *out,
                                                  int32_t margin,
                                                  int32_t useSelect) {
  checkMargin(margin);
  int64_t next = 0, length = x->sizes[1 - margin];
  for (int64_t i = 0; i < x->sizes[margin]; ++i) {
    if (!isKept(x, select, margin, useSelect, i))
      continue;
    for (int64_t j = 0; j < length; ++j) {
      if (margin == AMLS_MARGIN_ROWS)
        at(out, next, j) = at(x, i, j);
      else
        at(out, j, next) = at(x, j, i);
    }
    ++next;
  }
  // The row (column) of zeros that empty.return adds to an empty result.
  for (; next < out->sizes[margin]; ++next)
    for (int64_t j = 0; j < length; ++j)
      (margin == AMLS_MARGIN_ROWS ? at(out, next, j) : at(out, j, next)) = 0.0;
}

extern "C" int64_t _mlir_ciface_amls_rt_max_category(AmlsMatrixF64 *ids) {
  int64_t max = 0;
  for (int64_t i = 0; i < ids->sizes[0]; ++i)
    max = std::max(max, categoryId(at(ids, i, 0), "the", i));
  return max;
}

extern "C" void _mlir_ciface_amls_rt_table(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                                           AmlsMatrixF64 *w, AmlsMatrixF64 *out,
                                           int32_t useWeights) {
  for (int64_t r = 0; r < out->sizes[0]; ++r)
    for (int64_t c = 0; c < out->sizes[1]; ++c)
      at(out, r, c) = 0.0;
  for (int64_t i = 0; i < a->sizes[0]; ++i) {
    int64_t row = categoryId(at(a, i, 0), "first", i) - 1;
    int64_t col = categoryId(at(b, i, 0), "second", i) - 1;
    // Pairs outside a given output size are dropped, as in DML.
    if (row < out->sizes[0] && col < out->sizes[1])
      at(out, row, col) += useWeights ? at(w, i, 0) : 1.0;
  }
}

extern "C" void _mlir_ciface_amls_rt_order(AmlsMatrixF64 *x, AmlsMatrixF64 *out,
                                           int64_t by, int32_t decreasing,
                                           int32_t indices) {
  int64_t rows = x->sizes[0], cols = x->sizes[1];
  if (by < 0 || by >= cols)
    fail("order: sort column " + std::to_string(by + 1) + " is outside the " +
         std::to_string(cols) + " columns");
  amls::runtime::memory::Vector<int64_t> permutation(rows);
  std::iota(permutation.begin(), permutation.end(), 0);
  std::stable_sort(permutation.begin(), permutation.end(),
                   [&](int64_t l, int64_t r) {
                     double a = at(x, l, by), b = at(x, r, by);
                     return decreasing ? a > b : a < b;
                   });
  for (int64_t i = 0; i < rows; ++i) {
    if (indices) {
      at(out, i, 0) = static_cast<double>(permutation[i] + 1);
      continue;
    }
    for (int64_t j = 0; j < cols; ++j)
      at(out, i, j) = at(x, permutation[i], j);
  }
}

namespace {

/// The cells of table(a, b[, w]) inside rows x cols, row-major, each with
/// the sum of its weights.
std::vector<std::pair<std::pair<int64_t, int64_t>, double>>
tableCells(AmlsMatrixF64 *a, AmlsMatrixF64 *b, AmlsMatrixF64 *w,
           int32_t useWeights, int64_t rows, int64_t cols) {
  std::vector<std::pair<std::pair<int64_t, int64_t>, double>> cells;
  cells.reserve(a->sizes[0]);
  for (int64_t i = 0; i < a->sizes[0]; ++i) {
    int64_t row = categoryId(at(a, i, 0), "first", i) - 1;
    int64_t col = categoryId(at(b, i, 0), "second", i) - 1;
    if (row < rows && col < cols)
      cells.push_back({{row, col}, useWeights ? at(w, i, 0) : 1.0});
  }
  auto byCell = [](const auto &l, const auto &r) { return l.first < r.first; };
  // Cells that come in order (table(seq(1, n), labels), one per row: the
  // one-hot and k-means indicator matrices) need no sort.
  if (!std::is_sorted(cells.begin(), cells.end(), byCell))
    std::stable_sort(cells.begin(), cells.end(), byCell);
  // Duplicates add up (in input order, as the dense kernel adds them).
  size_t kept = 0;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (kept > 0 && cells[kept - 1].first == cells[i].first)
      cells[kept - 1].second += cells[i].second;
    else
      cells[kept++] = cells[i];
  }
  cells.resize(kept);
  return cells;
}

} // namespace

extern "C" int64_t _mlir_ciface_amls_rt_csr_table_count(
    AmlsMatrixF64 *a, AmlsMatrixF64 *b, AmlsMatrixF64 *w, int32_t useWeights,
    int64_t rows, int64_t cols, AmlsVectorI64 *rowptr) {
  auto cells = tableCells(a, b, w, useWeights, rows, cols);
  int64_t *pointers = rowptr->aligned + rowptr->offset;
  std::fill(pointers, pointers + rows + 1, 0);
  for (const auto &cell : cells)
    ++pointers[cell.first.first + 1];
  for (int64_t r = 0; r < rows; ++r)
    pointers[r + 1] += pointers[r];
  return static_cast<int64_t>(cells.size());
}

extern "C" void _mlir_ciface_amls_rt_csr_table_fill(
    AmlsMatrixF64 *a, AmlsMatrixF64 *b, AmlsMatrixF64 *w, int32_t useWeights,
    int64_t rows, int64_t cols, AmlsVectorI64 *rowptr, AmlsVectorI32 *colidx,
    AmlsVectorF64 *values) {
  auto cells = tableCells(a, b, w, useWeights, rows, cols);
  int32_t *columns = colidx->aligned + colidx->offset;
  double *data = values->aligned + values->offset;
  for (size_t k = 0; k < cells.size(); ++k) {
    columns[k] = static_cast<int32_t>(cells[k].first.second);
    data[k] = cells[k].second;
  }
}
