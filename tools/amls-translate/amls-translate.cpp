//===- amls-translate.cpp - AMLS translations ----------------------------===//
//
// mlir-translate with AMLS added: `--import-dml` turns a DML script into
// AMLS IR, `--amls-to-llvmir` compiles an AMLS program as amls-run does
// (the amls-compile pipeline: optimizer, fusion, CPU or GPU lowering) and
// prints LLVM IR, `--amls-to-ptx` compiles it for the GPU and prints its
// kernels' PTX; every upstream translation (--mlir-to-llvmir, ...) is
// available too.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Frontend/DML/ImportDML.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Pipelines/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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

static llvm::cl::opt<std::string>
    compileTarget("amls-target",
                  llvm::cl::desc("--amls-to-llvmir: where the program runs "
                                 "(cpu, gpu)"),
                  llvm::cl::init(mlir::amls::kDefaultTargetName.str()));
static llvm::cl::opt<std::string>
    gpuChip("amls-gpu-chip",
            llvm::cl::desc("--amls-to-llvmir, --amls-to-ptx: the chip the "
                           "kernels are compiled for (sm_80, sm_90, ...)"),
            llvm::cl::init("sm_80"));
static llvm::cl::opt<std::string>
    gpuFeatures("amls-gpu-features",
                llvm::cl::desc("--amls-to-llvmir, --amls-to-ptx: PTX features "
                               "such as +ptx80 (default: the chip's lowest)"),
                llvm::cl::init(""));
static llvm::cl::opt<std::string> gpuFormat(
    "amls-gpu-format",
    llvm::cl::desc("--amls-to-llvmir: how kernels are embedded (isa: PTX, "
                   "bin: cubin, fatbin: both; bin and fatbin run ptxas)"),
    llvm::cl::init("fatbin"));

static llvm::cl::opt<int64_t> gpuMinWork(
    "amls-gpu-min-work",
    llvm::cl::desc("--amls-to-llvmir, --amls-to-ptx: parallel loops over "
                   "buffers of at most 64 KiB with less work run on the CPU "
                   "(0: every loop a kernel can run is one)"),
    llvm::cl::init(65536));

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

/// Runs the end-to-end compile on `op` for `target` (gpu kernels embedded
/// as `format`).
static LogicalResult compile(Operation *op, StringRef translation,
                             StringRef target, StringRef format) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a module");
  mlir::amls::CompileOptions options;
  options.rewrites = compileRewrites;
  options.fusion = compileFusion;
  options.threads = loweringThreads;
  options.blas = loweringBlas;
  options.target = target.str();
  options.gpuChip = gpuChip;
  options.gpuFeatures = gpuFeatures;
  options.gpuFormat = format.str();
  options.gpuMinWork = gpuMinWork;
  std::string problem = mlir::amls::checkCompileOptions(options);
  if (!problem.empty())
    return module.emitError("--") << translation << ": " << problem;
  PassManager pm(op->getContext());
  mlir::amls::buildCompilePipeline(pm, options);
  return pm.run(module);
}

/// Prints the PTX of every kernel module the GPU lowering serialized.
static LogicalResult translateAMLSToPTX(Operation *op,
                                        llvm::raw_ostream &output) {
  const mlir::amls::Target *cuda =
      mlir::amls::lookupTargetForDeviceRuntime("cuda");
  if (!cuda)
    return op->emitError("--amls-to-ptx: no registered target compiles "
                         "kernels for CUDA");
  if (failed(compile(op, "amls-to-ptx", cuda->getName(), "isa")))
    return failure();
  unsigned modules = 0;
  op->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      output << "// ----- kernel module @" << binary.getSymName() << " for "
             << object.getTarget() << "\n"
             << object.getObject().getValue() << "\n";
    }
    ++modules;
  });
  if (modules == 0)
    output << "// no kernels: no parallel loop of this program runs on the "
              "GPU\n";
  return success();
}

static LogicalResult translateAMLSToLLVMIR(Operation *op,
                                           llvm::raw_ostream &output) {
  if (failed(compile(op, "amls-to-llvmir", compileTarget, gpuFormat)))
    return failure();
  auto module = cast<ModuleOp>(op);
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
      "amls-to-llvmir",
      "Lower an AMLS program for the CPU or GPU and print LLVM IR",
      translateAMLSToLLVMIR, [](DialectRegistry &registry) {
        mlir::amls::registerPipelineDialects(registry);
      });
  TranslateFromMLIRRegistration amlsToPTX(
      "amls-to-ptx",
      "Compile an AMLS program for the GPU and print its kernels' PTX",
      translateAMLSToPTX, [](DialectRegistry &registry) {
        mlir::amls::registerPipelineDialects(registry);
      });
  TranslateToMLIRRegistration dmlToAMLS(
      "import-dml", "Import a DML script as AMLS IR", importDML,
      [](DialectRegistry &registry) {
        mlir::amls::registerPipelineDialects(registry);
      });
  return failed(mlirTranslateMain(argc, argv, "AMLS translation driver"));
}
