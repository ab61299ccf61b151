//===- BuiltinsIO.cpp - DML builtins that read, write and print -----------===//
//
// read, write, print, stop and toString: files and messages, whose text is
// a sequence of literal pieces and values (printed by the runtime).
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

namespace {

/// The printf-style format and operands of a string; INT pieces become
/// integers with `integersAsIntegers` and stay doubles otherwise.
std::string formatOf(OpBuilder &builder, Location l, const DValue &text,
                     bool integersAsIntegers,
                     llvm::SmallVectorImpl<Value> &values) {
  std::string format;
  for (const StringPiece &piece : text.pieces) {
    if (piece.value) {
      format += "{}";
      values.push_back(piece.integer && integersAsIntegers
                           ? arith::FPToSIOp::create(
                                 builder, l, builder.getI64Type(), piece.value)
                                 .getResult()
                           : piece.value);
      continue;
    }
    for (char c : piece.text) {
      if (c == '{' || c == '}')
        format.push_back(c);
      format.push_back(c);
    }
  }
  return format;
}

} // namespace

DValue BuiltinCall::buildRead() {
  std::optional<std::string> path =
      im.genConstantString(args[0], "the file of 'read'");
  if (!path)
    return {};
  std::optional<FileFormat> format = fileFormat(*path, /*formatParameter=*/1);
  if (!format)
    return {};
  if (args.has(6)) {
    std::optional<std::string> text =
        im.genConstantString(args[6], "'data_type'");
    if (!text)
      return {};
    if (*text != "matrix") {
      im.error(args[6]->getLoc())
          << "read(data_type=\"" << *text
          << "\") is not supported: AMLS reads matrices";
      return {};
    }
  }
  // header, sep, rows, cols, value_type and nnz describe the file; the
  // runtime reads the sizes from the file itself.
  for (size_t i : {2, 3, 4, 5, 7, 8})
    if (args.has(i) && !im.gen(args[i]).isValid())
      return {};
  return DValue::matrix(ReadOp::create(builder, l, im.matrixType(),
                                       builder.getStringAttr(*path), *format));
}

DValue BuiltinCall::buildToString() {
  DValue x = im.gen(args[0]);
  if (!x.isValid() || x.isString())
    return x;
  return DValue::string({StringPiece{"", x.value}});
}

DValue BuiltinCall::buildPrintOrStop() {
  DValue message = im.gen(args[0]);
  if (!message.isValid())
    return {};
  if (!message.isString())
    message = DValue::string(
        {StringPiece{"", message.value, /*integer=*/message.integer}});
  auto emit = [&](bool integersAsIntegers) {
    llvm::SmallVector<Value> values;
    std::string format =
        formatOf(builder, l, message, integersAsIntegers, values);
    if (name == "print")
      PrintfOp::create(builder, l, builder.getStringAttr(format), values);
    else
      StopOp::create(builder, l, builder.getStringAttr(format), values);
  };
  // An INT prints as an integer ("7"); one that is not finite (7 %% 0 is
  // NaN) has no integer to print and prints as a double ("NaN").
  Value allFinite;
  for (const StringPiece &piece : message.pieces) {
    if (!piece.integer)
      continue;
    Value magnitude = math::AbsFOp::create(builder, l, piece.value);
    Value finite = arith::CmpFOp::create(
        builder, l, arith::CmpFPredicate::ONE, magnitude,
        arith::ConstantOp::create(builder, l,
                                  builder.getF64FloatAttr(INFINITY)));
    allFinite =
        allFinite
            ? arith::AndIOp::create(builder, l, allFinite, finite).getResult()
            : finite;
  }
  if (!allFinite) {
    emit(/*integersAsIntegers=*/false);
    return {};
  }
  auto branch = scf::IfOp::create(builder, l, allFinite,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(branch.thenBlock());
  emit(/*integersAsIntegers=*/true);
  builder.setInsertionPointToStart(branch.elseBlock());
  emit(/*integersAsIntegers=*/false);
  return {};
}

DValue BuiltinCall::buildWrite() {
  std::optional<Value> x = im.genMatrix(args[0], "the value of 'write'");
  std::optional<std::string> path =
      im.genConstantString(args[1], "the file of 'write'");
  if (!x || !path)
    return {};
  std::optional<FileFormat> format = fileFormat(*path, /*formatParameter=*/2);
  if (!format)
    return {};
  for (size_t i : {3, 4, 5})
    if (args.has(i) && !im.gen(args[i]).isValid())
      return {};
  WriteOp::create(builder, l, *x, builder.getStringAttr(*path), *format);
  return {};
}
