//===- AMLSAttrs.cpp - AMLS attributes and their verifiers ----------------===//
//
// The attributes by which passes, the session and the bindings pass facts
// to one another are named by the dialect (AMLSDialect.td) and checked here,
// where they are attached: a pass that attaches one wrongly, or IR written
// by hand that spells one wrongly, fails verification with the place and
// what was expected instead of being misread later.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amls;

#define GET_ATTRDEF_CLASSES
#include "AMLS/Dialect/AMLSAttrs.cpp.inc"

void AMLSDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "AMLS/Dialect/AMLSAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// MNCSketchAttr
//===----------------------------------------------------------------------===//

/// Sketches with more counts print elided: a 1M-vertex graph's sketch is
/// four million numbers, of no use in --explain or a debug print.
static constexpr size_t kMaxPrintedSketchCounts = 4096;

static void printCounts(AsmPrinter &printer, StringRef name,
                        const MNCSketch::Counts &counts) {
  printer << name << " = [";
  llvm::interleaveComma(counts, printer.getStream());
  printer << "]";
}

void MNCSketchAttr::print(AsmPrinter &printer) const {
  const MNCSketch &sketch = *getSketch();
  printer << "<";
  if (static_cast<size_t>(sketch.rows() + sketch.cols()) >
      kMaxPrintedSketchCounts) {
    printer << "elided " << sketch.rows() << "x" << sketch.cols()
            << ", nnz = " << sketch.nnz() << ">";
    return;
  }
  printCounts(printer, "rows", sketch.getRowCounts());
  printer << ", ";
  printCounts(printer, "cols", sketch.getColCounts());
  if (sketch.hasExtension()) {
    printer << ", ";
    printCounts(printer, "row_ext", sketch.getRowCountsInSingletonCols());
    printer << ", ";
    printCounts(printer, "col_ext", sketch.getColCountsInSingletonRows());
  }
  if (sketch.isFullDiagonal())
    printer << ", diagonal";
  printer << ">";
}

static ParseResult parseCounts(AsmParser &parser, StringRef name,
                               MNCSketch::Counts &counts) {
  if (parser.parseKeyword(name) || parser.parseEqual())
    return failure();
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        uint32_t count;
        if (parser.parseInteger(count))
          return failure();
        counts.push_back(count);
        return success();
      });
}

Attribute MNCSketchAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalKeyword("elided"))) {
    parser.emitError(loc, "an elided MNC sketch cannot be parsed (it printed "
                          "only its shape and nnz)");
    return {};
  }
  MNCSketch::Counts rows, cols, rowExt, colExt;
  bool diagonal = false;
  if (parseCounts(parser, "rows", rows) || parser.parseComma() ||
      parseCounts(parser, "cols", cols))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("diagonal"))) {
      diagonal = true;
      continue;
    }
    StringRef keyword;
    SMLoc keywordLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    MNCSketch::Counts *target = keyword == "row_ext"   ? &rowExt
                                : keyword == "col_ext" ? &colExt
                                                       : nullptr;
    if (!target) {
      parser.emitError(keywordLoc, "expected 'row_ext', 'col_ext' or "
                                   "'diagonal', found '")
          << keyword << "'";
      return {};
    }
    if (parser.parseEqual() ||
        parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Square, [&]() -> ParseResult {
              uint32_t count;
              if (parser.parseInteger(count))
                return failure();
              target->push_back(count);
              return success();
            }))
      return {};
  }
  if (parser.parseGreater())
    return {};
  std::string error;
  std::optional<MNCSketch> sketch =
      MNCSketch::fromParts(std::move(rows), std::move(cols), std::move(rowExt),
                           std::move(colExt), diagonal, error);
  if (!sketch) {
    parser.emitError(loc, "invalid MNC sketch: ") << error;
    return {};
  }
  return MNCSketchAttr::get(parser.getContext(),
                            std::make_shared<const MNCSketch>(*sketch));
}

