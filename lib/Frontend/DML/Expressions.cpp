//===- Expressions.cpp - DML expressions to AMLS IR -----------------------===//
//
// Literals, variables, operators and indexing. Every matrix value has the
// type !amls.matrix<?x?xf64>: sizes and sparsity are left to
// --amls-infer-properties. Scalars are f64 (DML's Double and Integer),
// booleans i1, strings compile-time sequences of text and values.
//
// An operator on a matrix becomes the AMLS op; on two numbers it becomes
// that op's cell computation (AMLSCells.h), so that a number and a 1x1
// matrix compute the same function (docs/dml.md, "Semantics of numbers").
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "AMLS/Dialect/AMLSCells.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;
using llvm::SMLoc;

std::optional<std::string> DValue::constantString() const {
  if (!isString())
    return std::nullopt;
  std::string result;
  for (const StringPiece &piece : pieces) {
    if (piece.value)
      return std::nullopt;
    result += piece.text;
  }
  return result;
}

llvm::StringRef importer::kindName(DValue::Kind kind) {
  switch (kind) {
  case DValue::Kind::Invalid:
    return "an invalid value";
  case DValue::Kind::Matrix:
    return "a matrix";
  case DValue::Kind::Scalar:
    return "a number";
  case DValue::Kind::Bool:
    return "a boolean";
  case DValue::Kind::String:
    return "a string";
  case DValue::Kind::List:
    return "a list";
  case DValue::Kind::Frame:
    return "a frame";
  }
  return "a value";
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

Value Importer::relaxed(Location l, Value matrix) {
  if (auto frame = dyn_cast<FrameType>(matrix.getType())) {
    auto unknown = FrameType::get(builder.getContext(), ShapedType::kDynamic,
                                  ShapedType::kDynamic, {});
    if (frame == unknown)
      return matrix;
    return FrameCastOp::create(builder, l, unknown, matrix);
  }
  if (matrix.getType() == matrixType())
    return matrix;
  return CastOp::create(builder, l, matrixType(), matrix);
}

Value Importer::toF64(Location l, const DValue &v) {
  if (v.kind == DValue::Kind::Bool)
    return arith::UIToFPOp::create(builder, l, f64(), v.value);
  return v.value;
}

Value Importer::toI1(Location l, const DValue &v) {
  if (v.kind == DValue::Kind::Bool)
    return v.value;
  return arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNE, v.value,
                               constant(l, 0.0));
}

Value Importer::toIndex(Location l, Value f) {
  Value i64 = arith::FPToSIOp::create(builder, l, builder.getI64Type(), f);
  return arith::IndexCastOp::create(builder, l, builder.getIndexType(), i64);
}

std::pair<Value, Value> Importer::toSizes(Location l, Value rows, Value cols,
                                          StringRef what) {
  // Constants are checked by property inference when compiling.
  if (!matchPattern(rows, m_Constant()) || !matchPattern(cols, m_Constant())) {
    // ULT is true for NaN too; 2^59 cells of 8 bytes are beyond any memory.
    auto isBad = [&](Value count) {
      return arith::CmpFOp::create(builder, l, arith::CmpFPredicate::ULT, count,
                                   constant(l, 0.0));
    };
    Value cells = arith::MulFOp::create(builder, l, rows, cols);
    Value tooMany = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OGT,
                                          cells, constant(l, 0x1p59));
    Value bad = arith::OrIOp::create(
        builder, l, arith::OrIOp::create(builder, l, isBad(rows), isBad(cols)),
        tooMany);
    checkAtRunTime(l, bad,
                   what + ": expected row and column counts (0 or more, at "
                          "most 2^59 cells), found {} x {}",
                   ValueRange{rows, cols});
  }
  return {toIndex(l, rows), toIndex(l, cols)};
}

void Importer::checkAtRunTime(Location l, Value bad, const Twine &message,
                              ValueRange values) {
  std::string text = positionOf(l) + message.str();
  scf::IfOp::create(builder, l, bad, [&](OpBuilder &b, Location bl) {
    StopOp::create(b, bl, b.getStringAttr(text), values);
    scf::YieldOp::create(b, bl);
  });
}

