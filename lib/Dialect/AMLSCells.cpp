//===- AMLSCells.cpp - Cell computations of element-wise ops --------------===//
//
// The scalar IR each element-wise op computes per cell, following DML:
// comparisons and logical ops give 1/0 in the element type, %% and %/%
// round towards negative infinity, min/max propagate NaN. Floating-point
// and i64 element types are supported; ops without an integer meaning (exp,
// division, ...) are only built for floats, and the verifier's element-type
// rules keep integer matrices away from them in lowering (see
// `supportsElementType`).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSCells.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <cstdint>

using namespace mlir;
using namespace mlir::amls;

namespace {
bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

Value constantLike(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, floatType,
                                     b.getFloatAttr(floatType, value));
  return arith::ConstantOp::create(
      b, loc, type, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

/// 1 where `condition` holds, else 0, in `type`.
Value boolToNumber(OpBuilder &b, Location loc, Value condition, Type type) {
  return arith::SelectOp::create(b, loc, condition,
                                 constantLike(b, loc, type, 1.0),
                                 constantLike(b, loc, type, 0.0));
}

Value isNonZero(OpBuilder &b, Location loc, Value v) {
  if (isFloat(v))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v,
                                 constantLike(b, loc, v.getType(), 0.0));
  if (v.getType().isInteger(1))
    return v;
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                               constantLike(b, loc, v.getType(), 0.0));
}

Value compare(OpBuilder &b, Location loc, ValueRange cells,
              arith::CmpFPredicate fp, arith::CmpIPredicate ip) {
  if (isFloat(cells[0]))
    return arith::CmpFOp::create(b, loc, fp, cells[0], cells[1]);
  return arith::CmpIOp::create(b, loc, ip, cells[0], cells[1]);
}
} // namespace

Value mlir::amls::buildCell(AddOp, OpBuilder &b, Location loc, ValueRange c) {
  return isFloat(c[0]) ? arith::AddFOp::create(b, loc, c[0], c[1]).getResult()
                       : arith::AddIOp::create(b, loc, c[0], c[1]).getResult();
}

Value mlir::amls::buildCell(SubOp, OpBuilder &b, Location loc, ValueRange c) {
  return isFloat(c[0]) ? arith::SubFOp::create(b, loc, c[0], c[1]).getResult()
                       : arith::SubIOp::create(b, loc, c[0], c[1]).getResult();
}

Value mlir::amls::buildCell(MulOp, OpBuilder &b, Location loc, ValueRange c) {
  return isFloat(c[0]) ? arith::MulFOp::create(b, loc, c[0], c[1]).getResult()
                       : arith::MulIOp::create(b, loc, c[0], c[1]).getResult();
}

Value mlir::amls::buildCell(DivOp, OpBuilder &b, Location loc, ValueRange c) {
  return arith::DivFOp::create(b, loc, c[0], c[1]);
}

// x ^ 2 (what the optimizer makes of X * X) is x * x: the same correctly
// rounded result as pow, without a libm call per cell (10M cells: 200 ms).
Value mlir::amls::buildCell(PowOp, OpBuilder &b, Location loc, ValueRange c) {
  FloatAttr exponent;
  if (matchPattern(c[1], m_Constant(&exponent)) &&
      exponent.getValueAsDouble() == 2.0)
    return arith::MulFOp::create(b, loc, c[0], c[0]);
  return math::PowFOp::create(b, loc, c[0], c[1]);
}

Value mlir::amls::buildCell(MinOp, OpBuilder &b, Location loc, ValueRange c) {
  return isFloat(c[0])
             ? arith::MinimumFOp::create(b, loc, c[0], c[1]).getResult()
             : arith::MinSIOp::create(b, loc, c[0], c[1]).getResult();
}

Value mlir::amls::buildCell(MaxOp, OpBuilder &b, Location loc, ValueRange c) {
  return isFloat(c[0])
             ? arith::MaximumFOp::create(b, loc, c[0], c[1]).getResult()
             : arith::MaxSIOp::create(b, loc, c[0], c[1]).getResult();
}

// x %% y = x - floor(x / y) * y
Value mlir::amls::buildCell(ModOp, OpBuilder &b, Location loc, ValueRange c) {
  Value quotient = arith::DivFOp::create(b, loc, c[0], c[1]);
  Value floored = math::FloorOp::create(b, loc, quotient);
  Value product = arith::MulFOp::create(b, loc, floored, c[1]);
  return arith::SubFOp::create(b, loc, c[0], product);
}

