//===- AMLSOps.cpp - AMLS operations --------------------------------------===//
//
// Verifiers, side effects, region interfaces and custom directives. Size and
// sparsity rules are in AMLSInference*.cpp (by op family), folders in
// AMLSFolds.cpp, canonicalization patterns in AMLSCanonicalization.cpp and
// row-locality in AMLSRowLocality.cpp.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallVectorExtras.h"

using namespace mlir;
using namespace mlir::amls;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `[sum, max]` for an array of aggregation kinds.
static ParseResult parseAggKindList(OpAsmParser &parser, ArrayAttr &kinds) {
  SmallVector<Attribute> elements;
  MLIRContext *context = parser.getContext();
  auto parseOne = [&]() -> ParseResult {
    StringRef name;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&name))
      return failure();
    std::optional<AggKind> kind = symbolizeAggKind(name);
    if (!kind)
      return parser.emitError(loc, "expected an aggregation kind, found '")
             << name << "'";
    elements.push_back(AggKindAttr::get(context, *kind));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  kinds = ArrayAttr::get(context, elements);
  return success();
}

static void printAggKindList(OpAsmPrinter &printer, Operation *,
                             ArrayAttr kinds) {
  printer << '[';
  llvm::interleaveComma(kinds, printer, [&](Attribute kind) {
    printer << stringifyAggKind(cast<AggKindAttr>(kind).getValue());
  });
  printer << ']';
}

#define GET_OP_CLASSES
#include "AMLS/Dialect/AMLSOps.cpp.inc"

//===----------------------------------------------------------------------===//
// RandOp
//===----------------------------------------------------------------------===//

namespace {
/// The hidden state a seedless `amls.rand` draws from.
struct RandomStreamResource
    : public SideEffects::Resource::Base<RandomStreamResource> {
  StringRef getName() final { return "amls::RandomStream"; }
};
} // namespace

void RandOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // With a seed the result is a function of the operands: pure. Without one,
  // the op behaves like an allocation of fresh contents: CSE must not merge
  // two of them, but an unused one may still be erased.
  if (getSeed())
    return;
  effects.emplace_back(MemoryEffects::Allocate::get(),
                       getOperation()->getOpResult(0),
                       RandomStreamResource::get());
}

//===----------------------------------------------------------------------===//
// TableOp
//===----------------------------------------------------------------------===//

/// Checks that `format` has one `{}` or `{%spec}` per value and no stray
/// braces.
static LogicalResult verifyMessageFormat(Operation *op, StringRef format,
                                         size_t numValues) {
  size_t placeholders = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    char c = format[i];
    char next = i + 1 < format.size() ? format[i + 1] : '\0';
    if (c == '{' && next == '%') {
      size_t close = format.find('}', i);
      if (close == StringRef::npos)
        return op->emitOpError("format has an unterminated '{%' placeholder "
                               "at position ")
               << i;
      ++placeholders;
      i = close;
      continue;
    }
    if (c == '{' && (next == '{' || next == '}')) {
      placeholders += next == '}';
      ++i;
      continue;
    }
    if (c == '}' && next == '}') {
      ++i;
      continue;
    }
    if (c == '{' || c == '}')
      return op->emitOpError("format has an unmatched '")
             << c << "' at position " << i
             << " (write '{{' or '}}' for a literal brace)";
  }
  if (placeholders != numValues)
    return op->emitOpError("format has ")
           << placeholders << " '{}' placeholder(s) but " << numValues
           << " value(s) are given";
  return success();
}

/// amls.compress and amls.decompress keep the sizes and the element type.
static LogicalResult verifyChangesFormatOnly(Operation *op, MatrixType input,
                                             MatrixType result) {
  if (input.getRows() != result.getRows() ||
      input.getCols() != result.getCols() ||
      result.getElementType() != input.getElementType())
    return op->emitOpError("result must have the input's sizes and element "
                           "type, found ")
           << result << " for " << input;
  return success();
}

