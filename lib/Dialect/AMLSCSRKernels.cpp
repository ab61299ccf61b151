//===- AMLSCSRKernels.cpp - Which ops have CSR kernels --------------------===//
//
// The one definition of what the CSR lowering covers (CSRKernelInterface),
// as external models attached by the dialect: --amls-select-formats keeps
// a value CSR only where its producer and consumers have kernels for it,
// and --convert-amls-to-linalg rejects anything else.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSCSRRowBody.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::amls;

bool mlir::amls::isCSRMatrix(Type type) {
  auto matrix = dyn_cast<MatrixType>(type);
  return matrix && matrix.getFormat() == MatrixFormat::CSR;
}

bool mlir::amls::mayHaveResultShape(Type operand, Type result) {
  auto type = dyn_cast<MatrixType>(operand);
  auto resultType = dyn_cast<MatrixType>(result);
  if (!type || !resultType)
    return false;
  auto agrees = [](int64_t size, int64_t resultSize) {
    if (ShapedType::isDynamic(size))
      return true;
    return ShapedType::isDynamic(resultSize) ? size != 1 : size == resultSize;
  };
  return agrees(type.getRows(), resultType.getRows()) &&
         agrees(type.getCols(), resultType.getCols());
}

bool mlir::amls::touchesCSRMatrix(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isCSRMatrix) ||
         llvm::any_of(op->getResultTypes(), isCSRMatrix);
}

bool mlir::amls::hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                              ArrayRef<bool> csrResults) {
  if (!llvm::is_contained(csrOperands, true) &&
      !llvm::is_contained(csrResults, true))
    return true;
  // The kernels compute in f64 (the runtime's element type).
  for (auto [value, csr] : llvm::zip(op->getOperands(), csrOperands))
    if (csr && cast<MatrixType>(value.getType()).getElementType() !=
                   Float64Type::get(op->getContext()))
      return false;
  for (auto [value, csr] : llvm::zip(op->getResults(), csrResults))
    if (csr && cast<MatrixType>(value.getType()).getElementType() !=
                   Float64Type::get(op->getContext()))
      return false;
  auto kernels = dyn_cast<CSRKernelInterface>(op);
  return kernels && kernels.hasCSRKernel(csrOperands, csrResults);
}

namespace {

bool isMatrix(Value value) { return isa<MatrixType>(value.getType()); }

/// Whether `value`, a CSR operand of an element-wise op, can have the
/// result's shape (its pattern is the result's; a CSR vector broadcast by
/// its static type is not).
bool hasResultShape(Value value, Value result) {
  return mayHaveResultShape(value.getType(), result.getType());
}

bool isVector(Value value) {
  auto type = dyn_cast<MatrixType>(value.getType());
  return type && (type.getRows() == 1 || type.getCols() == 1);
}

/// `amls.convert`: any format to any format.
struct ConvertKernels
    : CSRKernelInterface::ExternalModel<ConvertKernels, ConvertOp> {
  bool hasCSRKernel(Operation *, ArrayRef<bool>, ArrayRef<bool>) const {
    return true;
  }
};

/// Ops that only look at a matrix's sizes, values or file (never build a
/// CSR matrix): `nrow`, `ncol`, `nnz`, `write`, `compress` (which reads the
/// rows' non-zeros), and `cast`, which keeps the format.
template <typename OpTy>
struct ReadOnlyKernels
    : CSRKernelInterface::ExternalModel<ReadOnlyKernels<OpTy>, OpTy> {
  bool hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    if (isa<CastOp>(op))
      return csrOperands[0] == csrResults[0];
    return !llvm::is_contained(csrResults, true);
  }
};

/// `amls.read` parses a file straight into CSR.
struct ReadKernels : CSRKernelInterface::ExternalModel<ReadKernels, ReadOp> {
  bool hasCSRKernel(Operation *, ArrayRef<bool>, ArrayRef<bool>) const {
    return true;
  }
};

