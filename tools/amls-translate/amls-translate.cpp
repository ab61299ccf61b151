//===- amls-translate.cpp - AMLS translations ----------------------------===//
//
// mlir-translate with AMLS added: `--import-dml` turns a DML script into
// AMLS IR, `--amls-to-llvmir` compiles an AMLS program as amls-run does
// (the amls-compile pipeline: optimizer, fusion, CPU lowering) and prints
// LLVM IR; every upstream translation (--mlir-to-llvmir, ...) is available
// too.
//
//===----------------------------------------------------------------------===//

#include "AMLS/ExecutionEngine/Session.h"
#include "AMLS/Frontend/DML/ImportDML.h"
#include "AMLS/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

static llvm::cl::opt<unsigned>
    loweringThreads("amls-threads",
                    llvm::cl::desc("--amls-to-llvmir: worker threads of "
                                   "parallel loops (1: sequential code)"),
                    llvm::cl::init(2));
static llvm::cl::opt<std::string>
    loweringBlas("amls-blas",
                 llvm::cl::desc("--amls-to-llvmir: when dense products call "
                                "BLAS (auto, always, never)"),
                 llvm::cl::init("auto"));

static llvm::cl::opt<std::string>
    compileRewrites("amls-rewrites",
                    llvm::cl::desc("--amls-to-llvmir: the optimizer's rewrite "
                                   "families (all, none, or a list)"),
                    llvm::cl::init("all"));
static llvm::cl::opt<std::string>
    compileFusion("amls-fuse",
                  llvm::cl::desc("--amls-to-llvmir: operator fusion (cost, "
                                 "fuse-all, fuse-no-redundancy, none)"),
                  llvm::cl::init("cost"));

static llvm::cl::list<std::string>
    dmlArguments("dml-arg",
                 llvm::cl::desc("--import-dml: bind the script's command-line "
                                "argument $NAME: NAME=value"),
                 llvm::cl::value_desc("NAME=value"));

static llvm::cl::list<std::string> builtinDirs(
    "builtins",
    llvm::cl::desc("--import-dml: a directory of DML library functions "
                   "(NAME.dml defining m_NAME) searched before AMLS's own"),
    llvm::cl::value_desc("DIR"));

static OwningOpRef<Operation *> importDML(llvm::SourceMgr &sourceMgr,
                                          MLIRContext *context) {
  mlir::amls::dml::ImportOptions options;
  options.builtinDirs.insert(options.builtinDirs.begin(), builtinDirs.begin(),
                             builtinDirs.end());
  for (const std::string &binding : dmlArguments) {
    auto [name, value] = llvm::StringRef(binding).split('=');
    if (name.empty() || !llvm::StringRef(binding).contains('=')) {
      emitError(UnknownLoc::get(context))
          << "--dml-arg expects NAME=value, found '" << binding << "'";
      return nullptr;
    }
    options.arguments[name] = value.str();
  }
  OwningOpRef<ModuleOp> module =
      mlir::amls::dml::importDML(sourceMgr, context, options);
  if (!module)
    return nullptr;
  return OwningOpRef<Operation *>(module.release().getOperation());
}

static LogicalResult translateAMLSToLLVMIR(Operation *op,
                                           llvm::raw_ostream &output) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a module");
  mlir::amls::CompileOptions options;
  options.rewrites = compileRewrites;
  options.fusion = compileFusion;
  options.threads = loweringThreads;
  options.blas = loweringBlas;
  std::string problem = mlir::amls::checkCompileOptions(options);
  if (!problem.empty())
    return module.emitError("--amls-to-llvmir: ") << problem;
  PassManager pm(op->getContext());
  mlir::amls::buildCompilePipeline(pm, options);
  if (failed(pm.run(module)))
    return failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return module.emitError("translation to LLVM IR failed");
  llvmModule->print(output, nullptr);
  return success();
}

int main(int argc, char **argv) {
  registerAllTranslations();
  TranslateFromMLIRRegistration amlsToLLVMIR(
      "amls-to-llvmir", "Lower an AMLS program for the CPU and print LLVM IR",
      translateAMLSToLLVMIR, [](DialectRegistry &registry) {
        mlir::amls::registerExecutionDialects(registry);
      });
  TranslateToMLIRRegistration dmlToAMLS(
      "import-dml", "Import a DML script as AMLS IR", importDML,
      [](DialectRegistry &registry) {
        mlir::amls::registerExecutionDialects(registry);
      });
  return failed(mlirTranslateMain(argc, argv, "AMLS translation driver"));
}
