//===- AMLSCSRRowBody.h - Row-template bodies over a CSR input --*- C++ -*-===//
//
// A row-template operator (`amls.fused row`) whose main input X is CSR runs
// its body one row of X at a time, visiting X's stored values only. Which
// bodies that covers is decided here, once, for the CSR kernel interface
// (the fusion planner asks it) and for the lowering
// (lib/Conversion/AMLSToLinalg/CSRFusedRows.cpp), which follows the kinds
// this analysis gives the body's values.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSCSRROWBODY_H
#define AMLS_DIALECT_AMLSCSRROWBODY_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace mlir::amls {
class FusedOp;

/// What a value of the body is for one row of X.
enum class CSRRowValueKind {
  /// A row with X's pattern: X's row, or an element-wise op of one that
  /// keeps the pattern (its result type is CSR), computed at each stored
  /// entry where it is read.
  Sparse,
  /// A dense row computed once per row: one scalar per column where it is
  /// narrow (isNarrowCSRRow), otherwise a per-thread scratch row written
  /// by loops over its columns.
  Dense,
  /// A row of a row input, read from memory where it is used.
  RowInput,
  /// A side input, a scalar or a constant: the same for every row.
  Side,
  /// The transposed block t(X): read only by the closing product.
  Transposed,
  /// The closing product t(X) %*% R: R's row scattered into the columns
  /// of X's stored entries.
  Close,
};

/// The widest dense row the body computes as one scalar per column (kept
/// in registers across the row's stored values, loops fully unrolled);
/// wider rows and rows of a width known only at run time are held in
/// scratch rows, computed by loops over their columns.
constexpr int64_t kMaxCSRRowWidth = 16;

/// Whether the matrix `value` has a static number of columns of at most
/// kMaxCSRRowWidth: a dense row of it is held as one scalar per column.
bool isNarrowCSRRow(Value value);

using CSRRowBodyKinds = llvm::DenseMap<Value, CSRRowValueKind>;

/// The kinds of the values of `op`'s body when `op` is a row-template
/// operator over a CSR main input that the CSR lowering supports: a sum of
/// t(X) %*% R where R is computed row by row from X's row (a product with
/// a dense side matrix, row aggregates, pattern-keeping element-wise ops),
/// other row inputs, dense rows of any width and side inputs. Otherwise
/// std::nullopt, with the reason in `reason` when given.
std::optional<CSRRowBodyKinds> analyzeCSRRowBody(FusedOp op,
                                                 std::string *reason = nullptr);

} // namespace mlir::amls

#endif // AMLS_DIALECT_AMLSCSRROWBODY_H
