//===- BuiltinsConstruction.cpp - matrix, rand, seq --------------------===//
//
// The builtins that create matrices: matrix() (fill, reshape, literal;
// byrow), rand()/Rand() and seq(), and the seed argument rand and sample
// share.
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

DValue BuiltinCall::buildMatrix() {
  // byrow=FALSE fills (and, for a reshape, reads) column by column, as R
  // and SystemDS do; it changes the IR, so it must be known at compile time.
  bool byRow = true;
  if (args.has(3)) {
    DValue flag = im.gen(args[3]);
    if (!flag.isValid())
      return {};
    std::optional<double> known =
        flag.isNumeric() ? Importer::constantNumber(flag.value) : std::nullopt;
    if (!known) {
      im.error(args[3]->getLoc())
          << "matrix(..., byrow=...) needs TRUE or FALSE known before the "
             "script runs, found "
          << (flag.isNumeric() ? "a value computed at run time"
                               : kindName(flag.kind).str());
      return {};
    }
    byRow = *known != 0;
  }
  std::optional<Value> rows = im.genNumber(args[1], "'rows'");
  std::optional<Value> cols = im.genNumber(args[2], "'cols'");
  if (!rows || !cols)
    return {};
  DValue data = im.gen(args[0]);
  if (!data.isValid())
    return {};
  auto [r, c] = im.toSizes(l, *rows, *cols, "matrix");
  if (data.isMatrix()) {
    if (byRow)
      return DValue::matrix(
          ReshapeOp::create(builder, l, im.matrixType(), data.value, r, c));
    // Column-major: t(reshape(t(X), cols, rows)).
    Value transposed =
        TransposeOp::create(builder, l, im.matrixType(), data.value);
    Value reshaped =
        ReshapeOp::create(builder, l, im.matrixType(), transposed, c, r);
    return DValue::matrix(
        TransposeOp::create(builder, l, im.matrixType(), reshaped));
  }
  if (data.isNumeric())
    return DValue::matrix(
        FillOp::create(builder, l, im.matrixType(), im.toF64(l, data), r, c));
  // matrix("1 2 3 4", rows=2, cols=2): a literal.
  std::optional<std::string> text = data.constantString();
  if (!text) {
    im.error(where) << "matrix(\"...\", rows, cols) needs a string known "
                       "before the script runs";
    return {};
  }
  llvm::SmallVector<llvm::StringRef> cells;
  // Cells are separated by white space, lines included (SystemDS's
  // scripts write long literals over several lines).
  llvm::SplitString(*text, cells, " \t\r\n");
  llvm::SmallVector<double> textual(cells.size());
  for (auto [index, cell] : llvm::enumerate(cells))
    if (cell.getAsDouble(textual[index])) {
      im.error(where) << "matrix literal cell '" << cell << "' is not a number";
      return {};
    }
  std::optional<double> knownRows = Importer::constantNumber(*rows);
  std::optional<double> knownCols = Importer::constantNumber(*cols);
  if (!knownRows || !knownCols) {
    // Sizes computed at run time (the nn tests' matrix(".." , rows=N, cols=C)
    // with N and C from arguments): the cells as a column, reshaped when the
    // sizes are known; the reshape checks that they hold every cell.
    auto columnType = RankedTensorType::get(
        {static_cast<int64_t>(cells.size()), 1}, im.f64());
    Value column = CastOp::create(
        builder, l, im.matrixType(),
        ConstantOp::create(
            builder, l,
            MatrixType::get(static_cast<int64_t>(cells.size()), 1, im.f64()),
            DenseElementsAttr::get(columnType, llvm::ArrayRef(textual))));
    if (byRow)
      return DValue::matrix(
          ReshapeOp::create(builder, l, im.matrixType(), column, r, c));
    Value reshaped =
        ReshapeOp::create(builder, l, im.matrixType(), column, c, r);
    return DValue::matrix(
        TransposeOp::create(builder, l, im.matrixType(), reshaped));
  }
  // A literal's sizes must describe its cells; bound them before
  // converting (a literal has at most as many rows as cells).
  auto literalSize = [&](double v, const Expr *size) -> std::optional<int64_t> {
    if (!(v >= 0 && v <= static_cast<double>(cells.size()) + 1) ||
        v != std::floor(v)) {
      im.error(size->getLoc()) << "matrix literal size must be a whole number "
                                  "between 0 and the number of cells ("
                               << cells.size() << ")";
      return std::nullopt;
    }
    return static_cast<int64_t>(v);
  };
  std::optional<int64_t> literalRows = literalSize(*knownRows, args[1]);
  std::optional<int64_t> literalCols = literalSize(*knownCols, args[2]);
  if (!literalRows || !literalCols)
    return {};
  int64_t numRows = *literalRows, numCols = *literalCols;
  if (static_cast<int64_t>(cells.size()) != numRows * numCols) {
    im.error(where) << "matrix literal has " << cells.size()
                    << " cells, expected " << numRows << "x" << numCols;
    return {};
  }
  llvm::SmallVector<double> values(cells.size());
  for (auto [index, v] : llvm::enumerate(textual)) {
    // The cells are listed column by column when byrow=FALSE.
    size_t position =
        byRow ? index : (index % numRows) * numCols + index / numRows;
    values[position] = v;
  }
  auto tensorType = RankedTensorType::get({numRows, numCols}, im.f64());
  auto literal = DenseElementsAttr::get(tensorType, llvm::ArrayRef(values));
  Value v = ConstantOp::create(
      builder, l, MatrixType::get(numRows, numCols, im.f64()), literal);
  return DValue::matrix(
      CastOp::create(builder, l, im.matrixType(), v).getResult());
}

