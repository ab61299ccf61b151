//===- BuiltinsNeuralNetwork.cpp - conv2d, pooling and their gradients ----===//
//
// The builders of DML's deep-learning builtins. SystemDS writes their
// geometry as expression lists, `input_shape=[N, C, H, W]`,
// `filter_shape=[F, C, R, S]`, `pool_size=[R, S]`, `stride=[sh, sw]`,
// `padding=[ph, pw]`, all required; each element is a number the script
// computes (often a function's parameter), imported as an index operand
// of the op (AMLSNeuralNetworkOps.td). Property inference checks the
// values it knows; the runtime kernels check the others.
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

std::optional<SmallVector<Value>>
BuiltinCall::shapeArgument(size_t i, StringRef parameter,
                           ArrayRef<StringRef> elements) {
  const Expr *e = args[i];
  auto *list = llvm::dyn_cast<CallExpr>(e);
  auto describe = [&] {
    std::string text = "[";
    for (StringRef element : elements)
      text += (text.size() > 1 ? ", " : "") + element.str();
    return text + "]";
  };
  if (!list || list->callee != "list" || list->args.size() != elements.size() ||
      llvm::any_of(list->args,
                   [](const Argument &arg) { return !arg.name.empty(); })) {
    im.error(e->getLoc()) << "'" << parameter << "' of '" << name
                          << "': expected a list " << describe() << " of "
                          << elements.size() << " numbers";
    return std::nullopt;
  }
  SmallVector<Value> sizes;
  for (auto [arg, element] : llvm::zip(list->args, elements)) {
    std::optional<Value> number =
        im.genNumber(arg.value.get(),
                     "'" + element.str() + "' of '" + parameter.str() + "'");
    if (!number)
      return std::nullopt;
    sizes.push_back(im.toIndex(l, *number));
  }
  return sizes;
}

/// The number an index of shapeArgument() was converted from, if known
/// while importing.
static std::optional<int64_t> knownSize(Value index) {
  if (auto cast = index.getDefiningOp<arith::IndexCastOp>())
    if (auto number = cast.getIn().getDefiningOp<arith::FPToSIOp>())
      if (std::optional<double> value =
              Importer::constantNumber(number.getIn()))
        return static_cast<int64_t>(*value);
  return std::nullopt;
}

bool BuiltinCall::checkSameChannels(Value input, Value filter) {
  // The channels appear in both shapes; they must agree.
  std::optional<int64_t> a = knownSize(input), b = knownSize(filter);
  if (a && b) {
    if (*a == *b)
      return true;
    im.error(where) << "'" << name << "': input_shape has " << *a
                    << " channels but filter_shape " << *b;
    return false;
  }
  Value bad = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ne, input,
                                    filter);
  im.checkAtRunTime(
      l, bad, "'" + name + "': input_shape has {} channels but filter_shape {}",
      ValueRange{
          arith::IndexCastOp::create(builder, l, builder.getI64Type(), input),
          arith::IndexCastOp::create(builder, l, builder.getI64Type(),
                                     filter)});
  return true;
}

DValue BuiltinCall::buildConvolution() {
  // conv2d(input, filter, ...), conv2d_backward_filter(input, dout, ...),
  // conv2d_backward_data(filter, dout, ...).
  bool data = name == "conv2d_backward_data";
  bool forward = name == "conv2d";
  std::optional<Value> first =
      im.genMatrix(args[0], data ? "'filter'" : "'input'");
  std::optional<Value> second =
      im.genMatrix(args[1], forward ? "'filter'" : "'dout'");
  if (!first || !second)
    return {};
  auto input = shapeArgument(2, "input_shape", {"N", "C", "H", "W"});
  auto filter = shapeArgument(3, "filter_shape", {"F", "C", "R", "S"});
  auto stride = shapeArgument(4, "stride", {"stride_h", "stride_w"});
  auto padding = shapeArgument(5, "padding", {"pad_h", "pad_w"});
  if (!input || !filter || !stride || !padding ||
      !checkSameChannels((*input)[1], (*filter)[1]))
    return {};
  // The geometry operands: N, C, H, W, F, R, S, sh, sw, ph, pw.
  SmallVector<Value> geometry(*input);
  geometry.append({(*filter)[0], (*filter)[2], (*filter)[3]});
  llvm::append_range(geometry, *stride);
  llvm::append_range(geometry, *padding);
  SmallVector<Value> operands{*first, *second};
  llvm::append_range(operands, geometry);
  Type type = im.matrixType();
  TypeRange types(type); // refers to `type`, which must outlive it
  Operation *op;
  if (forward)
    op = Conv2DOp::create(builder, l, types, operands);
  else if (data)
    op = Conv2DBackwardDataOp::create(builder, l, types, operands);
  else
    op = Conv2DBackwardFilterOp::create(builder, l, types, operands);
  return DValue::matrix(op->getResult(0));
}

DValue BuiltinCall::buildPooling() {
  // max_pool(input, ...), avg_pool(input, ...) and their _backward(input,
  // dout, ...).
  bool backward = name.ends_with("_backward");
  PoolingKind kind =
      name.starts_with("max") ? PoolingKind::Max : PoolingKind::Avg;
  std::optional<Value> input = im.genMatrix(args[0], "'input'");
  std::optional<Value> dout;
  if (backward)
    dout = im.genMatrix(args[1], "'dout'");
  if (!input || (backward && !dout))
    return {};
  size_t next = backward ? 2 : 1;
  auto shape = shapeArgument(next, "input_shape", {"N", "C", "H", "W"});
  auto pool = shapeArgument(next + 1, "pool_size", {"R", "S"});
  auto stride = shapeArgument(next + 2, "stride", {"stride_h", "stride_w"});
  auto padding = shapeArgument(next + 3, "padding", {"pad_h", "pad_w"});
  if (!shape || !pool || !stride || !padding)
    return {};
  SmallVector<Value> operands{*input};
  if (backward)
    operands.push_back(*dout);
  llvm::append_range(operands, *shape);
  llvm::append_range(operands, *pool);
  llvm::append_range(operands, *stride);
  llvm::append_range(operands, *padding);
  Type type = im.matrixType();
  NamedAttribute kindAttr(builder.getStringAttr("kind"),
                          PoolingKindAttr::get(builder.getContext(), kind));
  ArrayRef<NamedAttribute> attributes(kindAttr);
  if (backward)
    return DValue::matrix(PoolBackwardOp::create(builder, l, TypeRange{type},
                                                 operands, attributes));
  return DValue::matrix(
      PoolOp::create(builder, l, TypeRange{type}, operands, attributes));
}
