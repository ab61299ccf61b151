//===- AMLSToLinalgPass.cpp - The --convert-amls-to-linalg pass -----------===//
//
// Lowers dense AMLS matrices to linalg on tensors with the patterns of every
// op family (AMLSToLinalg.h) and the chosen target's LoweringSchedule.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Conversion/AMLSToLinalg/AMLSToLinalg.h"
#include "AMLS/Conversion/Passes.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::amls {
#define GEN_PASS_DEF_CONVERTAMLSTOLINALG
#include "AMLS/Conversion/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

void mlir::amls::populateAMLSToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  populateAMLSElementwiseLoweringPatterns(converter, patterns, schedule);
  populateAMLSDataGenerationLoweringPatterns(converter, patterns, schedule);
  populateAMLSIOLoweringPatterns(converter, patterns, schedule);
  populateAMLSCollectiveLoweringPatterns(converter, patterns, schedule);
  populateAMLSProductLoweringPatterns(converter, patterns, schedule);
  populateAMLSAggregateLoweringPatterns(converter, patterns, schedule);
  populateAMLSReorganisationLoweringPatterns(converter, patterns, schedule);
  populateAMLSDataDependentLoweringPatterns(converter, patterns, schedule);
  populateAMLSLinearAlgebraLoweringPatterns(converter, patterns, schedule);
  populateAMLSNeuralNetworkLoweringPatterns(converter, patterns, schedule);
  populateAMLSScalarLoweringPatterns(converter, patterns, schedule);
  populateAMLSRegionLoweringPatterns(converter, patterns, schedule);
  populateAMLSFusedLoweringPatterns(converter, patterns, schedule);
  populateAMLSCSRLoweringPatterns(converter, patterns, schedule);
  populateAMLSCompressedLoweringPatterns(converter, patterns, schedule);
  populateAMLSFrameLoweringPatterns(converter, patterns, schedule);
}

namespace {

/// Names each AMLS op and the format and shape of its matrix result in its
/// location ("'amls.matmul' (dense 1000x1000 result)"). The ops it lowers to
/// inherit the location, and so do the buffers bufferization allocates for
/// them: --amls-check-buffer-sizes describes a buffer by it, in amls-run
/// --stats and in out-of-memory messages.
void nameOpsInLocations(Operation *root) {
  MLIRContext *context = root->getContext();
  root->walk([&](Operation *op) {
    if (!isa<AMLSDialect>(op->getDialect()))
      return;
    std::string name;
    llvm::raw_string_ostream os(name);
    os << "'" << op->getName() << "'";
    auto matrices = llvm::make_filter_range(op->getResultTypes(),
                                            llvm::IsaPred<MatrixType>);
    if (!matrices.empty()) {
      auto type = cast<MatrixType>(*matrices.begin());
      auto size = [&](int64_t extent) {
        if (ShapedType::isDynamic(extent))
          os << "?";
        else
          os << extent;
      };
      os << " (" << (type.getFormat() == MatrixFormat::CSR ? "csr" : "dense")
         << " ";
      size(type.getRows());
      os << "x";
      size(type.getCols());
      os << " result)";
    }
    op->setLoc(NameLoc::get(StringAttr::get(context, name), op->getLoc()));
  });
}

/// Moves the entry parameters' AMLSDialect::getLineOffsetAttrName() to the full
/// aggregates over them (amls.agg all, fused aggregates over all cells) whose
/// inputs of the main input's shape are all parameters with the same offset,
/// and drops it from the parameters. Other inputs are the program's own
/// buffers, which start on a cache line: no offset suits them all.
static void moveLineOffsetsToAggregates(ModuleOp module) {
  auto offsetOf = [](Value value) -> int64_t {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg)
      return 0;
    auto function = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (!function || arg.getOwner() != &function.getBody().front())
      return 0;
    if (auto offset = function.getArgAttrOfType<IntegerAttr>(
            arg.getArgNumber(), AMLSDialect::getLineOffsetAttrName()))
      return offset.getInt();
    return 0;
  };
  module.walk([&](Operation *op) {
    SmallVector<Value> mainInputs;
    if (auto agg = dyn_cast<AggOp>(op)) {
      if (agg.getAxis() != AggAxis::All)
        return;
      mainInputs.push_back(agg.getInput());
    } else if (auto fused = dyn_cast<FusedOp>(op)) {
      if (!fused.getAggregate() ||
          fused.getAxis().value_or(AggAxis::All) != AggAxis::All ||
          fused.getInputs().empty())
        return;
      Type mainType = fused.getInputs().front().getType();
      for (Value input : fused.getInputs())
        if (input.getType() == mainType)
          mainInputs.push_back(input);
    } else {
      return;
    }
    int64_t offset = offsetOf(mainInputs.front());
    if (offset == 0 || llvm::any_of(mainInputs, [&](Value input) {
          return offsetOf(input) != offset;
        }))
      return;
    op->setAttr(
        AMLSDialect::getLineOffsetAttrName(),
        IntegerAttr::get(IntegerType::get(op->getContext(), 64), offset));
  });
  module.walk([](func::FuncOp function) {
    for (unsigned i = 0; i < function.getNumArguments(); ++i)
      function.removeArgAttr(i, AMLSDialect::getLineOffsetAttrName());
  });
}

