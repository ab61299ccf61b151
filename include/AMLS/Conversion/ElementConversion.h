//===- ElementConversion.h - Converting matrix element types ----*- C++ -*-===//
//
// The runtime and amls-run exchange f64 matrices; programs on f32 or i64
// matrices convert at those boundaries.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_CONVERSION_ELEMENTCONVERSION_H
#define AMLS_CONVERSION_ELEMENTCONVERSION_H

#include "mlir/IR/Builders.h"

namespace mlir::amls {

/// Converts one scalar of f64/f32/i64 to `type` (one of those): floats
/// extend or round, integers convert exactly where they fit, floats become
/// integers truncated towards zero (DML's as.integer) with NaN giving 0.
Value convertScalar(OpBuilder &builder, Location loc, Value value, Type type);

/// A copy of the 2-D `tensor` with elements converted to `elementType` by
/// `convertScalar`; `tensor` itself when it already has that element type.
Value convertElementType(OpBuilder &builder, Location loc, Value tensor,
                         Type elementType);

} // namespace mlir::amls

#endif // AMLS_CONVERSION_ELEMENTCONVERSION_H
