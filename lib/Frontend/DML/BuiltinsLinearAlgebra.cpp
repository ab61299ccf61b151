//===- BuiltinsLinearAlgebra.cpp - solve, inv, det, the factorizations ----===//
//
// The builders of DML's linear-algebra builtins: solve, inv, det,
// cholesky, lower.tri and upper.tri, and the builtins with several results,
// qr, lu, eigen and svd, which are called as [a, b, ...] = f(A). Their ops
// (AMLSLinearAlgebraOps.td) check square inputs where the sizes are known;
// the runtime checks the rest and the values (singular, not symmetric, ...).
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

std::optional<bool> BuiltinCall::flagArgument(size_t i, StringRef what) {
  if (!args.has(i))
    return false;
  const Expr *e = args[i];
  if (auto *b = llvm::dyn_cast<BoolExpr>(e))
    return b->value;
  // A value known when the script is imported (a command-line argument, a
  // literal number) also sets the op's flag.
  DValue value = im.gen(e);
  Attribute constant;
  if (value.isNumeric() && matchPattern(value.value, m_Constant(&constant))) {
    if (auto integer = dyn_cast<IntegerAttr>(constant))
      return !integer.getValue().isZero();
    if (auto number = dyn_cast<FloatAttr>(constant))
      return !number.getValue().isZero();
  }
  if (value.isValid())
    im.error(e->getLoc()) << what
                          << ": expected TRUE or FALSE, or a value known when "
                             "the script is imported";
  return std::nullopt;
}

template <typename OpTy> DValue BuiltinCall::buildMatrixFunction() {
  std::optional<Value> input = matrixArgument();
  if (!input)
    return {};
  return DValue::matrix(OpTy::create(builder, l, im.matrixType(), *input));
}

template DValue BuiltinCall::buildMatrixFunction<InverseOp>();
template DValue BuiltinCall::buildMatrixFunction<CholeskyOp>();

DValue BuiltinCall::buildSolve() {
  std::optional<Value> a = im.genMatrix(args[0], "the matrix of 'solve'");
  std::optional<Value> b =
      im.genMatrix(args[1], "the right-hand side of 'solve'");
  if (!a || !b)
    return {};
  return DValue::matrix(SolveOp::create(builder, l, im.matrixType(), *a, *b));
}

DValue BuiltinCall::buildDeterminant() {
  std::optional<Value> input = matrixArgument();
  if (!input)
    return {};
  return DValue::scalar(DeterminantOp::create(builder, l, im.f64(), *input));
}

DValue BuiltinCall::buildTriangle() {
  std::optional<Value> target = im.genMatrix(args[0], "'target'");
  if (!target)
    return {};
  std::optional<bool> diag = flagArgument(1, "'diag'");
  std::optional<bool> values = flagArgument(2, "'values'");
  if (!diag || !values)
    return {};
  TriangleSide side =
      name == "lower.tri" ? TriangleSide::Lower : TriangleSide::Upper;
  return DValue::matrix(TriangleOp::create(builder, l, im.matrixType(), side,
                                           *target, *diag, *values));
}

template <typename OpTy, unsigned Results>
std::vector<DValue> BuiltinCall::buildFactorization() {
  std::optional<Value> input = matrixArgument();
  if (!input)
    return {};
  SmallVector<Type> types(Results, im.matrixType());
  auto op = OpTy::create(builder, l, types, ValueRange{*input});
  std::vector<DValue> results;
  for (Value result : op->getResults())
    results.push_back(DValue::matrix(result));
  return results;
}

template std::vector<DValue> BuiltinCall::buildFactorization<QROp, 2>();
template std::vector<DValue> BuiltinCall::buildFactorization<LUOp, 3>();
template std::vector<DValue> BuiltinCall::buildFactorization<EigenOp, 2>();
template std::vector<DValue> BuiltinCall::buildFactorization<SVDOp, 3>();
