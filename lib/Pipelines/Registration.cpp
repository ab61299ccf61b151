//===- Registration.cpp - What a context needs to run the pipelines -------===//

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/Passes.h"
#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include <mutex>

void mlir::amls::registerPipelineDialects(DialectRegistry &registry) {
  // The lowering pipelines are spelled with pass names.
  static std::once_flag passes;
  std::call_once(passes, [] {
    registerAllPasses();
    registerAMLSPasses();
    registerAMLSConversionPasses();
    registerAMLSCodegenPasses();
  });
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<AMLSDialect>();
}