// x %/% y = floor(x / y)
Value mlir::amls::buildCell(IntDivOp, OpBuilder &b, Location loc,
                            ValueRange c) {
  Value quotient = arith::DivFOp::create(b, loc, c[0], c[1]);
  return math::FloorOp::create(b, loc, quotient);
}

Value mlir::amls::buildCellCondition(LtOp, OpBuilder &b, Location loc,
                                     ValueRange c) {
  return compare(b, loc, c, arith::CmpFPredicate::OLT,
                 arith::CmpIPredicate::slt);
}

Value mlir::amls::buildCellCondition(LeOp, OpBuilder &b, Location loc,
                                     ValueRange c) {
  return compare(b, loc, c, arith::CmpFPredicate::OLE,
                 arith::CmpIPredicate::sle);
}

Value mlir::amls::buildCellCondition(GtOp, OpBuilder &b, Location loc,
                                     ValueRange c) {
  return compare(b, loc, c, arith::CmpFPredicate::OGT,
                 arith::CmpIPredicate::sgt);
}

Value mlir::amls::buildCellCondition(GeOp, OpBuilder &b, Location loc,
                                     ValueRange c) {
  return compare(b, loc, c, arith::CmpFPredicate::OGE,
                 arith::CmpIPredicate::sge);
}

Value mlir::amls::buildCellCondition(EqOp, OpBuilder &b, Location loc,
                                     ValueRange c) {
  return compare(b, loc, c, arith::CmpFPredicate::OEQ,
                 arith::CmpIPredicate::eq);
}

// NaN != NaN is true, as in DML.
Value mlir::amls::buildCellCondition(NeOp, OpBuilder &b, Location loc,
                                     ValueRange c) {
  return compare(b, loc, c, arith::CmpFPredicate::UNE,
                 arith::CmpIPredicate::ne);
}

Value mlir::amls::buildCellCondition(AndOp, OpBuilder &b, Location loc,
                                     ValueRange c) {
  return arith::AndIOp::create(b, loc, isNonZero(b, loc, c[0]),
                               isNonZero(b, loc, c[1]));
}

Value mlir::amls::buildCellCondition(OrOp, OpBuilder &b, Location loc,
                                     ValueRange c) {
  return arith::OrIOp::create(b, loc, isNonZero(b, loc, c[0]),
                              isNonZero(b, loc, c[1]));
}

namespace {
/// SystemDS's toInt as a Java int: sign(x) * floor(|x| + 2^-53), NaN as 0,
/// saturated to the int range (the bounds are exact in f64).
Value toJavaInt(OpBuilder &b, Location loc, Value x) {
  if (!x.getType().isF64())
    x = arith::ExtFOp::create(b, loc, b.getF64Type(), x);
  Type f64 = x.getType();
  Value magnitude = math::FloorOp::create(
      b, loc,
      arith::AddFOp::create(b, loc, math::AbsFOp::create(b, loc, x),
                            constantLike(b, loc, f64, 0x1p-53)));
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                         constantLike(b, loc, f64, 0.0));
  Value truncated = arith::SelectOp::create(
      b, loc, negative, arith::NegFOp::create(b, loc, magnitude), magnitude);
  Value clamped = arith::MinimumFOp::create(
      b, loc,
      arith::MaximumFOp::create(b, loc, truncated,
                                constantLike(b, loc, f64, -2147483648.0)),
      constantLike(b, loc, f64, 2147483647.0));
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  clamped = arith::SelectOp::create(b, loc, isNaN,
                                    constantLike(b, loc, f64, 0.0), clamped);
  return arith::FPToSIOp::create(b, loc, b.getI32Type(), clamped);
}

/// A bitwise op on the operands as Java ints, its int result as `type`.
template <typename IntOp>
Value bitwise(OpBuilder &b, Location loc, ValueRange c) {
  Value result =
      IntOp::create(b, loc, toJavaInt(b, loc, c[0]), toJavaInt(b, loc, c[1]));
  return arith::SIToFPOp::create(b, loc, c[0].getType(), result);
}

/// The shift count of Java's int shifts: the low five bits.
Value shiftCount(OpBuilder &b, Location loc, Value x) {
  return arith::AndIOp::create(b, loc, toJavaInt(b, loc, x),
                               arith::ConstantIntOp::create(b, loc, 31, 32));
}
} // namespace

Value mlir::amls::buildCell(BitwAndOp, OpBuilder &b, Location loc,
                            ValueRange c) {
  return bitwise<arith::AndIOp>(b, loc, c);
}

Value mlir::amls::buildCell(BitwOrOp, OpBuilder &b, Location loc,
                            ValueRange c) {
  return bitwise<arith::OrIOp>(b, loc, c);
}