/// Products: CSR %*% dense, dense %*% CSR (dense results) and CSR %*% CSR
/// (a CSR result); `tsmm` and `mmchain` over a CSR X give dense results.
struct MatmulKernels
    : CSRKernelInterface::ExternalModel<MatmulKernels, MatmulOp> {
  bool hasCSRKernel(Operation *, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    bool lhs = csrOperands[0], rhs = csrOperands[1];
    if (lhs && rhs)
      return csrResults[0];
    return !csrResults[0];
  }
};

/// mmchain and cumulative aggregates of a CSR X give dense results.
template <typename OpTy>
struct MainInputKernels
    : CSRKernelInterface::ExternalModel<MainInputKernels<OpTy>, OpTy> {
  bool hasCSRKernel(Operation *, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    // Only the main (first) input may be CSR; the result is dense.
    return llvm::count(csrOperands, true) == 1 && csrOperands[0] &&
           !csrResults[0];
  }
};

/// t(X) %*% X over a CSR X (X %*% t(X) has no CSR kernel).
struct TsmmKernels : CSRKernelInterface::ExternalModel<TsmmKernels, TsmmOp> {
  bool hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    return cast<TsmmOp>(op).getSide() == TsmmSide::Left && csrOperands[0] &&
           !csrResults[0];
  }
};

/// Aggregates of a CSR matrix (sum, sum of squares, min, max, mean over all
/// cells, rows or columns) give dense results.
struct AggKernels : CSRKernelInterface::ExternalModel<AggKernels, AggOp> {
  bool hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    auto agg = cast<AggOp>(op);
    if (llvm::is_contained(csrResults, true) || !csrOperands[0])
      return false;
    switch (agg.getKind()) {
    case AggKind::Sum:
    case AggKind::SumSq:
    case AggKind::Min:
    case AggKind::Max:
    case AggKind::Mean:
      return true;
    default:
      return false;
    }
  }
};

/// Reorganisations that keep a CSR matrix CSR: transpose, slices, rev, and
/// cbind/rbind of CSR matrices.
template <typename OpTy>
struct ReorganisationKernels
    : CSRKernelInterface::ExternalModel<ReorganisationKernels<OpTy>, OpTy> {
  bool hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    for (auto [value, csr] : llvm::zip(op->getOperands(), csrOperands))
      if (isMatrix(value) && !csr)
        return false;
    return csrResults[0];
  }
};

/// removeEmpty of a CSR matrix keeps it CSR; `select` is a dense vector.
struct RemoveEmptyKernels
    : CSRKernelInterface::ExternalModel<RemoveEmptyKernels, RemoveEmptyOp> {
  bool hasCSRKernel(Operation *, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    bool denseSelect = csrOperands.size() < 2 || !csrOperands[1];
    return csrOperands[0] && denseSelect && csrResults[0];
  }
};

/// replace(X, pattern, r) of a CSR X: CSR when the implicit zeros cannot
/// match (a constant pattern != 0, NaN included: the stored values are
/// mapped); otherwise the kernel writes the dense result straight from X.
struct ReplaceKernels
    : CSRKernelInterface::ExternalModel<ReplaceKernels, ReplaceOp> {
  bool hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    if (!csrOperands[0])
      return false;
    if (!csrResults[0])
      return true;
    std::optional<double> pattern =
        getConstantScalar(cast<ReplaceOp>(op).getPattern());
    return pattern && *pattern != 0.0;
  }
};

/// print, printf and stop print a CSR matrix as they print a dense one.
template <typename OpTy>
struct MessageKernels
    : CSRKernelInterface::ExternalModel<MessageKernels<OpTy>, OpTy> {
  bool hasCSRKernel(Operation *, ArrayRef<bool>, ArrayRef<bool>) const {
    return true;
  }
};

/// Sparse-safe unary functions (f(0) = 0) map the stored values of a CSR
/// matrix and keep its pattern.
template <typename OpTy>
struct UnaryKernels
    : CSRKernelInterface::ExternalModel<UnaryKernels<OpTy>, OpTy> {
  bool hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    return op->hasTrait<SparseSafe>() && csrOperands[0] && csrResults[0];
  }
};