DValue BuiltinCall::buildRand() {
  if (args.has(7)) {
    im.error(where) << "rand(pdf=\"poisson\", lambda=...) is not supported";
    return {};
  }
  std::optional<Value> rows = im.genNumber(args[0], "'rows'");
  std::optional<Value> cols = im.genNumber(args[1], "'cols'");
  if (!rows || !cols)
    return {};
  auto optionalNumber = [&](size_t i, double fallback,
                            llvm::StringRef what) -> std::optional<Value> {
    if (!args.has(i))
      return im.constant(l, fallback);
    return im.genNumber(args[i], what);
  };
  std::optional<Value> min = optionalNumber(2, 0.0, "'min'");
  std::optional<Value> max = optionalNumber(3, 1.0, "'max'");
  std::optional<Value> sparsity = optionalNumber(4, 1.0, "'sparsity'");
  if (!min || !max || !sparsity)
    return {};
  RandPdf pdf = RandPdf::Uniform;
  if (args.has(6)) {
    std::optional<std::string> text = im.genConstantString(args[6], "'pdf'");
    if (!text)
      return {};
    if (*text == "normal")
      pdf = RandPdf::Normal;
    else if (*text != "uniform") {
      im.error(args[6]->getLoc()) << "unsupported pdf \"" << *text
                                  << "\": expected \"uniform\" or \"normal\"";
      return {};
    }
  }
  Value seed;
  if (args.has(5)) {
    std::optional<Value> given = seedArgument(args[5]);
    if (!given)
      return {};
    seed = *given;
  }
  auto [r, c] = im.toSizes(l, *rows, *cols, "rand");
  return DValue::matrix(RandOp::create(builder, l, im.matrixType(), r, c, *min,
                                       *max, *sparsity, seed, pdf));
}

std::optional<Value> BuiltinCall::seedArgument(const Expr *seedExpr) {
  // seed = -1 (DML's default) draws a fresh seed (a null value); the seed
  // must then be a literal, since the op's purity depends on it.
  DValue seedValue = im.gen(seedExpr);
  if (!seedValue.isValid())
    return std::nullopt;
  if (!seedValue.isNumeric()) {
    im.error(seedExpr->getLoc())
        << "expected a number for 'seed', found " << kindName(seedValue.kind);
    return std::nullopt;
  }
  bool isFresh = false;
  if (auto *number = llvm::dyn_cast<NumberExpr>(seedExpr))
    isFresh = number->value == -1;
  if (auto *unary = llvm::dyn_cast<UnaryExpr>(seedExpr))
    if (auto *number = llvm::dyn_cast<NumberExpr>(unary->operand.get()))
      isFresh = unary->op == UnaryOp::Negate && number->value == 1;
  if (isFresh)
    return Value();
  return arith::FPToSIOp::create(builder, l, builder.getI64Type(),
                                 im.toF64(l, seedValue))
      .getResult();
}

DValue BuiltinCall::buildSeq() {
  std::optional<Value> from = im.genNumber(args[0], "'from'");
  std::optional<Value> to = im.genNumber(args[1], "'to'");
  if (!from || !to)
    return {};
  Value incr;
  if (args.has(2)) {
    std::optional<Value> given = im.genNumber(args[2], "'incr'");
    if (!given)
      return {};
    incr = *given;
  } else {
    Value ascending = arith::CmpFOp::create(
        builder, l, arith::CmpFPredicate::OLE, *from, *to);
    incr = arith::SelectOp::create(builder, l, ascending, im.constant(l, 1.0),
                                   im.constant(l, -1.0));
  }
  return DValue::matrix(
      SeqOp::create(builder, l, im.matrixType(), *from, *to, incr));
}