LogicalResult CompressOp::verify() {
  auto input = cast<MatrixType>(getInput().getType());
  auto result = cast<MatrixType>(getResult().getType());
  if (isCompressedMatrix(input))
    return emitOpError("compresses a dense or CSR matrix, not one of format "
                       "compressed");
  if (!input.getElementType().isF64())
    return emitOpError("compresses f64 cells, not ")
           << input.getElementType();
  if (!isCompressedMatrix(result))
    return emitOpError("result must have format = compressed, found ")
           << result;
  return verifyChangesFormatOnly(*this, input, result);
}

LogicalResult DecompressOp::verify() {
  auto input = cast<MatrixType>(getInput().getType());
  auto result = cast<MatrixType>(getResult().getType());
  if (!isCompressedMatrix(input))
    return emitOpError("decompresses a matrix of format compressed, not ")
           << input;
  if (isCSRMatrix(result) || isCompressedMatrix(result))
    return emitOpError("result must be dense, found ") << result;
  return verifyChangesFormatOnly(*this, input, result);
}

LogicalResult ReleaseOp::verify() {
  if (!isCompressedMatrix(getMatrix().getType()))
    return emitOpError("releases a compressed matrix, not ")
           << getMatrix().getType();
  return success();
}

LogicalResult PrintfOp::verify() {
  return verifyMessageFormat(*this, getFormat(), getValues().size());
}

LogicalResult ReportOp::verify() {
  return verifyMessageFormat(*this, getFormat(), getValues().size());
}

LogicalResult StopOp::verify() {
  return verifyMessageFormat(*this, getFormat(), getValues().size());
}

LogicalResult WriteScalarOp::verify() {
  return verifyMessageFormat(*this, getFormat(), getValues().size());
}

LogicalResult StringFormatOp::verify() {
  return verifyMessageFormat(*this, getFormat(), getValues().size());
}

LogicalResult TableOp::verify() {
  if (static_cast<bool>(getRows()) != static_cast<bool>(getCols()))
    return emitOpError("expects both an output row and column count, or "
                       "neither");
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

bool CastOp::areCastCompatible(TypeRange inputs, TypeRange outputs) {
  if (inputs.size() != 1 || outputs.size() != 1)
    return false;
  auto input = dyn_cast<MatrixType>(inputs.front());
  auto output = dyn_cast<MatrixType>(outputs.front());
  return input && output && areCompatibleMatrixTypes(input, output) &&
         input.getFormat() == output.getFormat();
}

void mlir::amls::refineValueType(Value value, Type type) {
  Type original = value.getType();
  if (original == type)
    return;
  value.setType(type);
  for (OpOperand &use : llvm::make_early_inc_range(value.getUses())) {
    Operation *owner = use.getOwner();
    if (isa_and_nonnull<AMLSDialect>(owner->getDialect()) &&
        !isa<RegionBranchOpInterface>(owner))
      continue;
    OpBuilder builder(owner);
    Value given = value;
    // A CSR value for a user that was given a dense matrix (the session's
    // CSR input returned as it is): a dense copy, then the cast.
    auto from = dyn_cast<MatrixType>(type);
    auto to = dyn_cast<MatrixType>(original);
    if (from && to && from.getFormat() != to.getFormat())
      given = ConvertOp::create(builder, owner->getLoc(),
                                from.withFormat(to.getFormat()), given);
    if (given.getType() != original)
      given = CastOp::create(builder, owner->getLoc(), original, given);
    use.set(given);
  }
}

//===----------------------------------------------------------------------===//
// ParforOp
//===----------------------------------------------------------------------===//

LogicalResult ParforOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getShared().size() + 1)
    return emitOpError("body must take the induction variable and one "
                       "argument per shared matrix (")
           << getShared().size() + 1 << "), found " << body.getNumArguments();
  if (!body.getArgument(0).getType().isIndex())
    return emitOpError("induction variable must be 'index', found ")
           << body.getArgument(0).getType();
  if (getResults().size() != getShared().size())
    return emitOpError("expects one result per shared matrix (")
           << getShared().size() << "), found " << getResults().size();
  for (auto [i, shared, arg, result] : llvm::enumerate(
           getShared().getTypes(), TypeRange(body.getArguments().drop_front()),
           getResultTypes())) {
    if (shared != arg || shared != result)
      return emitOpError("shared matrix #")
             << i << " has type " << shared << " but its body argument is "
             << arg << " and its result is " << result;
  }
  if (std::optional<ArrayRef<int32_t>> merge = getResultMerge()) {
    if (merge->size() != getShared().size())
      return emitOpError("expects one 'result_merge' entry per shared matrix (")
             << getShared().size() << "), found " << merge->size();
    for (int32_t mode : *merge)
      if (!symbolizeParforResultMerge(mode))
        return emitOpError("expects 'result_merge' entries 0 (in place), 1 "
                           "(compare) or 2 (nonzeros), found ")
               << mode;
  }
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("body must end in 'amls.yield'");
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError("must yield the shared matrices' types ")
           << getResultTypes() << ", found " << yield.getValues().getTypes();
  return success();
}