Value Importer::indexToF64(Location l, Value index) {
  Value i64 =
      arith::IndexCastOp::create(builder, l, builder.getI64Type(), index);
  return arith::SIToFPOp::create(builder, l, f64(), i64);
}

Value Importer::asMatrix(Location l, const DValue &v) {
  if (v.isMatrix())
    return v.value;
  return AsMatrixOp::create(builder, l, matrixType(), v.value);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

DValue Importer::gen(const Expr *expr) {
  Location l = loc(expr->getLoc());
  switch (expr->getKind()) {
  case Expr::Kind::Number: {
    const auto *number = llvm::cast<NumberExpr>(expr);
    Value v = constant(l, number->value);
    return number->isInteger ? DValue::integerScalar(v) : DValue::scalar(v);
  }
  case Expr::Kind::String:
    return DValue::text(llvm::cast<StringExpr>(expr)->value);
  case Expr::Kind::Bool:
    return DValue::boolean(boolConstant(l, llvm::cast<BoolExpr>(expr)->value));
  case Expr::Kind::Identifier: {
    const auto *name = llvm::cast<IdentifierExpr>(expr);
    if (env.count(name->name))
      return readVariable(name->name, expr->getLoc());
    // SystemDS's builtin constants, unless a variable of that name exists.
    if (std::optional<double> builtin =
            llvm::StringSwitch<std::optional<double>>(name->name)
                .Cases({"Inf", "INF"}, std::numeric_limits<double>::infinity())
                .Case("NaN", std::numeric_limits<double>::quiet_NaN())
                .Cases({"pi", "PI"}, M_PI)
                .Default(std::nullopt))
      return DValue::scalar(constant(l, *builtin));
    undefinedReads.insert(name->name);
    error(expr->getLoc()) << "undefined variable '" << name->name << "'";
    return {};
  }
  case Expr::Kind::CommandLineArg:
    return genCommandLineArg(llvm::cast<CommandLineArgExpr>(expr));
  case Expr::Kind::Unary:
    return genUnary(llvm::cast<UnaryExpr>(expr));
  case Expr::Kind::Binary: {
    const auto *binary = llvm::cast<BinaryExpr>(expr);
    DValue lhs = gen(binary->lhs.get());
    DValue rhs = gen(binary->rhs.get());
    if (!lhs.isValid() || !rhs.isValid())
      return {};
    return genBinary(binary->op, lhs, rhs, binary->getLoc());
  }
  case Expr::Kind::Index:
    return genIndex(llvm::cast<IndexExpr>(expr));
  case Expr::Kind::Call:
    return genCall(llvm::cast<CallExpr>(expr));
  }
  return {};
}

DValue Importer::genCommandLineArg(const CommandLineArgExpr *arg) {
  auto it = options.arguments.find(arg->name);
  if (it == options.arguments.end()) {
    auto input = entryInputs.find(arg->name);
    if (input != entryInputs.end())
      return input->second;
    error(arg->getLoc()) << "no value for command-line argument '$" << arg->name
                         << "': pass --arg " << arg->name
                         << "=VALUE, or use ifdef($" << arg->name
                         << ", default)";
    return {};
  }
  Location l = loc(arg->getLoc());
  llvm::StringRef text = it->second;
  if (text == "TRUE" || text == "true")
    return DValue::boolean(boolConstant(l, true));
  if (text == "FALSE" || text == "false")
    return DValue::boolean(boolConstant(l, false));
  double number;
  if (!text.trim().getAsDouble(number)) {
    Value v = constant(l, number);
    if (text.trim().find_first_of(".eE") == llvm::StringRef::npos)
      return DValue::integerScalar(v);
    return DValue::scalar(v);
  }
  return DValue::text(text.str());
}

DValue Importer::genUnary(const UnaryExpr *expr) {
  DValue operand = gen(expr->operand.get());
  if (!operand.isValid())
    return {};
  Location l = loc(expr->getLoc());
  if (operand.isString() || operand.isList()) {
    error(expr->getLoc()) << "unary operator applied to "
                          << kindName(operand.kind);
    return {};
  }
  switch (expr->op) {
  case UnaryOp::Plus:
    return operand;
  case UnaryOp::Negate:
    if (operand.isMatrix())
      return DValue::matrix(
          NegOp::create(builder, l, matrixType(), operand.value));
    return DValue::number(
        buildScalarCell<NegOp>(builder, l, {toF64(l, operand)}),
        operand.integer);
  case UnaryOp::Not:
    if (operand.isMatrix())
      return DValue::matrix(
          NotOp::create(builder, l, matrixType(), operand.value));
    return DValue::boolean(
        buildScalarCondition<NotOp>(builder, l, {toI1(l, operand)}));
  }
  return {};
}

template <typename OpTy>
DValue Importer::genArithmetic(Location l, const DValue &lhs, const DValue &rhs,
                               bool keepsIntegers) {
  Value a = lhs.isMatrix() ? lhs.value : toF64(l, lhs);
  Value b = rhs.isMatrix() ? rhs.value : toF64(l, rhs);
  if (lhs.isMatrix() || rhs.isMatrix())
    return DValue::matrix(OpTy::create(builder, l, matrixType(), a, b));
  return DValue::number(buildScalarCell<OpTy>(builder, l, {a, b}),
                        keepsIntegers && lhs.integer && rhs.integer);
}

template <typename OpTy>
DValue Importer::genCondition(Location l, const DValue &lhs,
                              const DValue &rhs) {
  if (lhs.isMatrix() || rhs.isMatrix()) {
    Value a = lhs.isMatrix() ? lhs.value : toF64(l, lhs);
    Value b = rhs.isMatrix() ? rhs.value : toF64(l, rhs);
    return DValue::matrix(OpTy::create(builder, l, matrixType(), a, b));
  }
  // Logical operators read their operands as conditions, comparisons as
  // numbers.
  bool isLogical = std::is_same_v<OpTy, AndOp> || std::is_same_v<OpTy, OrOp>;
  Value a = isLogical ? toI1(l, lhs) : toF64(l, lhs);
  Value b = isLogical ? toI1(l, rhs) : toF64(l, rhs);
  return DValue::boolean(buildScalarCondition<OpTy>(builder, l, {a, b}));
}

DValue Importer::genBinary(BinaryOp op, const DValue &lhs, const DValue &rhs,
                           SMLoc where) {
  Location l = loc(where);
  if (lhs.isList() || rhs.isList()) {
    error(where) << "operator '" << spelling(op)
                 << "' applied to a list: take its elements with "
                    "as.matrix(L[i]) or as.scalar(L[i])";
    return {};
  }
  // String concatenation: "a" + x.
  if (lhs.isString() || rhs.isString()) {
    // Comparisons of strings known before the run fold to a boolean
    // (`if (type == "kaplan-meier")` with a $ argument or a literal).
    bool isComparison = op == BinaryOp::Lt || op == BinaryOp::Le ||
                        op == BinaryOp::Gt || op == BinaryOp::Ge ||
                        op == BinaryOp::Eq || op == BinaryOp::Ne;
    if (isComparison && lhs.isString() && rhs.isString()) {
      std::optional<std::string> a = lhs.constantString(),
                                 b = rhs.constantString();
      if (!a || !b) {
        StringPredicate predicate = op == BinaryOp::Lt   ? StringPredicate::LT
                                    : op == BinaryOp::Le ? StringPredicate::LE
                                    : op == BinaryOp::Gt ? StringPredicate::GT
                                    : op == BinaryOp::Ge ? StringPredicate::GE
                                    : op == BinaryOp::Eq ? StringPredicate::EQ
                                                         : StringPredicate::NE;
        return DValue::boolean(StringCompareOp::create(
            builder, l, builder.getI1Type(), predicate,
            materializeString(l, lhs), materializeString(l, rhs)));
      }
      int order = a->compare(*b);
      bool result = op == BinaryOp::Lt   ? order < 0
                    : op == BinaryOp::Le ? order <= 0
                    : op == BinaryOp::Gt ? order > 0
                    : op == BinaryOp::Ge ? order >= 0
                    : op == BinaryOp::Eq ? order == 0
                                         : order != 0;
      return DValue::boolean(boolConstant(l, result));
    }
    if (op != BinaryOp::Add) {
      error(where) << "operator '" << spelling(op)
                   << "' applied to a string (only '+' concatenates strings)";
      return {};
    }
    std::vector<StringPiece> pieces;
    for (const DValue *side : {&lhs, &rhs}) {
      if (side->isString())
        llvm::append_range(pieces, side->pieces);
      else
        pieces.push_back({"", side->value, side->integer});
    }
    return DValue::string(std::move(pieces));
  }

  switch (op) {
  case BinaryOp::Range: {
    // a:b outside an index or a loop header is seq(a, b).
    if (!lhs.isNumeric() || !rhs.isNumeric()) {
      error(where) << "the bounds of ':' must be numbers, found "
                   << kindName(lhs.kind) << " and " << kindName(rhs.kind);
      return {};
    }
    Value from = toF64(l, lhs), to = toF64(l, rhs);
    Value ascending =
        arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OLE, from, to);
    Value step = arith::SelectOp::create(builder, l, ascending,
                                         constant(l, 1.0), constant(l, -1.0));
    return DValue::matrix(
        SeqOp::create(builder, l, matrixType(), from, to, step));
  }
  case BinaryOp::MatMul:
    if (!lhs.isMatrix() || !rhs.isMatrix()) {
      error(where) << "'%*%' needs two matrices, found " << kindName(lhs.kind)
                   << " and " << kindName(rhs.kind);
      return {};
    }
    return DValue::matrix(
        MatmulOp::create(builder, l, matrixType(), lhs.value, rhs.value));
  // Sums, differences, products, %% and %/% of INTs are INTs.
  case BinaryOp::Add:
    return genArithmetic<AddOp>(l, lhs, rhs, /*keepsIntegers=*/true);
  case BinaryOp::Sub:
    return genArithmetic<SubOp>(l, lhs, rhs, /*keepsIntegers=*/true);
  case BinaryOp::Mul:
    return genArithmetic<MulOp>(l, lhs, rhs, /*keepsIntegers=*/true);
  case BinaryOp::Div:
    return genArithmetic<DivOp>(l, lhs, rhs, /*keepsIntegers=*/false);
  case BinaryOp::Pow:
    return genArithmetic<PowOp>(l, lhs, rhs, /*keepsIntegers=*/false);
  case BinaryOp::Mod:
    return genArithmetic<ModOp>(l, lhs, rhs, /*keepsIntegers=*/true);
  case BinaryOp::IntDiv:
    return genArithmetic<IntDivOp>(l, lhs, rhs, /*keepsIntegers=*/true);
  case BinaryOp::Lt:
    return genCondition<LtOp>(l, lhs, rhs);
  case BinaryOp::Le:
    return genCondition<LeOp>(l, lhs, rhs);
  case BinaryOp::Gt:
    return genCondition<GtOp>(l, lhs, rhs);
  case BinaryOp::Ge:
    return genCondition<GeOp>(l, lhs, rhs);
  case BinaryOp::Eq:
    return genCondition<EqOp>(l, lhs, rhs);
  case BinaryOp::Ne:
    return genCondition<NeOp>(l, lhs, rhs);
  case BinaryOp::And:
    return genCondition<AndOp>(l, lhs, rhs);
  case BinaryOp::Or:
    return genCondition<OrOp>(l, lhs, rhs);
  }
  llvm_unreachable("unknown binary operator");
}