/// Records on the entry how its results will be returned
/// (amls.result_kinds): after the conversion a CSR result is several
/// values, and --amls-wrap-entry and the session group them by these kinds
/// instead of guessing from the lowered types. An entry with a result
/// compiled code cannot return (a string) gets none.
static void recordResultKinds(ModuleOp module, StringRef entry) {
  Builder b(module.getContext());
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function || function.isDeclaration() || function.getNumResults() == 0)
    return;
  {
    SmallVector<Attribute> kinds;
    for (Type type : function.getResultTypes()) {
      std::optional<ResultKind> kind = getResultKind(type);
      if (!kind)
        return;
      kinds.push_back(ResultKindAttr::get(b.getContext(), *kind));
    }
    function->setAttr(AMLSDialect::getResultKindsAttrName(),
                      b.getArrayAttr(kinds));
  }
}

struct ConvertAMLSToLinalgPass
    : public amls::impl::ConvertAMLSToLinalgBase<ConvertAMLSToLinalgPass> {
  using ConvertAMLSToLinalgBase::ConvertAMLSToLinalgBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    const LoweringSchedule *chosen = lookupLoweringSchedule(schedule);
    if (!chosen) {
      getOperation().emitError("convert-amls-to-linalg: expected schedule ")
          << listLoweringScheduleNames() << ", found '" << schedule << "'";
      return signalPassFailure();
    }
    if (failed(checkMatrixFormats(getOperation())))
      return signalPassFailure();
    nameOpsInLocations(getOperation());
    moveLineOffsetsToAggregates(getOperation());
    if (!entry.empty())
      recordResultKinds(getOperation(), entry);

    MatrixTypeConverter converter;
    ConversionTarget target(*context);
    target.addIllegalDialect<AMLSDialect>();
    target.addLegalDialect<
        arith::ArithDialect, bufferization::BufferizationDialect,
        cf::ControlFlowDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
        math::MathDialect, memref::MemRefDialect, shard::ShardDialect,
        tensor::TensorDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    // Canonicalization turns an scf.if that picks one of two matrices into
    // arith.select on matrices.
    target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp, arith::SelectOp,
                                 ub::PoisonOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addLegalOp<ModuleOp, scf::ExecuteRegionOp, scf::ForallOp,
                      scf::InParallelOp, scf::ParallelOp, scf::ReduceOp>();

    RewritePatternSet patterns(context);
    populateAMLSToLinalgConversionPatterns(converter, patterns, *chosen);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