Value mlir::amls::buildCell(BitwXorOp, OpBuilder &b, Location loc,
                            ValueRange c) {
  return bitwise<arith::XOrIOp>(b, loc, c);
}

// NaN where the result is the smallest int, as in SystemDS.
Value mlir::amls::buildCell(BitwShiftLOp, OpBuilder &b, Location loc,
                            ValueRange c) {
  Value shifted = arith::ShLIOp::create(b, loc, toJavaInt(b, loc, c[0]),
                                        shiftCount(b, loc, c[1]));
  Value isMin = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, shifted,
      arith::ConstantIntOp::create(b, loc, INT32_MIN, 32));
  Type type = c[0].getType();
  return arith::SelectOp::create(
      b, loc, isMin, constantLike(b, loc, type, NAN),
      arith::SIToFPOp::create(b, loc, type, shifted));
}

Value mlir::amls::buildCell(BitwShiftROp, OpBuilder &b, Location loc,
                            ValueRange c) {
  Value shifted = arith::ShRSIOp::create(b, loc, toJavaInt(b, loc, c[0]),
                                         shiftCount(b, loc, c[1]));
  return arith::SIToFPOp::create(b, loc, c[0].getType(), shifted);
}

Value mlir::amls::buildCell(NegOp, OpBuilder &b, Location loc, ValueRange c) {
  if (isFloat(c[0]))
    return arith::NegFOp::create(b, loc, c[0]);
  return arith::SubIOp::create(b, loc, constantLike(b, loc, c[0].getType(), 0),
                               c[0]);
}

Value mlir::amls::buildCellCondition(NotOp, OpBuilder &b, Location loc,
                                     ValueRange c) {
  return arith::XOrIOp::create(
      b, loc, isNonZero(b, loc, c[0]),
      arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
}

Value mlir::amls::buildCell(AbsOp, OpBuilder &b, Location loc, ValueRange c) {
  if (isFloat(c[0]))
    return math::AbsFOp::create(b, loc, c[0]);
  return math::AbsIOp::create(b, loc, c[0]);
}

Value mlir::amls::buildCell(ExpOp, OpBuilder &b, Location loc, ValueRange c) {
  return math::ExpOp::create(b, loc, c[0]);
}

Value mlir::amls::buildCell(LogOp, OpBuilder &b, Location loc, ValueRange c) {
  return math::LogOp::create(b, loc, c[0]);
}

Value mlir::amls::buildCell(SqrtOp, OpBuilder &b, Location loc, ValueRange c) {
  return math::SqrtOp::create(b, loc, c[0]);
}

// Java's Math.round, as in DML: floor(x + 0.5), and 0 for NaN.
Value mlir::amls::buildCell(RoundOp, OpBuilder &b, Location loc, ValueRange c) {
  Type type = c[0].getType();
  Value half = constantLike(b, loc, type, 0.5);
  Value rounded =
      math::FloorOp::create(b, loc, arith::AddFOp::create(b, loc, c[0], half));
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, c[0], c[0]);
  return arith::SelectOp::create(b, loc, isNaN, constantLike(b, loc, type, 0.0),
                                 rounded);
}

Value mlir::amls::buildCell(FloorOp, OpBuilder &b, Location loc, ValueRange c) {
  return math::FloorOp::create(b, loc, c[0]);
}

Value mlir::amls::buildCell(CeilOp, OpBuilder &b, Location loc, ValueRange c) {
  return math::CeilOp::create(b, loc, c[0]);
}

// sign(0) = 0 and sign(NaN) = NaN.
Value mlir::amls::buildCell(SignOp, OpBuilder &b, Location loc, ValueRange c) {
  Type type = c[0].getType();
  Value zero = constantLike(b, loc, type, 0.0);
  Value one = constantLike(b, loc, type, 1.0);
  Value minusOne = constantLike(b, loc, type, -1.0);
  Value positive, negative;
  if (isFloat(c[0])) {
    positive =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, c[0], zero);
    negative =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, c[0], zero);
  } else {
    positive =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, c[0], zero);
    negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c[0], zero);
  }
  Value orZero = arith::SelectOp::create(b, loc, negative, minusOne, c[0]);
  return arith::SelectOp::create(b, loc, positive, one, orZero);
}