void ParforOp::getSuccessorRegions(RegionBranchPoint point,
                                   SmallVectorImpl<RegionSuccessor> &regions) {
  // Like a sequential loop for dataflow purposes: the body may run zero or
  // more times, each iteration seeing the shared matrices.
  regions.push_back(
      RegionSuccessor(&getBody(), getBody().getArguments().drop_front()));
  regions.push_back(RegionSuccessor(getOperation(), getResults()));
}

OperandRange ParforOp::getEntrySuccessorOperands(RegionSuccessor successor) {
  return getShared();
}

// Loop-invariant code leaves a parfor's body like any loop's (the grid
// search's t(X) %*% X is computed once, not per iteration).
SmallVector<Region *> ParforOp::getLoopRegions() { return {&getBody()}; }

//===----------------------------------------------------------------------===//
// FusedOp
//===----------------------------------------------------------------------===//

/// Cell-wise bodies yield the cell type of each result.
static LogicalResult verifyCellResults(Operation *op, YieldOp yield) {
  for (auto [i, result, value] :
       llvm::enumerate(op->getResultTypes(), yield.getValues().getTypes())) {
    Type expected = result;
    if (auto matrixType = dyn_cast<MatrixType>(result))
      expected = matrixType.getElementType();
    if (value != expected)
      return yield.emitOpError("value #")
             << i << " must be the cell type " << expected << " of result #"
             << i << ", found " << value;
  }
  return success();
}

/// Blocks of rows give the rows of the whole matrix only through row-local
/// ops (RowLocalityInterface); values reduced over the rows of a block
/// (t(Xb) %*% Rb, full and column aggregates) are partial results, only
/// yielded, and only by an aggregating operator.
LogicalResult FusedOp::verifyRowLocalBody(uint64_t rowInputs) {
  Block &body = getBody().front();
  // Values other than side values, and the kind that combines a partial
  // result over the blocks.
  DenseMap<Value, RowLocality> kinds;
  for (uint64_t i = 0; i < rowInputs; ++i)
    kinds.try_emplace(body.getArgument(i), RowLocality::of(RowValueKind::Rows));
  auto kindOf = [&](Value value) {
    auto it = kinds.find(value);
    return it == kinds.end() ? RowValueKind::Side : it->second.getResultKind();
  };
  auto isRows = [&](Value value) {
    return kindOf(value) == RowValueKind::Rows;
  };
  for (Operation &op : body.without_terminator()) {
    SmallVector<RowValueKind> operandKinds =
        llvm::map_to_vector(op.getOperands(), kindOf);
    RowLocality locality = getRowLocality(&op, operandKinds);
    if (!locality.isRowLocal())
      return op.emitOpError("is not row-local in a 'row' operator: ")
             << locality.getReason();
    if (locality.getResultKind() != RowValueKind::Side)
      for (Value result : op.getResults())
        kinds.try_emplace(result, locality);
  }
  // Aggregating, every value yielded is a partial result combined with its
  // own kind; otherwise a block of rows.
  auto yield = cast<YieldOp>(body.getTerminator());
  ArrayAttr aggregates = getAggregateAttr();
  for (auto [i, value] : llvm::enumerate(yield.getValues())) {
    if (!aggregates) {
      if (!isRows(value))
        return yield.emitOpError("value #")
               << i << " is not a block of rows of the result";
      continue;
    }
    if (kindOf(value) != RowValueKind::Partial)
      return yield.emitOpError("value #")
             << i << " is not a partial result over a block of rows";
    AggKind combiner = kinds.at(value).getCombiner();
    AggKind kind = cast<AggKindAttr>(aggregates[i]).getValue();
    if (combiner != kind)
      return yield.emitOpError("value #")
             << i << " is combined over the blocks with "
             << stringifyAggKind(combiner) << ", not "
             << stringifyAggKind(kind);
  }
  return success();
}