std::optional<std::pair<Value, Value>>
Importer::genRange(const IndexRange &range, Value matrix, bool rows) {
  Location l = loc(range.loc);
  if (range.isAll()) {
    Type index = builder.getIndexType();
    Value size;
    if (isa<FrameType>(matrix.getType()))
      size = rows ? FrameNRowOp::create(builder, l, index, matrix).getResult()
                  : FrameNColOp::create(builder, l, index, matrix).getResult();
    else
      size = rows ? NRowOp::create(builder, l, index, matrix).getResult()
                  : NColOp::create(builder, l, index, matrix).getResult();
    return std::make_pair(indexConstant(l, 0), size);
  }
  std::optional<Value> begin = genNumber(range.begin.get(), "an index");
  if (!begin)
    return std::nullopt;
  Value beginIndex = toIndex(l, *begin);
  Value first =
      arith::SubIOp::create(builder, l, beginIndex, indexConstant(l, 1));
  if (!range.end)
    return std::make_pair(first, beginIndex);
  std::optional<Value> end = genNumber(range.end.get(), "an index");
  if (!end)
    return std::nullopt;
  return std::make_pair(first, toIndex(l, *end));
}

DValue Importer::genIndex(const IndexExpr *expr) {
  DValue base = gen(expr->base.get());
  if (!base.isValid())
    return {};
  if (base.isList())
    return genListIndex(expr, base);
  if (!base.isMatrix() && !base.isFrame()) {
    error(expr->getLoc()) << "indexing needs a matrix or a frame, found "
                          << kindName(base.kind);
    return {};
  }
  auto rows = genRange(expr->rows, base.value, /*rows=*/true);
  auto cols = genRange(expr->cols, base.value, /*rows=*/false);
  if (!rows || !cols)
    return {};
  if (base.isFrame()) {
    auto type = FrameType::get(
        builder.getContext(),
        expr->rows.isAll() || expr->rows.end ? ShapedType::kDynamic : 1,
        expr->cols.isAll() || expr->cols.end ? ShapedType::kDynamic : 1, {});
    return DValue::frame(FrameSliceOp::create(
        builder, loc(expr->getLoc()), type, base.value, rows->first,
        rows->second, cols->first, cols->second));
  }
  // A single position selects one row or column: say so in the type, so
  // that `X + B[i, ]` is known to broadcast a row vector.
  auto type = MatrixType::get(
      expr->rows.isAll() || expr->rows.end ? ShapedType::kDynamic : 1,
      expr->cols.isAll() || expr->cols.end ? ShapedType::kDynamic : 1, f64());
  return DValue::matrix(SliceOp::create(builder, loc(expr->getLoc()), type,
                                        base.value, rows->first, rows->second,
                                        cols->first, cols->second));
}