// 1 / (1 + exp(-x))
Value mlir::amls::buildCell(SigmoidOp, OpBuilder &b, Location loc,
                            ValueRange c) {
  Value one = constantLike(b, loc, c[0].getType(), 1.0);
  Value negated = arith::NegFOp::create(b, loc, c[0]);
  Value exp = math::ExpOp::create(b, loc, negated);
  Value denominator = arith::AddFOp::create(b, loc, one, exp);
  return arith::DivFOp::create(b, loc, one, denominator);
}

Value mlir::amls::buildCell(SinOp, OpBuilder &b, Location loc, ValueRange c) {
  return math::SinOp::create(b, loc, c[0]);
}

Value mlir::amls::buildCell(CosOp, OpBuilder &b, Location loc, ValueRange c) {
  return math::CosOp::create(b, loc, c[0]);
}

Value mlir::amls::buildCell(TanhOp, OpBuilder &b, Location loc, ValueRange c) {
  return math::TanhOp::create(b, loc, c[0]);
}

// The trigonometric functions without a cell of their own: one math op.
#define AMLS_CELL_OF_MATH(Op)                                                  \
  Value mlir::amls::buildCell(Op, OpBuilder &b, Location loc, ValueRange c) {  \
    return math::Op::create(b, loc, c[0]);                                     \
  }
AMLS_CELL_OF_MATH(TanOp)
AMLS_CELL_OF_MATH(AsinOp)
AMLS_CELL_OF_MATH(AcosOp)
AMLS_CELL_OF_MATH(AtanOp)
AMLS_CELL_OF_MATH(SinhOp)
AMLS_CELL_OF_MATH(CoshOp)
#undef AMLS_CELL_OF_MATH

Value mlir::amls::buildCell(IsNaNOp op, OpBuilder &b, Location loc,
                            ValueRange c) {
  if (!isFloat(c[0]))
    return constantLike(b, loc, c[0].getType(), 0.0);
  return boolToNumber(b, loc, buildCellCondition(op, b, loc, c),
                      c[0].getType());
}

Value mlir::amls::buildCellCondition(IsNaNOp, OpBuilder &b, Location loc,
                                     ValueRange c) {
  if (!isFloat(c[0]))
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, c[0], c[0]);
}

// Comparisons and logical ops: their condition as 1 or 0.
#define AMLS_CELL_OF_CONDITION(Op)                                             \
  Value mlir::amls::buildCell(Op op, OpBuilder &b, Location loc,               \
                              ValueRange c) {                                  \
    return boolToNumber(b, loc, buildCellCondition(op, b, loc, c),             \
                        c[0].getType());                                       \
  }
AMLS_CELL_OF_CONDITION(LtOp)
AMLS_CELL_OF_CONDITION(LeOp)
AMLS_CELL_OF_CONDITION(GtOp)
AMLS_CELL_OF_CONDITION(GeOp)
AMLS_CELL_OF_CONDITION(EqOp)
AMLS_CELL_OF_CONDITION(NeOp)
AMLS_CELL_OF_CONDITION(AndOp)
AMLS_CELL_OF_CONDITION(OrOp)
AMLS_CELL_OF_CONDITION(NotOp)
#undef AMLS_CELL_OF_CONDITION

Value mlir::amls::buildCell(IfElseOp, OpBuilder &b, Location loc,
                            ValueRange c) {
  return arith::SelectOp::create(b, loc, isNonZero(b, loc, c[0]), c[1], c[2]);
}

Value IfElseOp::buildCellComputation(OpBuilder &builder, Location loc,
                                     ValueRange cells) {
  return buildCell(*this, builder, loc, cells);
}

/// `replacement` where the cell equals `pattern` (NaN matching NaN), else the
/// cell. Pattern and replacement are converted to the cell's type.
Value ReplaceOp::buildCellComputation(OpBuilder &b, Location loc,
                                      ValueRange cells) {
  Value cell = cells[0], pattern = cells[1], replacement = cells[2];
  Type cellType = cell.getType();
  // Compare in the cell's float type, or in the pattern's for integers.
  Type compareType = isFloat(cell) ? cellType : pattern.getType();
  Value asFloat = convertScalarToDtype(b, loc, cell, compareType,
                                       /*isUnsignedCast=*/false);
  pattern = convertScalarToDtype(b, loc, pattern, compareType,
                                 /*isUnsignedCast=*/false);
  Value equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                      asFloat, pattern);
  Value bothNaN = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, asFloat,
                            asFloat),
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, pattern,
                            pattern));
  Value matches = arith::OrIOp::create(b, loc, equal, bothNaN);
  replacement = convertScalarToDtype(b, loc, replacement, cellType,
                                     /*isUnsignedCast=*/false);
  return arith::SelectOp::create(b, loc, matches, replacement, cell);
}