/// Element-wise binary ops with one CSR operand and a CSR result keep the
/// CSR operand's pattern: the other operand is a scalar, a dense matrix of
/// the same shape or a broadcast vector, and f(0, y) = 0 (f(y, 0) = 0 for
/// a CSR right operand) for every y it can meet. That holds for `*` always,
/// for other ops with a constant scalar when f(0, c) = 0 (X / 2, X > 0,
/// X ^ 2), and for `/` by a dense vector after a run-time check that no
/// divisor is 0 or NaN (otherwise the lowering computes the quotient dense
/// and stores it CSR).
///
/// Any other of these ops with one CSR operand has a dense result: f(0, y)
/// at every cell and f(x, y) at the stored ones.
///
/// Two CSR operands of +, -, *, min and max merge their rows into a CSR
/// result (the union of the patterns; the intersection for *).
///
/// No CSR operand: the result is computed dense; a CSR result is a
/// conversion after it (amls.convert), not a kernel of the op.
template <typename OpTy>
struct BinaryKernels
    : CSRKernelInterface::ExternalModel<BinaryKernels<OpTy>, OpTy> {
  bool hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    Value result = op->getResult(0);
    if (!csrOperands[0] && !csrOperands[1])
      return !csrResults[0];
    if (csrOperands[0] && csrOperands[1])
      return csrResults[0] && isa<AddOp, SubOp, MulOp, MinOp, MaxOp>(op) &&
             hasResultShape(op->getOperand(0), result) &&
             hasResultShape(op->getOperand(1), result);
    unsigned sparse = csrOperands[0] ? 0 : 1;
    if (!hasResultShape(op->getOperand(sparse), result))
      return false;
    // A result that keeps the pattern is CSR (rowMaxs(G * t(c)) reads G
    // through it); any other is dense: f(0, y) everywhere, f(x, y) at the
    // stored cells.
    return csrResults[0] == keepsPattern(op, sparse);
  }

  static bool keepsPattern(Operation *op, unsigned sparse) {
    Value other = op->getOperand(1 - sparse);
    if (isa<MulOp>(op))
      return true;
    if (!isMatrix(other)) {
      std::optional<double> c = getConstantScalar(other);
      if (!c)
        return false;
      double zero =
          sparse == 0 ? OpTy::applyScalar(0.0, *c) : OpTy::applyScalar(*c, 0.0);
      return zero == 0.0;
    }
    return isa<DivOp>(op) && sparse == 0 && isVector(other);
  }
};

/// trace and diag of a CSR matrix (dense results); diag of a dense vector
/// as a CSR diagonal matrix.
struct TraceKernels : CSRKernelInterface::ExternalModel<TraceKernels, TraceOp> {
  bool hasCSRKernel(Operation *, ArrayRef<bool> csrOperands,
                    ArrayRef<bool>) const {
    return csrOperands[0];
  }
};

struct DiagKernels : CSRKernelInterface::ExternalModel<DiagKernels, DiagOp> {
  bool hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    bool fromVector =
        cast<MatrixType>(op->getOperand(0).getType()).getCols() == 1;
    return fromVector ? !csrOperands[0] && csrResults[0]
                      : csrOperands[0] && !csrResults[0];
  }
};

/// table() builds its result CSR from the category vectors.
struct TableKernels : CSRKernelInterface::ExternalModel<TableKernels, TableOp> {
  bool hasCSRKernel(Operation *, ArrayRef<bool> csrOperands,
                    ArrayRef<bool>) const {
    return !llvm::is_contained(csrOperands, true);
  }
};

