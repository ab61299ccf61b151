//===- AMLSRowLocality.cpp - Row-locality of AMLS ops ---------------------===//
//
// The one definition of row-locality: how each op behaves when some of its
// operands are blocks of rows (RowLocalityInterface), as external models
// attached by the dialect. The Row template's planner and the verifier of
// `amls.fused row` both ask `getRowLocality`.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::amls;

RowLocality mlir::amls::getRowLocality(Operation *op,
                                       ArrayRef<RowValueKind> operandKinds) {
  auto is = [&](RowValueKind kind) {
    return llvm::is_contained(operandKinds, kind);
  };
  if (is(RowValueKind::Partial))
    return RowLocality::notRowLocal(
        "it reads a partial result over a block of rows");
  auto rowLocal = dyn_cast<RowLocalityInterface>(op);
  // The number of rows of a block differs between blocks: it only ends the
  // rows an op reads (keeping all rows of the block).
  for (auto [i, kind] : llvm::enumerate(operandKinds))
    if (kind == RowValueKind::NumRows && !(rowLocal && rowLocal.isRowEnd(i)))
      return RowLocality::notRowLocal("it reads the number of rows of a block");
  if (!is(RowValueKind::Rows) && !is(RowValueKind::TransposedRows))
    return RowLocality::of(RowValueKind::Side); // The same for every block.
  if (!rowLocal)
    return RowLocality::notRowLocal("its rows may depend on other rows");
  return rowLocal.getRowLocality(operandKinds);
}