std::optional<Value> Importer::genNumber(const Expr *expr,
                                         llvm::StringRef what) {
  DValue value = gen(expr);
  if (!value.isValid())
    return std::nullopt;
  if (!value.isNumeric()) {
    error(expr->getLoc()) << "expected a number for " << what << ", found "
                          << kindName(value.kind);
    return std::nullopt;
  }
  return toF64(loc(expr->getLoc()), value);
}

std::optional<Value> Importer::genMatrix(const Expr *expr,
                                         llvm::StringRef what) {
  DValue value = gen(expr);
  if (!value.isValid())
    return std::nullopt;
  if (!value.isMatrix()) {
    error(expr->getLoc()) << "expected a matrix for " << what << ", found "
                          << kindName(value.kind);
    return std::nullopt;
  }
  return value.value;
}

DValue Importer::genOperand(const Expr *expr, llvm::StringRef what) {
  DValue value = gen(expr);
  if (!value.isValid())
    return {};
  if (value.isString() || value.isList()) {
    error(expr->getLoc()) << "expected a matrix or a number for " << what
                          << ", found " << kindName(value.kind);
    return {};
  }
  if (value.kind == DValue::Kind::Bool)
    return DValue::scalar(toF64(loc(expr->getLoc()), value));
  return value;
}