/// A row template's body sees blocks of rows of its row inputs (any number
/// of rows, otherwise their type) and the other inputs whole; it yields
/// blocks of rows, or, aggregating, partial results of the results' types.
LogicalResult FusedOp::verifyRowTemplate(YieldOp yield) {
  Block &body = getBody().front();
  if (!getRowInputs())
    return emitOpError("a 'row' operator needs 'row_inputs'");
  uint64_t rowInputs = *getRowInputs();
  if (rowInputs > getInputs().size())
    return emitOpError("has ") << rowInputs << " row inputs but only "
                               << getInputs().size() << " inputs";
  if (getAxis())
    return emitOpError("a 'row' operator aggregates over blocks of rows, "
                       "without an axis");
  auto blockOf = [](MatrixType type) {
    return type.withShape(ShapedType::kDynamic, type.getCols());
  };
  // Inference may refine the inputs' types after fusion: the arguments'
  // types need only be compatible (as for amls.cast).
  for (auto [i, input, arg] :
       llvm::enumerate(getInputs().getTypes(), body.getArgumentTypes())) {
    Type expected = input;
    if (i < rowInputs) {
      auto matrixType = dyn_cast<MatrixType>(input);
      if (!matrixType)
        return emitOpError("row input #") << i << " must be a matrix";
      expected = blockOf(matrixType);
      auto argType = dyn_cast<MatrixType>(arg);
      if (argType && argType.hasStaticRows())
        return emitOpError("body argument #")
               << i << " is a block of rows of row input #" << i
               << " and must have '?' rows, found " << arg;
    }
    if (arg != expected && !areCompatibleMatrixTypes(arg, expected))
      return emitOpError("body argument #") << i << " must be compatible with "
                                            << expected << ", found " << arg;
  }
  if (ArrayAttr kinds = getAggregateAttr()) {
    for (auto [i, kind] : llvm::enumerate(kinds))
      if (cast<AggKindAttr>(kind).getValue() == AggKind::SumSq)
        return emitOpError("a 'row' operator combines partial results with "
                           "sum, min or max, found sumsq for result #")
               << i;
    for (auto [i, result, value] :
         llvm::enumerate(getResultTypes(), yield.getValues().getTypes())) {
      if (value != result)
        return yield.emitOpError("partial result #")
               << i << " must have the result's type " << result << ", found "
               << value;
    }
    return verifyRowLocalBody(rowInputs);
  }
  for (auto [i, result, value] :
       llvm::enumerate(getResultTypes(), yield.getValues().getTypes())) {
    auto matrixType = dyn_cast<MatrixType>(result);
    if (!matrixType)
      return emitOpError("result #")
             << i << " of a row operator without aggregation must be a matrix";
    if (value != blockOf(matrixType))
      return yield.emitOpError("value #")
             << i << " must be a block of rows " << blockOf(matrixType)
             << ", found " << value;
  }
  return verifyRowLocalBody(rowInputs);
}