/// Whether every value `body` yields is zero where its first argument (the
/// main input's cell) is: the body is evaluated with that argument 0 and
/// the others unknown (constant scalar inputs aside), folding what becomes
/// constant; x * 0 is 0 whatever x, as the CSR kernels of X * Y take it.
/// Evaluated on a copy, since folding may reorder a commutative op's
/// operands in place.
bool yieldsZeroWhereMainIsZero(FusedOp op) {
  auto copy = cast<FusedOp>(op->clone());
  Block &body = copy.getBody().front();
  Builder builder(op->getContext());
  DenseMap<Value, Attribute> known;
  auto isZero = [](Attribute attr) {
    if (auto value = dyn_cast_or_null<FloatAttr>(attr))
      return value.getValue().isZero();
    if (auto value = dyn_cast_or_null<IntegerAttr>(attr))
      return value.getValue().isZero();
    return false;
  };
  auto isNonZeroNumber = [](Attribute attr) {
    auto value = dyn_cast_or_null<FloatAttr>(attr);
    return value && !value.getValue().isZero() && !value.getValue().isNaN();
  };
  bool zero = false;
  if (body.getNumArguments() > 0 &&
      isa<FloatType>(body.getArgument(0).getType())) {
    known[body.getArgument(0)] =
        builder.getFloatAttr(body.getArgument(0).getType(), 0.0);
    // Constant scalar inputs (X ^ 2) are known too.
    for (auto [argument, input] : llvm::zip(body.getArguments().drop_front(),
                                            op->getOperands().drop_front())) {
      Attribute constant;
      if (!isa<MatrixType>(input.getType()) &&
          matchPattern(input, m_Constant(&constant)))
        known[argument] = constant;
    }
    for (Operation &nested : body.without_terminator()) {
      if (nested.getNumResults() != 1)
        break;
      SmallVector<Attribute> operands = llvm::map_to_vector(
          nested.getOperands(), [&](Value v) { return known.lookup(v); });
      Type type = nested.getResult(0).getType();
      Attribute result;
      if (isa<arith::MulFOp>(nested) && llvm::any_of(operands, isZero)) {
        result = builder.getFloatAttr(type, 0.0);
      } else if (isa<arith::DivFOp>(nested) && isZero(operands[0]) &&
                 isNonZeroNumber(operands[1])) {
        result = builder.getFloatAttr(type, 0.0);
      } else if (isa<arith::SelectOp>(nested) && operands[1] &&
                 operands[1] == operands[2]) {
        result = operands[1];
      } else {
        SmallVector<OpFoldResult> folded;
        if (succeeded(nested.fold(operands, folded)) && folded.size() == 1) {
          if (auto attr = dyn_cast<Attribute>(folded.front()))
            result = attr;
          else
            result = known.lookup(cast<Value>(folded.front()));
        }
      }
      if (result)
        known[nested.getResult(0)] = result;
    }
    zero = llvm::all_of(body.getTerminator()->getOperands(),
                        [&](Value v) { return isZero(known.lookup(v)); });
  }
  copy->erase();
  return zero;
}

/// A fused operator whose main input (operand 0) is its only CSR operand
/// and whose body is zero where the main input is (sparse-safe) visits the
/// stored values only:
/// - outer: sum(X * f(U %*% t(V))) or the element-wise X * f(U %*% t(V));
/// - cell and magg: element-wise results keep the main input's pattern
///   (CSR results); aggregates (sum, sumsq, min, max over all cells, rows
///   or columns) give dense results;
/// - row: t(X) %*% R with R computed from X's rows (AMLSCSRRowBody.cpp).
struct FusedKernels : CSRKernelInterface::ExternalModel<FusedKernels, FusedOp> {
  bool hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                    ArrayRef<bool> csrResults) const {
    auto fused = cast<FusedOp>(op);
    if (csrOperands.empty() || !csrOperands[0] ||
        llvm::count(csrOperands, true) != 1)
      return false;
    bool aggregated = fused.getAggregate().has_value();
    bool resultsMatch =
        llvm::all_of(csrResults, [&](bool csr) { return csr != aggregated; });
    switch (fused.getKind()) {
    case FusedTemplate::Row:
      // t(X) %*% R over X's rows (AMLSCSRRowBody.cpp), a dense result.
      return !llvm::is_contained(csrResults, true) &&
             analyzeCSRRowBody(fused).has_value();
    case FusedTemplate::Outer:
      break;
    case FusedTemplate::Cell:
    case FusedTemplate::MAgg:
      // The body reads every matrix's cells as f64 (the runtime's type).
      for (Value input : fused.getInputs())
        if (auto type = dyn_cast<MatrixType>(input.getType());
            type && !type.getElementType().isF64())
          return false;
      if (aggregated) {
        ArrayAttr kinds = *fused.getAggregate();
        for (Attribute kind : kinds)
          if (!llvm::is_contained(
                  {AggKind::Sum, AggKind::SumSq, AggKind::Min, AggKind::Max},
                  cast<AggKindAttr>(kind).getValue()))
            return false;
      }
      break;
    }
    return resultsMatch && yieldsZeroWhereMainIsZero(fused);
  }
};

