//===- RowTemplate.h - Row-template fusion for --amls-fuse ------*- C++ -*-===//
//
// The Row template of seed 000 (SystemML's codegen): row-wise computations
// over the rows of a large main input, e.g. MLogreg's
//   Q = P[,1:k] * (X %*% V);  H = t(X) %*% (Q - P[,1:k] * rowSums(Q))
// closed by a product with the transposed main input, fused into one
// `amls.fused row` operator that reads the main input once.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_TRANSFORMS_ROWTEMPLATE_H
#define AMLS_TRANSFORMS_ROWTEMPLATE_H

#include "AMLS/Analysis/FusionPlan.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir {
class Block;
namespace amls {
class ElementwiseOpInterface;

/// Floating-point work of one cell of an element-wise op (transcendental
/// functions count 10, divisions 4).
double cellFlops(ElementwiseOpInterface op);

/// Fuses the row-template candidates of `block` that the cost model prefers
/// to the unfused ops (every valid candidate unless `costBased`), and
/// explains each decision on `explain` when given. Returns the number of
/// operators created.
unsigned fuseRowTemplates(Block &block, const fusion::CostModel &model,
                          bool costBased, llvm::raw_ostream *explain);

} // namespace amls
} // namespace mlir

#endif // AMLS_TRANSFORMS_ROWTEMPLATE_H
