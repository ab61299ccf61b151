//===- FusionTemplates.h - Row, Outer and sparse cell templates -*- C++ -*-===//
//
// The Row and Outer templates of seed 000 (SystemML's codegen), planned per
// block before the cell and multi-aggregate partitions:
// - Row: row-wise computations over the rows of a large main input, e.g.
//   MLogreg's Q = P[,1:k] * (X %*% V); H = t(X) %*% (Q - P[,1:k] * rowSums(Q)),
//   closed by a product with the transposed main input: one `amls.fused row`
//   operator that reads the main input once.
// - Outer: sparse-safe cell chains over an outer product, e.g.
//   sum(X * log(U %*% t(V) + eps)): one `amls.fused outer` operator that
//   computes the product's cells only where X is non-zero.
// - Sparse cell: cell chains that keep a CSR matrix's pattern, closed by an
//   aggregate or not, e.g. sum(X * Y) with a CSR X: one `amls.fused cell`
//   operator over X's stored values.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_TRANSFORMS_FUSIONTEMPLATES_H
#define AMLS_TRANSFORMS_FUSIONTEMPLATES_H

#include "AMLS/CostModel/FusionPlan.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir {
class Block;
class Value;
namespace amls {
class ElementwiseOpInterface;

/// Floating-point work of one cell of an element-wise op (transcendental
/// functions count 10, divisions 4).
double cellFlops(ElementwiseOpInterface op);

/// A size for the cost model: an unknown size counts as 1024, as the cell
/// planner assumes for its inputs.
double costModelSize(int64_t size);
/// Cells of a matrix value (sizes as above); 0 for scalars.
double costModelCells(Value value);
/// The seed's cost of one fused operator, T_w + max(T_r, T_c): bytes at
/// memory bandwidth, `flops` at `flopRate`.
double operatorCost(const fusion::CostModel &model, double readBytes,
                    double writtenBytes, double flops, double flopRate);

/// Fuses the row-template candidates of `block` that the cost model prefers
/// to the unfused ops (every valid candidate unless `costBased`), and
/// explains each decision on `explain` when given. Returns the number of
/// operators created.
unsigned fuseRowTemplates(Block &block, const fusion::CostModel &model,
                          bool costBased, llvm::raw_ostream *explain);

/// The same for Outer-template candidates.
unsigned fuseOuterTemplates(Block &block, const fusion::CostModel &model,
                            bool costBased, llvm::raw_ostream *explain);

/// The same for cell chains over the stored values of a CSR main input
/// (SparseCellTemplate.cpp).
unsigned fuseSparseCellTemplates(Block &block, const fusion::CostModel &model,
                                 bool costBased, llvm::raw_ostream *explain);

} // namespace amls
} // namespace mlir

#endif // AMLS_TRANSFORMS_FUSIONTEMPLATES_H