template <typename... Ops> void attachUnary(MLIRContext &context) {
  (Ops::template attachInterface<UnaryKernels<Ops>>(context), ...);
}

template <typename... Ops> void attachBinary(MLIRContext &context) {
  (Ops::template attachInterface<BinaryKernels<Ops>>(context), ...);
}

} // namespace

void mlir::amls::registerCSRKernelModels(MLIRContext &context) {
  ConvertOp::attachInterface<ConvertKernels>(context);
  ReadOp::attachInterface<ReadKernels>(context);
  WriteOp::attachInterface<ReadOnlyKernels<WriteOp>>(context);
  NRowOp::attachInterface<ReadOnlyKernels<NRowOp>>(context);
  NColOp::attachInterface<ReadOnlyKernels<NColOp>>(context);
  NnzOp::attachInterface<ReadOnlyKernels<NnzOp>>(context);
  CastOp::attachInterface<ReadOnlyKernels<CastOp>>(context);
  CompressOp::attachInterface<ReadOnlyKernels<CompressOp>>(context);
  MatmulOp::attachInterface<MatmulKernels>(context);
  TsmmOp::attachInterface<TsmmKernels>(context);
  MMChainOp::attachInterface<MainInputKernels<MMChainOp>>(context);
  AggOp::attachInterface<AggKernels>(context);
  TransposeOp::attachInterface<ReorganisationKernels<TransposeOp>>(context);
  SliceOp::attachInterface<ReorganisationKernels<SliceOp>>(context);
  CBindOp::attachInterface<ReorganisationKernels<CBindOp>>(context);
  RBindOp::attachInterface<ReorganisationKernels<RBindOp>>(context);
  RevOp::attachInterface<ReorganisationKernels<RevOp>>(context);
  RemoveEmptyOp::attachInterface<RemoveEmptyKernels>(context);
  ReplaceOp::attachInterface<ReplaceKernels>(context);
  CumAggOp::attachInterface<MainInputKernels<CumAggOp>>(context);
  PrintOp::attachInterface<MessageKernels<PrintOp>>(context);
  PrintfOp::attachInterface<MessageKernels<PrintfOp>>(context);
  StopOp::attachInterface<MessageKernels<StopOp>>(context);
  ReportOp::attachInterface<MessageKernels<ReportOp>>(context);
  WriteScalarOp::attachInterface<MessageKernels<WriteScalarOp>>(context);
  attachUnary<NegOp, AbsOp, SqrtOp, RoundOp, FloorOp, CeilOp, SignOp, SinOp,
              TanhOp, TanOp, AsinOp, AtanOp, SinhOp, IsNaNOp>(context);
  attachBinary<AddOp, SubOp, MulOp, DivOp, PowOp, MinOp, MaxOp, GtOp, LtOp,
               NeOp, AndOp, BitwAndOp, BitwShiftLOp, BitwShiftROp>(context);
  TraceOp::attachInterface<TraceKernels>(context);
  DiagOp::attachInterface<DiagKernels>(context);
  TableOp::attachInterface<TableKernels>(context);
  FusedOp::attachInterface<FusedKernels>(context);
}
