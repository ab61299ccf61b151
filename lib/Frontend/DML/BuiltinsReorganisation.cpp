//===- BuiltinsReorganisation.cpp - DML casts and reorganisations ---------===//
//
// as.scalar, as.matrix, as.double/as.integer/as.logical, cbind/rbind,
// removeEmpty, replace, table and order: the builtins that change a value's
// kind or rearrange a matrix's cells (frames go to BuiltinsFrame.cpp).
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

DValue BuiltinCall::buildAsScalar() {
  DValue x = im.gen(args[0]);
  // A list of one element (L[i:i], list(x)) is that element.
  if (x.isList() && x.elements.size() == 1)
    x = x.elements.front();
  // A string element of a list (as.scalar(L[i])) is that string.
  if (!x.isValid() || x.isNumeric() || x.isString())
    return x;
  if (x.isFrame())
    return DValue::runTime(FrameCellOp::create(
        builder, l, StringType::get(builder.getContext()), x.value));
  if (!x.isMatrix()) {
    im.error(where) << "as.scalar needs a 1x1 matrix or frame, found "
                    << kindName(x.kind);
    return {};
  }
  return DValue::scalar(AsScalarOp::create(builder, l, im.f64(), x.value));
}

DValue BuiltinCall::buildAsMatrix() {
  DValue list = im.gen(args[0]);
  if (!list.isValid())
    return {};
  if (list.isFrame())
    return DValue::matrix(
        FrameAsMatrixOp::create(builder, l, im.matrixType(), list.value));
  if (list.isList()) {
    // A list of one matrix is that matrix; a list of numbers a column.
    if (list.elements.size() == 1 && list.elements.front().isMatrix())
      return list.elements.front();
    llvm::SmallVector<Value> rows;
    for (const DValue &element : list.elements) {
      if (!element.isNumeric()) {
        im.error(args[0]->getLoc())
            << "as.matrix of a list needs one matrix or numbers, found "
            << kindName(element.kind) << " in it";
        return {};
      }
      rows.push_back(AsMatrixOp::create(builder, l, im.matrixType(),
                                        im.toF64(l, element)));
    }
    if (rows.empty()) {
      im.error(args[0]->getLoc()) << "as.matrix of an empty list";
      return {};
    }
    return DValue::matrix(RBindOp::create(builder, l, im.matrixType(), rows));
  }
  if (list.isString()) {
    im.error(args[0]->getLoc())
        << "expected a matrix or a number for the argument of 'as.matrix', "
           "found a string";
    return {};
  }
  DValue x = list;
  if (x.isMatrix())
    return x;
  x.value = im.toF64(l, x);
  return DValue::matrix(
      AsMatrixOp::create(builder, l, im.matrixType(), x.value));
}

DValue BuiltinCall::buildAsNumber() {
  DValue x = im.gen(args[0]);
  if (!x.isValid())
    return {};
  if (x.isMatrix())
    x = DValue::scalar(AsScalarOp::create(builder, l, im.f64(), x.value));
  if (!x.isNumeric()) {
    im.error(where) << "'" << name << "' needs a number, found "
                    << kindName(x.kind);
    return {};
  }
  if (name == "as.logical" || name == "as.boolean")
    return DValue::boolean(im.toI1(l, x));
  Value v = im.toF64(l, x);
  if (name == "as.integer") {
    Value i64 = arith::FPToSIOp::create(builder, l, builder.getI64Type(), v);
    return DValue::integerScalar(
        arith::SIToFPOp::create(builder, l, im.f64(), i64));
  }
  return DValue::scalar(v);
}

DValue BuiltinCall::buildBind() {
  if (call->args.empty()) {
    im.error(where) << "'" << name << "' needs at least one matrix";
    return {};
  }
  // Each argument once (a call in it may print); append(s, t) with a
  // string is the old spelling of s + t (StepGLM, glm).
  llvm::SmallVector<DValue> values;
  for (const Argument &arg : call->args) {
    if (!arg.name.empty()) {
      im.error(arg.loc) << "'" << name << "' takes no named arguments";
      return {};
    }
    values.push_back(im.gen(arg.value.get()));
    if (!values.back().isValid())
      return {};
  }
  bool strings =
      llvm::any_of(values, [](const DValue &v) { return v.isString(); });
  if (name == "append" && values.size() == 2 && strings) {
    std::vector<StringPiece> pieces;
    for (auto [arg, value] : llvm::zip(call->args, values)) {
      if (value.isString()) {
        llvm::append_range(pieces, value.pieces);
      } else if (value.isNumeric()) {
        pieces.push_back({"", im.toF64(l, value), value.integer});
      } else {
        im.error(arg.loc) << "'append' of a string and " << kindName(value.kind)
                          << ": expected strings and numbers";
        return {};
      }
    }
    return DValue::string(std::move(pieces));
  }
  if (llvm::any_of(values, [](const DValue &v) { return v.isFrame(); }))
    return bindFrames(values);
  llvm::SmallVector<Value> inputs;
  for (auto [arg, value] : llvm::zip(call->args, values)) {
    if (value.isString() || value.isList()) {
      im.error(arg.loc) << "expected a matrix or a number for '" << name
                        << "', found " << kindName(value.kind);
      return {};
    }
    inputs.push_back(im.asMatrix(l, value.kind == DValue::Kind::Bool
                                        ? DValue::scalar(im.toF64(l, value))
                                        : value));
  }
  if (name == "rbind")
    return DValue::matrix(RBindOp::create(builder, l, im.matrixType(), inputs));
  return DValue::matrix(CBindOp::create(builder, l, im.matrixType(), inputs));
}

