//===- ParforDependences.h - Are a parfor's iterations independent? -*- C++ -*-===//
//
// The dependency analysis of seed 001 on amls.parfor: each shared (result)
// matrix may only be written, by amls.insert_slice, at positions that
// differ between iterations, and read only inside the part its iteration
// writes. Index expressions are polynomials in the loop's iteration number
// k and loop-invariant values; a matrix is independent along a dimension
// when every access of iteration k lies in the window [s*k + b, s*k + b +
// |s|) of one stride s (R[i, ], R[, i], R[i, j], R[(i-1)*B+1 : i*B, ] with
// a symbolic B), or, for single cells of constant strides, when a GCD test
// shows no two iterations meet.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_ANALYSIS_PARFORDEPENDENCES_H
#define AMLS_ANALYSIS_PARFORDEPENDENCES_H

#include "AMLS/Dialect/AMLSOps.h"

#include <string>
#include <vector>

namespace mlir::amls {

/// What the analysis found for one shared matrix of a parfor.
struct SharedMatrixDependence {
  /// The block argument of the body that carries the matrix.
  BlockArgument argument;
  /// Proven independent: iterations write disjoint parts of it.
  bool independent = false;
  /// The dimension that separates the iterations (0 rows, 1 columns) and
  /// how: "stride 1", "stride B", "GCD".
  int dimension = -1;
  std::string how;
  /// Otherwise: why not, and the ops involved (a write and a conflicting
  /// write or read; the second may be null).
  std::string reason;
  Operation *first = nullptr, *second = nullptr;
  /// Accesses found (writes by insert_slice, reads by slice).
  unsigned writes = 0, reads = 0;
};

/// Analyses every shared matrix of `parfor`.
std::vector<SharedMatrixDependence> analyzeParforDependences(ParforOp parfor);

} // namespace mlir::amls

#endif // AMLS_ANALYSIS_PARFORDEPENDENCES_H
