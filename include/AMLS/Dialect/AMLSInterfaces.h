//===- AMLSInterfaces.h - AMLS interfaces and traits ------------*- C++ -*-===//

#ifndef AMLS_DIALECT_AMLSINTERFACES_H
#define AMLS_DIALECT_AMLSINTERFACES_H

#include "AMLS/CostModel/SparsityEstimator.h"
#include "AMLS/Dialect/AMLSTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amls {

/// What an inference rule may know about the operands of one operation.
class MatrixInferenceContext {
public:
  /// `constantOperands` has one entry per operand, null where unknown.
  /// Diagnostics go to `op` when `emitDiagnostics` is set, else nowhere.
  MatrixInferenceContext(Operation *op, ArrayRef<Type> operandTypes,
                         ArrayRef<Attribute> constantOperands,
                         const SparsityEstimator &estimator,
                         bool emitDiagnostics)
      : op(op), operandTypes(operandTypes), constantOperands(constantOperands),
        estimator(estimator), emitDiagnostics(emitDiagnostics) {}

  Operation *getOp() const { return op; }
  MLIRContext *getContext() const;
  unsigned getNumOperands() const { return operandTypes.size(); }
  Type getOperandType(unsigned i) const { return operandTypes[i]; }
  /// The operand's matrix type, or null if it is a scalar.
  MatrixType getMatrix(unsigned i) const;
  std::optional<int64_t> getConstantInt(unsigned i) const;
  std::optional<double> getConstantFloat(unsigned i) const;
  Attribute getConstant(unsigned i) const { return constantOperands[i]; }
  const SparsityEstimator &getEstimator() const { return estimator; }

  /// Whether rules may look at files named by the program (the sizes in a
  /// Matrix Market header): the inference pass allows it, verifiers do not.
  bool allowsFileMetadata() const { return fileMetadata; }
  void setAllowsFileMetadata(bool allow) { fileMetadata = allow; }

  /// An error at the operation (an inactive diagnostic when not emitting).
  InFlightDiagnostic emitOpError() const;

private:
  Operation *op;
  ArrayRef<Type> operandTypes;
  ArrayRef<Attribute> constantOperands;
  const SparsityEstimator &estimator;
  bool emitDiagnostics;
  bool fileMetadata = false;
};

/// Which cells of `f(A, B)` can be non-zero, for two matrix operands.
enum class BinarySparsity {
  /// Non-zero only where A or B is (f(0,0) = 0): add, sub, min, max, ...
  Union,
  /// Non-zero only where both are (f(x,0) = f(0,y) = 0): mul, and.
  Intersection,
  /// Non-zero only where A is non-zero or B is zero (f(0,y) = 0 for y != 0):
  /// div, mod, intdiv.
  LeftOrRightZero,
  /// f(0,0) may be non-zero: nothing is known.
  Unknown
};

/// Whether `refined` may replace `declared`: same element type and sizes
/// that agree where both are known. Sparsity and format are estimates and
/// physical choices, not part of compatibility.
bool areCompatibleMatrixTypes(Type declared, Type refined);

/// `declared` made as precise as `inferred` allows: unknown sizes take the
/// inferred ones, and an inferred sparsity replaces the declared estimate.
Type refineType(Type declared, Type inferred);

/// Lattice join of two types of the same value: sizes and sparsity that
/// differ become unknown.
Type joinTypes(Type lhs, Type rhs);

/// The value of a constant scalar (float or integer), if it is one.
std::optional<double> getConstantScalar(Value value);

namespace detail {
LogicalResult verifyInferredMatrixProperties(Operation *op);

/// Runs `op`'s inference rule on its current operand types and constant
/// operands; diagnostics go to `op` only when `emitDiagnostics` is set.
LogicalResult inferFromOperands(Operation *op, bool emitDiagnostics,
                                SmallVectorImpl<Type> &inferred);

/// The number of non-zero elements of a literal.
int64_t countNonZeros(DenseElementsAttr literal);

LogicalResult inferElementwiseBinary(const MatrixInferenceContext &context,
                                     BinarySparsity sparsity,
                                     double (*applyScalar)(double, double),
                                     SmallVectorImpl<Type> &inferredTypes);
LogicalResult
inferElementwiseUnary(const MatrixInferenceContext &context,
                      std::optional<double> (*estimate)(std::optional<double>),
                      SmallVectorImpl<Type> &inferredTypes);
OpFoldResult foldElementwiseBinary(Operation *op, Attribute lhs, Attribute rhs,
                                   double (*applyScalar)(double, double));
OpFoldResult foldElementwiseUnary(Operation *op, Attribute input,
                                  double (*applyScalar)(double));
/// f(c, X) -> X and f(X, c) -> X for the given identities of op `opName`.
void populateIdentityPatterns(RewritePatternSet &patterns, StringRef opName,
                              std::optional<double> leftIdentity,
                              std::optional<double> rightIdentity);
/// f(f(X)) -> X for op `opName`.
void populateInvolutionPatterns(RewritePatternSet &patterns, StringRef opName);
/// `value` as a replacement for a result of type `type`: itself, or an
/// `amls.cast` to `type` where the two types differ compatibly.
Value castToType(OpBuilder &builder, Location loc, Value value, Type type);
} // namespace detail