LogicalResult
ParforPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t workers, ParforPartitioner partitioner,
                       int64_t taskSize, int64_t innerThreads,
                       DenseI32ArrayAttr resultMerge) {
  if (workers < 1 || taskSize < 1 || innerThreads < 1)
    return emitError() << "expected workers, task_size and inner_threads of "
                          "at least 1, found "
                       << workers << ", " << taskSize << " and "
                       << innerThreads;
  if (resultMerge)
    for (int32_t merge : resultMerge.asArrayRef())
      if (!symbolizeParforResultMerge(merge))
        return emitError() << "expected result_merge entries 0 (in place), 1 "
                              "(compare) or 2 (nonzeros), found "
                           << merge;
  return success();
}

/// Whether `attr` is `amls.row_block_loop`'s value: a unit attribute (the
/// loop assembles row-wise results) or one aggregation kind per result.
static bool isRowBlockLoopValue(Attribute attr) {
  if (isa<UnitAttr>(attr))
    return true;
  auto kinds = dyn_cast<ArrayAttr>(attr);
  return kinds && llvm::all_of(kinds, [](Attribute kind) {
           return isa<AggKindAttr>(kind);
         });
}

LogicalResult AMLSDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  Attribute value = attribute.getValue();
  // Success when `ok`, else the error that `value` is not `what`.
  auto expect = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitOpError("expected '")
           << name << "' to be " << what << ", found " << value;
  };
  if (name == getParforPlanAttrName()) {
    if (!isa<LoopLikeOpInterface>(op))
      return op->emitOpError("'") << name << "' belongs on a loop";
    return expect(isa<ParforPlanAttr>(value), "#amls.parfor_plan<...>");
  }
  if (name == getRowBlockLoopAttrName()) {
    if (!isa<LoopLikeOpInterface>(op))
      return op->emitOpError("'") << name << "' belongs on a loop";
    return expect(isRowBlockLoopValue(value),
                  "a unit attribute or an array of aggregation kinds");
  }
  if (name == getCompensateAttrName()) {
    if (!isa<arith::AddFOp>(op))
      return op->emitOpError("'") << name << "' belongs on arith.addf";
    return expect(isa<UnitAttr>(value), "a unit attribute");
  }
  if (name == getLineOffsetAttrName()) {
    auto offset = dyn_cast<IntegerAttr>(value);
    return expect(offset && !offset.getValue().isNegative(),
                  "a non-negative integer");
  }
  if (name == getResultKindsAttrName()) {
    if (!isa<FunctionOpInterface>(op))
      return op->emitOpError("'") << name << "' belongs on a function";
    auto kinds = dyn_cast<ArrayAttr>(value);
    return expect(kinds && llvm::all_of(kinds,
                                        [](Attribute kind) {
                                          return isa<ResultKindAttr>(kind);
                                        }),
                  "an array of #amls.result_kind<...>");
  }
  // The results (or operands) an array names: in range, and matrices.
  auto expectMatrices = [&](StringRef place,
                            TypeRange types) -> LogicalResult {
    auto numbers = dyn_cast<DenseI64ArrayAttr>(value);
    if (!numbers)
      return expect(false, "an array of " + place.str() + " numbers");
    for (int64_t number : numbers.asArrayRef()) {
      if (number < 0 || number >= static_cast<int64_t>(types.size()))
        return op->emitOpError("'")
               << name << "' names " << place << " #" << number
               << " of an op with " << types.size() << " " << place << "s";
      if (!isa<MatrixType>(types[number]))
        return op->emitOpError("'") << name << "' names " << place << " #"
                                    << number << ", which is not a matrix";
    }
    return success();
  };
  if (name == getRowPartitionedAttrName())
    return expectMatrices("result", op->getResultTypes());
  if (name == getRowPartitionedOperandsAttrName()) {
    if (op->getNumResults() != 0)
      return op->emitOpError("'")
             << name << "' belongs on an op without results (its results "
                        "would be named by '"
             << getRowPartitionedAttrName() << "')";
    return expectMatrices("operand", op->getOperandTypes());
  }
  if (name == getNameAttrName() || name == getBooleanAttrName())
    return op->emitOpError("'")
           << name << "' belongs on a function's parameters or results";
  return op->emitOpError("unknown attribute '") << name << "'";
}

