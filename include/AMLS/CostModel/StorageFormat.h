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

  /// Bytes of a rows x cols matrix stored dense and as CSR with `nnz`
  /// non-zeros (f64 values, int32 column indices, int64 row pointers).
  static double denseBytes(int64_t rows, int64_t cols);
  static double csrBytes(int64_t rows, double nnz);
};

} // namespace mlir::amls

#endif // AMLS_COSTMODEL_STORAGEFORMAT_H
