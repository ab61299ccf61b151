//===- MNCSketch.h - Matrix non-zero count sketches -------------*- C++ -*-===//
//
// The MNC sketch of a matrix (Sommer, Boehm, Evfimievski, Reinwald, Haas:
// "MNC: Structure-Exploiting Sparsity Estimation for Matrix Expressions",
// SIGMOD 2019; SystemDS's EstimatorMatrixHistogram): the non-zero count of
// every row and column, the extension vectors (per row, its non-zeros in
// columns that hold a single non-zero; per column, its non-zeros in rows
// that hold a single non-zero) and summary counts. A product's estimate is
// exact when either side has at most one non-zero per row (left) or column
// (right): selection, permutation and one-hot matrices, diagonals.
//
// Plain C++ (no MLIR): the compiler propagates sketches through programs
// (lib/Analysis/MNCSketchAnalysis.cpp), the runtime builds them from data.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_COSTMODEL_MNCSKETCH_H
#define AMLS_COSTMODEL_MNCSKETCH_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::amls {

class MNCSketch {
public:
  using Counts = std::vector<uint32_t>;

  /// The sketch of a CSR matrix (`rowOffsets` has rows + 1 entries, the
  /// column indices of each row's non-zeros follow in `columns`). Explicit
  /// zeros in CSR count as non-zeros, as everywhere in AMLS's nnz. One pass
  /// over the non-zeros, on up to `threads` threads.
  static MNCSketch fromCSR(int64_t rows, int64_t cols,
                           const int64_t *rowOffsets, const int32_t *columns,
                           bool extended = true, int threads = 1);
  /// The sketch of a row-major dense matrix with leading dimension `ld`.
  static MNCSketch fromDense(int64_t rows, int64_t cols, const double *data,
                             int64_t ld, bool extended = true);
  /// A sketch from propagated counts (no extension vectors). The counts of
  /// rows and of columns must have the same sum.
  static MNCSketch fromCounts(Counts rowCounts, Counts colCounts);
  /// A sketch from its parts as the IR spells them (#amls.mnc): nullopt,
  /// with what is wrong in `error`, where they contradict each other.
  static std::optional<MNCSketch> fromParts(Counts rowCounts, Counts colCounts,
                                            Counts rowExtension,
                                            Counts colExtension,
                                            bool fullDiagonal,
                                            std::string &error);
  /// A matrix whose every cell is non-zero (or an empty one if `full` is
  /// false).
  static MNCSketch uniform(int64_t rows, int64_t cols, bool full);

  int64_t rows() const { return static_cast<int64_t>(rowCounts.size()); }
  int64_t cols() const { return static_cast<int64_t>(colCounts.size()); }
  int64_t nnz() const { return nonZeros; }
  double sparsity() const;

  const Counts &getRowCounts() const { return rowCounts; }
  const Counts &getColCounts() const { return colCounts; }
  /// The extension vectors; empty when not built (propagated sketches,
  /// fully dense or single-non-zero matrices, whose estimates need none).
  const Counts &getRowCountsInSingletonCols() const { return rowExtension; }
  const Counts &getColCountsInSingletonRows() const { return colExtension; }
  bool hasExtension() const { return !rowExtension.empty(); }

  uint32_t maxRowCount() const { return rowSummary.max; }
  uint32_t maxColCount() const { return colSummary.max; }
  int64_t nonEmptyRows() const { return rowSummary.nonEmpty; }
  int64_t nonEmptyCols() const { return colSummary.nonEmpty; }
  int64_t singletonRows() const { return rowSummary.singletons; }
  int64_t singletonCols() const { return colSummary.singletons; }
  /// Rows with more than cols/2 non-zeros, columns with more than rows/2.
  int64_t rowsOverHalf() const { return rowSummary.overHalf; }
  int64_t colsOverHalf() const { return colSummary.overHalf; }
  /// A square matrix whose non-zeros are exactly its diagonal.
  bool isFullDiagonal() const { return fullDiagonal; }

  bool operator==(const MNCSketch &other) const;
  /// A hash of the counts (equal sketches hash equally).
  size_t hash() const;

private:
  struct Summary {
    uint32_t max = 0;
    int64_t singletons = 0, nonEmpty = 0, overHalf = 0;
  };
  Counts rowCounts, colCounts, rowExtension, colExtension;
  Summary rowSummary, colSummary;
  int64_t nonZeros = 0;
  bool fullDiagonal = false;

  void summarize();
  friend MNCSketch propagateTranspose(const MNCSketch &input);
  static Summary summarize(const Counts &counts, int64_t otherDim);
};

using MNCSketchRef = std::shared_ptr<const MNCSketch>;

//===----------------------------------------------------------------------===//
// Estimates (the number of non-zeros of a result)
//===----------------------------------------------------------------------===//

/// A %*% B (the paper's Algorithm 1): exact when A has at most one non-zero
/// per row or B at most one per column; the extension vectors give the
/// exact part of the rest; bounded by the half-full rows and columns below
/// and the non-empty rows and columns above.
double estimateProductNnz(const MNCSketch &lhs, const MNCSketch &rhs);
/// A * B (cells non-zero in both; same shapes).
double estimateIntersectionNnz(const MNCSketch &lhs, const MNCSketch &rhs);
/// A + B (cells non-zero in either; same shapes).
double estimateUnionNnz(const MNCSketch &lhs, const MNCSketch &rhs);

//===----------------------------------------------------------------------===//
// Propagation (the sketch of a result, for chains and expressions)
//===----------------------------------------------------------------------===//

/// A %*% B with `nnz` non-zeros (estimateProductNnz): a full diagonal
/// passes the other side's sketch through exactly; otherwise A's row
/// counts and B's column counts are scaled to the result's nnz.
MNCSketch propagateProduct(const MNCSketch &lhs, const MNCSketch &rhs,
                           double nnz);
MNCSketch propagateIntersection(const MNCSketch &lhs, const MNCSketch &rhs);
MNCSketch propagateUnion(const MNCSketch &lhs, const MNCSketch &rhs);
/// t(A): rows and columns swap, exactly.
MNCSketch propagateTranspose(const MNCSketch &input);
/// rbind(A, B) and cbind(A, B): exact counts.
MNCSketch propagateRbind(const MNCSketch &top, const MNCSketch &bottom);
MNCSketch propagateCbind(const MNCSketch &left, const MNCSketch &right);
/// A[rowBegin:rowEnd, colBegin:colEnd] (half-open, 0-based): the kept
/// side's counts exactly where the slice keeps every cell of it, scaled
/// by the kept fraction otherwise.
MNCSketch propagateSlice(const MNCSketch &input, int64_t rowBegin,
                         int64_t rowEnd, int64_t colBegin, int64_t colEnd);
/// diag(v) of an n x 1 vector (exact), diag(A) of an n x n matrix (its
/// non-zeros spread evenly, at most one per row).
MNCSketch propagateDiag(const MNCSketch &input);
/// A == 0: the complement's counts, exactly.
MNCSketch propagateEqualZero(const MNCSketch &input);

} // namespace mlir::amls

#endif // AMLS_COSTMODEL_MNCSKETCH_H