bool AMLSDialect::isRowPartitionedOperand(Operation *op, unsigned operand) {
  auto operands =
      op->getAttrOfType<DenseI64ArrayAttr>(getRowPartitionedOperandsAttrName());
  return operands && llvm::is_contained(operands.asArrayRef(),
                                        static_cast<int64_t>(operand));
}

/// Success when `ok`, else the error that the attribute of parameter or
/// result (`place`) #`index` is not `what`.
static LogicalResult expectOnValue(Operation *op, NamedAttribute attribute,
                                   StringRef place, unsigned index, bool ok,
                                   StringRef what) {
  if (ok)
    return success();
  return op->emitOpError("expected '")
         << attribute.getName().getValue() << "' of " << place << " #" << index
         << " to be " << what << ", found " << attribute.getValue();
}

LogicalResult AMLSDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  Attribute value = attribute.getValue();
  if (name == getNameAttrName())
    return expectOnValue(op, attribute, "parameter", argIndex,
                         isa<StringAttr>(value), "a string");
  if (name == getLineOffsetAttrName()) {
    auto offset = dyn_cast<IntegerAttr>(value);
    return expectOnValue(op, attribute, "parameter", argIndex,
                         offset && !offset.getValue().isNegative(),
                         "a non-negative integer");
  }
  if (name == getRowPartitionedAttrName() ||
      name == getCompressibleAttrName()) {
    // The caller passes each rank's block of rows (--amls-distribute), or
    // data that looks compressible (--amls-select-compression).
    auto function = dyn_cast<FunctionOpInterface>(op);
    return expectOnValue(op, attribute, "parameter", argIndex,
                         isa<UnitAttr>(value) && function &&
                             isa<MatrixType>(function.getArgumentTypes()[argIndex]),
                         "a unit attribute on a matrix parameter");
  }
  if (name == getMNCSketchAttrName()) {
    auto function = dyn_cast<FunctionOpInterface>(op);
    auto sketch = dyn_cast<MNCSketchAttr>(value);
    auto matrix = function ? dyn_cast<MatrixType>(
                                 function.getArgumentTypes()[argIndex])
                           : MatrixType();
    if (!sketch || !matrix)
      return expectOnValue(op, attribute, "parameter", argIndex, false,
                           "an MNC sketch on a matrix parameter");
    const MNCSketch &counts = *sketch.getSketch();
    if ((matrix.hasStaticRows() && matrix.getRows() != counts.rows()) ||
        (matrix.hasStaticCols() && matrix.getCols() != counts.cols()))
      return op->emitOpError("expected the MNC sketch of parameter #")
             << argIndex << " to have the shape of " << matrix << ", found "
             << counts.rows() << "x" << counts.cols();
    return success();
  }
  return op->emitOpError("unknown parameter attribute '")
         << name << "' on parameter #" << argIndex;
}

LogicalResult
AMLSDialect::verifyRegionResultAttribute(Operation *op, unsigned regionIndex,
                                         unsigned resultIndex,
                                         NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  Attribute value = attribute.getValue();
  if (name == getNameAttrName())
    return expectOnValue(op, attribute, "result", resultIndex,
                         isa<StringAttr>(value), "a string");
  if (name == getBooleanAttrName()) {
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (!isa<UnitAttr>(value) || !function ||
        !function.getResultTypes()[resultIndex].isSignlessInteger())
      return op->emitOpError("expected '")
             << name << "' of result #" << resultIndex
             << " to be a unit attribute on an integer result";
    return success();
  }
  return op->emitOpError("unknown result attribute '")
         << name << "' on result #" << resultIndex;
}