/// An outer template's body sees the cell of the main input, the cell of
/// the outer product U %*% t(V) of inputs #1 and #2 (U: RxK, V: CxK), and the
/// cells or values of the other inputs.
LogicalResult FusedOp::verifyOuterTemplate(YieldOp yield) {
  Block &body = getBody().front();
  if (getRowInputs())
    return emitOpError("'row_inputs' needs the row template");
  if (getInputs().size() < 3)
    return emitOpError("an 'outer' operator needs the main input and the "
                       "factors U and V of U %*% t(V), found ")
           << getInputs().size() << " inputs";
  if (body.getNumArguments() != getInputs().size() - 1)
    return emitOpError("body must take one argument per input but one for "
                       "the factors U and V (")
           << getInputs().size() - 1 << "), found " << body.getNumArguments();
  auto main = dyn_cast<MatrixType>(getInputs()[0].getType());
  auto u = dyn_cast<MatrixType>(getInputs()[1].getType());
  auto v = dyn_cast<MatrixType>(getInputs()[2].getType());
  if (!main || !u || !v)
    return emitOpError("main input and factors must be matrices");
  auto known = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  if (!known(u.getRows(), main.getRows()) ||
      !known(v.getRows(), main.getCols()) || !known(u.getCols(), v.getCols()))
    return emitOpError("factors ")
           << u << " and " << v << " do not give U %*% t(V) the shape of "
           << main;
  if (getNumResults() != 1)
    return emitOpError("an 'outer' operator has one result, found ")
           << getNumResults();
  if (u.getElementType() != main.getElementType() ||
      v.getElementType() != main.getElementType())
    return emitOpError("factors must have the main input's element type ")
           << main.getElementType();
  if (ArrayAttr kinds = getAggregateAttr()) {
    // Zeros of the main input are skipped: only sums ignore them.
    if (getAxis() != AggAxis::All || llvm::any_of(kinds, [](Attribute kind) {
          return cast<AggKindAttr>(kind).getValue() != AggKind::Sum;
        }))
      return emitOpError("an 'outer' operator aggregates with sum over all "
                         "cells");
  }
  SmallVector<Type> cellInputs = {main.getElementType(), u.getElementType()};
  for (Type input : TypeRange(getInputs().getTypes()).drop_front(3))
    cellInputs.push_back(isa<MatrixType>(input)
                             ? cast<MatrixType>(input).getElementType()
                             : input);
  for (auto [i, expected, arg] :
       llvm::enumerate(cellInputs, body.getArgumentTypes()))
    if (arg != expected)
      return emitOpError("body argument #")
             << i << " must be the cell type " << expected << ", found " << arg;
  return verifyCellResults(getOperation(), yield);
}

LogicalResult FusedOp::verifyRegions() {
  Block &body = getBody().front();
  // The outer template's body takes one argument for both factors.
  if (getKind() != FusedTemplate::Outer &&
      body.getNumArguments() != getInputs().size())
    return emitOpError("body must take one argument per input (")
           << getInputs().size() << "), found " << body.getNumArguments();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("body must end in 'amls.yield'");
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError("must yield one value per result (")
           << getNumResults() << "), found " << yield.getValues().size();

  if (ArrayAttr kinds = getAggregateAttr()) {
    if (kinds.size() != getNumResults())
      return emitOpError("expects one aggregation per result (")
             << getNumResults() << "), found " << kinds.size();
    for (Attribute kind : kinds) {
      AggKind value = cast<AggKindAttr>(kind).getValue();
      if (value != AggKind::Sum && value != AggKind::SumSq &&
          value != AggKind::Min && value != AggKind::Max)
        return emitOpError("fused aggregation must be sum, sumsq, min or "
                           "max, found ")
               << stringifyAggKind(value);
    }
  } else if (getAxis()) {
    return emitOpError("an axis needs 'aggregate'");
  } else if (getKind() == FusedTemplate::MAgg) {
    return emitOpError("a 'magg' operator must aggregate");
  }

  if (getKind() == FusedTemplate::Row)
    return verifyRowTemplate(yield);
  if (getKind() == FusedTemplate::Outer)
    return verifyOuterTemplate(yield);
  if (getRowInputs())
    return emitOpError("'row_inputs' needs the row template");
  // Cell-wise templates see one scalar per input and yield one per result.
  if (getKind() != FusedTemplate::Cell && getKind() != FusedTemplate::MAgg)
    return success();
  for (auto [i, input, arg] :
       llvm::enumerate(getInputs().getTypes(), body.getArgumentTypes())) {
    Type expected = input;
    if (auto matrixType = dyn_cast<MatrixType>(input))
      expected = matrixType.getElementType();
    if (arg != expected)
      return emitOpError("body argument #")
             << i << " must be the cell type " << expected << " of input #" << i
             << ", found " << arg;
  }
  return verifyCellResults(getOperation(), yield);
}
