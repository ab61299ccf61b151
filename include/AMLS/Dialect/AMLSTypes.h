//===- AMLSTypes.h - AMLS types and attributes ------------------*- C++ -*-===//

#ifndef AMLS_DIALECT_AMLSTYPES_H
#define AMLS_DIALECT_AMLSTYPES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include "AMLS/CostModel/MNCSketch.h"
#include "llvm/ADT/Hashing.h"

#include "AMLS/Dialect/AMLSEnums.h.inc"

namespace mlir::amls {
/// MNCSketchAttr's storage key hashes the sketch's counts.
inline llvm::hash_code hash_value(const MNCSketchRef &sketch) {
  return llvm::hash_value(sketch->hash());
}
} // namespace mlir::amls

#define GET_ATTRDEF_CLASSES
#include "AMLS/Dialect/AMLSAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "AMLS/Dialect/AMLSOpsTypes.h.inc"

namespace mlir::amls {
/// Element types a matrix may hold.
bool isValidMatrixElementType(Type type);
/// The shortest decimal text that reads back as `value` ("0.5", "2", "1e-05").
std::string formatShortest(double value);
} // namespace mlir::amls

#endif // AMLS_DIALECT_AMLSTYPES_H
