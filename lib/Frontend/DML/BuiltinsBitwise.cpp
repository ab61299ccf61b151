//===- BuiltinsBitwise.cpp - bitwAnd, bitwOr, bitwXor, bitwShiftL/R -------===//
//
// DML's bitwise functions of two numbers or matrices (with the broadcasting
// of DML's operators). Their cells are SystemDS's: the operands as Java
// ints (amls.bitwand and friends, AMLSElementwiseOps.td), the result an
// INT.
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "AMLS/Dialect/AMLSCells.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

template <typename OpTy> DValue BuiltinCall::buildBitwise() {
  DValue a =
      im.genOperand(args[0], "the first argument of '" + name.str() + "'");
  DValue b =
      im.genOperand(args[1], "the second argument of '" + name.str() + "'");
  if (!a.isValid() || !b.isValid())
    return {};
  if (a.isMatrix() || b.isMatrix())
    return DValue::matrix(
        OpTy::create(builder, l, im.matrixType(), a.value, b.value));
  // A number: an INT, or NaN from bitwShiftL's overflow.
  return DValue::integerScalar(
      buildScalarCell<OpTy>(builder, l, {a.value, b.value}));
}

template DValue BuiltinCall::buildBitwise<BitwAndOp>();
template DValue BuiltinCall::buildBitwise<BitwOrOp>();
template DValue BuiltinCall::buildBitwise<BitwXorOp>();
template DValue BuiltinCall::buildBitwise<BitwShiftLOp>();
template DValue BuiltinCall::buildBitwise<BitwShiftROp>();