namespace {

/// Only a product t(rows) %*% rows reads a transposed block.
std::optional<RowLocality>
rejectTransposedRows(ArrayRef<RowValueKind> operandKinds) {
  if (llvm::is_contained(operandKinds, RowValueKind::TransposedRows))
    return RowLocality::notRowLocal("a transposed block of rows is only read "
                                    "by a product t(rows) %*% rows");
  return std::nullopt;
}

/// Element-wise ops: row-local when every matrix operand is a block of rows
/// or broadcast along the rows (a row vector or a 1x1 matrix).
template <typename OpTy>
struct ElementwiseRowLocality
    : RowLocalityInterface::ExternalModel<ElementwiseRowLocality<OpTy>, OpTy> {
  RowLocality getRowLocality(Operation *op,
                             ArrayRef<RowValueKind> operandKinds) const {
    if (auto rejected = rejectTransposedRows(operandKinds))
      return *rejected;
    for (auto [operand, kind] : llvm::zip(op->getOperands(), operandKinds)) {
      auto type = dyn_cast<MatrixType>(operand.getType());
      if (type && kind != RowValueKind::Rows && type.getRows() != 1)
        return RowLocality::notRowLocal("an element-wise operand is neither a "
                                        "block of rows nor broadcast along "
                                        "the rows");
    }
    return RowLocality::of(RowValueKind::Rows);
  }
};

/// `rows %*% side` is a block of rows of the product; `t(rows) %*% rows`
/// is the block's partial sum of the product over all rows.
struct MatmulRowLocality
    : RowLocalityInterface::ExternalModel<MatmulRowLocality, MatmulOp> {
  RowLocality getRowLocality(Operation *op,
                             ArrayRef<RowValueKind> operandKinds) const {
    auto product = cast<MatmulOp>(op);
    RowValueKind lhs = operandKinds[product.getLhsMutable().getOperandNumber()];
    RowValueKind rhs = operandKinds[product.getRhsMutable().getOperandNumber()];
    if (lhs == RowValueKind::TransposedRows && rhs == RowValueKind::Rows)
      return RowLocality::partial(AggKind::Sum);
    if (lhs == RowValueKind::Rows && rhs == RowValueKind::Side)
      return RowLocality::of(RowValueKind::Rows);
    return RowLocality::notRowLocal(
        "a product must be rows %*% side input or t(rows) %*% rows");
  }
};

/// Row aggregates are blocks of rows; full and column aggregates are
/// partial results when their kind combines over the blocks.
struct AggRowLocality
    : RowLocalityInterface::ExternalModel<AggRowLocality, AggOp> {
  RowLocality getRowLocality(Operation *op,
                             ArrayRef<RowValueKind> operandKinds) const {
    if (auto rejected = rejectTransposedRows(operandKinds))
      return *rejected;
    auto aggregate = cast<AggOp>(op);
    if (aggregate.getAxis() == AggAxis::Row)
      return RowLocality::of(RowValueKind::Rows);
    AggKind kind = aggregate.getKind();
    if (kind != AggKind::Sum && kind != AggKind::Min && kind != AggKind::Max)
      return RowLocality::notRowLocal(
          "a full or column aggregate over a block of rows must be a sum, min "
          "or max to be combined over the blocks");
    return RowLocality::partial(kind);
  }
};

/// A slice of a block is a block of rows when it keeps all of its rows:
/// from row 0 to the number of rows of the block (`nrow` of the sliced
/// block, where it is read through `nrow`).
struct SliceRowLocality
    : RowLocalityInterface::ExternalModel<SliceRowLocality, SliceOp> {
  RowLocality getRowLocality(Operation *op,
                             ArrayRef<RowValueKind> operandKinds) const {
    if (auto rejected = rejectTransposedRows(operandKinds))
      return *rejected;
    auto slice = cast<SliceOp>(op);
    if (operandKinds[slice.getInputMutable().getOperandNumber()] !=
        RowValueKind::Rows)
      return RowLocality::of(RowValueKind::Side); // Only the end is per block.
    auto nrow = slice.getRowEnd().getDefiningOp<NRowOp>();
    if (getConstantIntValue(slice.getRowBegin()) != 0 ||
        operandKinds[slice.getRowEndMutable().getOperandNumber()] !=
            RowValueKind::NumRows ||
        (nrow && nrow.getInput() != slice.getInput()))
      return RowLocality::notRowLocal(
          "a slice must keep all rows of the block");
    return RowLocality::of(RowValueKind::Rows);
  }
  bool isRowEnd(Operation *op, unsigned operandIndex) const {
    return operandIndex ==
           cast<SliceOp>(op).getRowEndMutable().getOperandNumber();
  }
};

/// t(rows) is a transposed block, read only by a closing product.
struct TransposeRowLocality
    : RowLocalityInterface::ExternalModel<TransposeRowLocality, TransposeOp> {
  RowLocality getRowLocality(Operation *op,
                             ArrayRef<RowValueKind> operandKinds) const {
    if (auto rejected = rejectTransposedRows(operandKinds))
      return *rejected;
    return RowLocality::of(RowValueKind::TransposedRows);
  }
};

/// nrow(rows) is the number of rows of a block, ncol(rows) the same for
/// every block.
template <typename OpTy, RowValueKind result>
struct SizeRowLocality
    : RowLocalityInterface::ExternalModel<SizeRowLocality<OpTy, result>, OpTy> {
  RowLocality getRowLocality(Operation *op,
                             ArrayRef<RowValueKind> operandKinds) const {
    if (auto rejected = rejectTransposedRows(operandKinds))
      return *rejected;
    return RowLocality::of(result);
  }
};

/// Attaches the element-wise model to every op with ElementwiseOpInterface.
template <typename... OpTys>
void attachElementwiseRowLocality(MLIRContext &context) {
  (
      [&] {
        if constexpr (OpTys::template hasTrait<ElementwiseOpInterface::Trait>())
          OpTys::template attachInterface<ElementwiseRowLocality<OpTys>>(
              context);
      }(),
      ...);
}

} // namespace

void mlir::amls::registerRowLocalityModels(MLIRContext &context) {
  attachElementwiseRowLocality<
#define GET_OP_LIST
#include "AMLS/Dialect/AMLSOps.cpp.inc"
      >(context);
  MatmulOp::attachInterface<MatmulRowLocality>(context);
  AggOp::attachInterface<AggRowLocality>(context);
  SliceOp::attachInterface<SliceRowLocality>(context);
  TransposeOp::attachInterface<TransposeRowLocality>(context);
  NRowOp::attachInterface<SizeRowLocality<NRowOp, RowValueKind::NumRows>>(
      context);
  NColOp::attachInterface<SizeRowLocality<NColOp, RowValueKind::Side>>(context);
}