std::optional<std::string> Importer::genConstantString(const Expr *expr,
                                                       llvm::StringRef what) {
  DValue value = gen(expr);
  if (!value.isValid())
    return std::nullopt;
  std::optional<std::string> text = value.constantString();
  if (!text)
    error(expr->getLoc()) << "expected a string known before the script "
                             "runs for "
                          << what << ", found " << kindName(value.kind)
                          << (value.isString() ? " computed at run time" : "");
  return text;
}

std::optional<double> Importer::constantNumber(Value value) {
  if (!value)
    return std::nullopt;
  FloatAttr::ValueType number(0.0);
  if (matchPattern(value, m_ConstantFloat(&number)))
    return number.convertToDouble();
  APInt flag;
  if (value.getType().isInteger(1) && matchPattern(value, m_ConstantInt(&flag)))
    return flag.isZero() ? 0.0 : 1.0;
  if (auto negated = value.getDefiningOp<arith::NegFOp>())
    if (std::optional<double> operand = constantNumber(negated.getOperand()))
      return -*operand;
  return std::nullopt;
}

std::string mlir::amls::dml::importer::positionOf(Location l) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(l))
    return (fileLoc.getFilename().getValue() + ":" + Twine(fileLoc.getLine()) +
            ":" + Twine(fileLoc.getColumn()) + ": ")
        .str();
  return "";
}