/// How a value relates to the blocks of rows of a row operator (or of a Row
/// candidate, where the whole matrix is one block): the operand kinds that
/// `RowLocalityInterface` is asked about and the kinds it answers.
enum class RowValueKind {
  /// The same for every block: a side input, a scalar, a broadcast vector.
  Side,
  /// A block of rows: one row per row of the block.
  Rows,
  /// The transpose of a block of rows.
  TransposedRows,
  /// The number of rows of a block (it differs between blocks).
  NumRows,
  /// A partial result over a block, combined over the blocks.
  Partial,
};

/// What an op computes when some of its operands are blocks of rows: the
/// kind of its results (with the kind that combines a partial result over
/// the blocks), or not row-local, with the reason.
class RowLocality {
public:
  static RowLocality of(RowValueKind kind) { return RowLocality(kind); }
  static RowLocality partial(AggKind combiner) {
    RowLocality locality(RowValueKind::Partial);
    locality.combiner = combiner;
    return locality;
  }
  /// `reason` is a string literal completing "is not row-local: ...".
  static RowLocality notRowLocal(StringRef reason) {
    RowLocality locality(RowValueKind::Side);
    locality.reason = reason;
    return locality;
  }

  bool isRowLocal() const { return reason.empty(); }
  /// The kind of every result (when row-local).
  RowValueKind getResultKind() const { return kind; }
  /// How a partial result is combined over the blocks.
  AggKind getCombiner() const { return combiner; }
  StringRef getReason() const { return reason; }

private:
  explicit RowLocality(RowValueKind kind) : kind(kind) {}
  RowValueKind kind;
  AggKind combiner = AggKind::Sum;
  StringRef reason;
};

/// The row-locality of `op` when its operands are of `operandKinds` (one
/// per operand): the rules common to all ops, then the op's
/// `RowLocalityInterface`; an op without it is not row-local.
RowLocality getRowLocality(Operation *op, ArrayRef<RowValueKind> operandKinds);

/// Attaches the external models of `RowLocalityInterface` to the AMLS ops
/// (called by the dialect's initialization).
void registerRowLocalityModels(MLIRContext &context);

/// Whether `op` has a kernel for the storage formats marked CSR in
/// `csrOperands` and `csrResults` (one flag per operand and result): true
/// when nothing is CSR, otherwise the op's `CSRKernelInterface`; an op
/// without it takes dense matrices only.
bool hasCSRKernel(Operation *op, ArrayRef<bool> csrOperands,
                  ArrayRef<bool> csrResults);

/// Whether `type` is a matrix stored as CSR.
bool isCSRMatrix(Type type);
/// A matrix of format `compressed` (a runtime handle, docs/compression.md).
bool isCompressedMatrix(Type type);

/// Whether a CSR operand of `operand`'s type can keep its pattern as the
/// element-wise result of type `result`: the sizes agree where both are
/// known; one known only at run time may turn out to be a vector that DML
/// broadcasts, which the lowering repeats to the result's size. A vector
/// broadcast by its static type is not.
bool mayHaveResultShape(Type operand, Type result);

/// Whether an operand or result of `op` is a CSR matrix. Fusion leaves such
/// ops alone: its templates generate dense loops.
bool touchesCSRMatrix(Operation *op);

/// Attaches the external models of `CSRKernelInterface` to the AMLS ops
/// (called by the dialect's initialization).
void registerCSRKernelModels(MLIRContext &context);

/// Whether an operand or result of `op` is a compressed matrix. Fusion
/// leaves such ops alone: its templates generate loops over dense cells.
bool touchesCompressedMatrix(Operation *op);

/// Whether `op` has a kernel for its compressed operands and results: true
/// when none is compressed, otherwise the op's `CompressedKernelInterface`;
/// an op without it has none.
bool hasCompressedKernel(Operation *op);

/// Attaches the external models of `CompressedKernelInterface` to the AMLS
/// ops (called by the dialect's initialization).
void registerCompressedKernelModels(MLIRContext &context);

/// Attaches the external models of `MNCSketchInterface` to the AMLS ops
/// (called by the dialect's initialization).
void registerMNCSketchModels(MLIRContext &context);

/// Marks operations for which f(0, ...) = 0 on the main (first) input.
template <typename ConcreteType>
class SparseSafe : public OpTrait::TraitBase<ConcreteType, SparseSafe> {};

} // namespace mlir::amls

#include "AMLS/Dialect/AMLSOpInterfaces.h.inc"

#endif // AMLS_DIALECT_AMLSINTERFACES_H