DValue BuiltinCall::buildRemoveEmpty() {
  std::optional<Value> target = im.genMatrix(args[0], "'target'");
  std::optional<std::string> margin = im.genConstantString(args[1], "'margin'");
  if (!target || !margin)
    return {};
  if (*margin != "rows" && *margin != "cols") {
    im.error(args[1]->getLoc()) << "unsupported margin \"" << *margin
                                << "\": expected \"rows\" or \"cols\"";
    return {};
  }
  Value select;
  if (args.has(2)) {
    std::optional<Value> given = im.genMatrix(args[2], "'select'");
    if (!given)
      return {};
    select = *given;
  }
  // empty.return=TRUE (the default): no row left gives one row of zeros.
  bool emptyReturn = true;
  if (args.has(3)) {
    std::optional<bool> flag = flagArgument(3, "'empty.return'");
    if (!flag)
      return {};
    emptyReturn = *flag;
  }
  return DValue::matrix(
      RemoveEmptyOp::create(builder, l, im.matrixType(),
                            *margin == "rows" ? Margin::Rows : Margin::Cols,
                            *target, select, emptyReturn));
}

DValue BuiltinCall::buildReplace() {
  std::optional<Value> target = im.genMatrix(args[0], "'target'");
  std::optional<Value> pattern = im.genNumber(args[1], "'pattern'");
  std::optional<Value> replacement = im.genNumber(args[2], "'replacement'");
  if (!target || !pattern || !replacement)
    return {};
  return DValue::matrix(ReplaceOp::create(builder, l, im.matrixType(), *target,
                                          *pattern, *replacement));
}

DValue BuiltinCall::buildTable() {
  // table(A, B), table(A, B, W), table(A, B, rows, cols),
  // table(A, B, W, rows, cols); W may be a scalar weight.
  if (call->args.size() < 2 || call->args.size() > 5) {
    im.error(where) << "'table' takes 2 to 5 arguments, found "
                    << call->args.size();
    return {};
  }
  llvm::SmallVector<DValue> values;
  for (const Argument &arg : call->args) {
    DValue v = im.genOperand(arg.value.get(), "'table'");
    if (!v.isValid())
      return {};
    values.push_back(v);
  }
  Value a = im.asMatrix(l, values[0]), b = im.asMatrix(l, values[1]);
  Value weights, rows, cols;
  size_t next = 2;
  if (values.size() == 3 || values.size() == 5) {
    weights =
        values[2].isMatrix()
            ? values[2].value
            : MulOp::create(
                  builder, l, im.matrixType(),
                  FillOp::create(
                      builder, l, im.matrixType(), im.constant(l, 1.0),
                      NRowOp::create(builder, l, builder.getIndexType(), a),
                      im.indexConstant(l, 1)),
                  values[2].value)
                  .getResult();
    next = 3;
  }
  if (values.size() >= 4) {
    if (values[next].isMatrix() || values[next + 1].isMatrix()) {
      im.error(where) << "the output sizes of 'table' must be numbers";
      return {};
    }
    rows = im.toIndex(l, values[next].value);
    cols = im.toIndex(l, values[next + 1].value);
  }
  return DValue::matrix(
      TableOp::create(builder, l, im.matrixType(), a, b, weights, rows, cols));
}

DValue BuiltinCall::buildOrder() {
  std::optional<Value> target = im.genMatrix(args[0], "'target'");
  if (!target)
    return {};
  // DML's `by` is 1-based, amls.order's 0-based.
  Value by = im.indexConstant(l, 0);
  if (args.has(1)) {
    std::optional<Value> given = im.genNumber(args[1], "'by'");
    if (!given)
      return {};
    by = arith::SubIOp::create(builder, l, im.toIndex(l, *given),
                               im.indexConstant(l, 1));
  }
  std::optional<bool> decreasing = flagArgument(2, "'decreasing'");
  std::optional<bool> indices = flagArgument(3, "'index.return'");
  if (!decreasing || !indices)
    return {};
  return DValue::matrix(OrderOp::create(builder, l, im.matrixType(), *target,
                                        by, *decreasing, *indices));
}
