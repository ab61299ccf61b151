//===- StorageFormat.cpp - Dense or CSR for a matrix ----------------------===//

#include "AMLS/CostModel/StorageFormat.h"

#include <algorithm>

using namespace mlir::amls;

bool StorageFormatRule::prefersCSR(int64_t rows, int64_t cols,
                                   std::optional<double> sparsity) const {
  if (rows < 0 || cols < 0 || !sparsity)
    return false;
  if (cols <= 1 || static_cast<double>(rows) * cols < minCells)
    return false;
  if (!(*sparsity < sparsityTurnPoint))
    return false;
  double nnz = *sparsity * static_cast<double>(rows) * cols;
  return csrBytes(rows, nnz) < denseBytes(rows, cols);
}

bool StorageFormatRule::prefersCSRWithNnzBound(int64_t rows, int64_t cols,
                                               int64_t maxNnz) const {
  if (rows < 0 || maxNnz < 0)
    return false;
  if (cols < 0)
    cols = assumedCols;
  double cells = static_cast<double>(rows) * cols;
  return cells > 0 && prefersCSR(rows, cols, std::min(1.0, maxNnz / cells));
}

double StorageFormatRule::denseBytes(int64_t rows, int64_t cols) {
  return 8.0 * static_cast<double>(rows) * static_cast<double>(cols);
}

double StorageFormatRule::csrBytes(int64_t rows, double nnz) {
  return 12.0 * nnz + 8.0 * (static_cast<double>(rows) + 1);
}
