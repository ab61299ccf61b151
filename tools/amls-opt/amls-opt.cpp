//===- amls-opt.cpp - AMLS pass driver ------------------------------------===//
//
// mlir-opt with the AMLS dialect and passes added: every upstream dialect,
// pass and extension is registered too, so AMLS programs can be lowered and
// inspected with one tool.
//
//===----------------------------------------------------------------------===//

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
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::amls::registerAMLSPasses();
  mlir::amls::registerAMLSConversionPasses();
  mlir::amls::registerAMLSCodegenPasses();
  mlir::amls::registerAMLSPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary needs the GPU-to-LLVM-IR translation interfaces.
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  registry.insert<mlir::amls::AMLSDialect>();

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "AMLS optimizer driver\n", registry));
}
