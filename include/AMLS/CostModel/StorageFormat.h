//===- StorageFormat.h - Dense or CSR for a matrix --------------*- C++ -*-===//
//
// The rule --amls-select-formats applies to every matrix whose producer and
// consumers could keep it CSR: SystemDS's (MatrixBlock's sparse-format
// decision) with its constants as options. A matrix is stored CSR when
//  - its sparsity (fraction of non-zeros) is known and below the turn point
//    (SystemDS's SPARSITY_TURN_POINT, 0.4): there CSR's 12 bytes per
//    non-zero plus 8 per row undercut 8 bytes per cell, and row-wise kernels
//    over the non-zeros beat dense loops;
//  - it has more than one column: a column vector's row pointers cost as
//    much as its values (SystemDS keeps vectors dense, too);
//  - it has at least `minCells` cells: below that, both formats fit in the
//    cache and the dense kernels are simpler and vectorize.
// A result whose sparsity is unknown but whose non-zeros are bounded (table()
// adds one cell per pair of categories) is CSR when the bound makes CSR the
// smaller format; a column count read from the data (the number of
// categories) is taken as `assumedCols`. SystemDS decides such a block's
// format at run time; AMLS decides at compile time.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_COSTMODEL_STORAGEFORMAT_H
#define AMLS_COSTMODEL_STORAGEFORMAT_H

#include <cstdint>
#include <optional>

namespace mlir::amls {

struct StorageFormatRule {
  /// Sparsity below which a matrix is stored CSR (SystemDS: 0.4).
  double sparsityTurnPoint = 0.4;
  /// Matrices with fewer cells stay dense.
  int64_t minCells = 4096;

  /// Whether a rows x cols matrix with the given sparsity (unknown sizes are
  /// negative, unknown sparsity nullopt) is best stored CSR.
  bool prefersCSR(int64_t rows, int64_t cols,
                  std::optional<double> sparsity) const;

  /// Columns assumed for a matrix whose column count is only known at run
  /// time (table()'s categories): from 3 on, one non-zero per row is
  /// smaller as CSR (20 bytes against 24).
  int64_t assumedCols = 3;

  /// Whether a rows x cols matrix with at most `maxNnz` non-zeros is best
  /// stored CSR; an unknown `cols` (negative) is taken as `assumedCols`.
  bool prefersCSRWithNnzBound(int64_t rows, int64_t cols, int64_t maxNnz) const;

  /// Bytes of a rows x cols matrix stored dense and as CSR with `nnz`
  /// non-zeros (f64 values, int32 column indices, int64 row pointers).
  static double denseBytes(int64_t rows, int64_t cols);
  static double csrBytes(int64_t rows, double nnz);
};

} // namespace mlir::amls

#endif // AMLS_COSTMODEL_STORAGEFORMAT_H
