//===- amls-run.cpp - Run AMLS programs ----------------------------------===//
//
// amls-run FILE.mlir|FILE.dml [--entry main] [--input NAME=path ...] [--arg
// NAME=value]
//          [--output N=path ...] [--threads N] [--blas auto|always|never]
//          [--print-ir-after-all] [--timing] [--stats] [--memory-limit=SIZE]
//
// Binds files and scalars to the entry function's parameters, specializes
// the program to them, compiles it and runs it; results are printed (DML's
// format) or written with --output.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSTypes.h"
#include "AMLS/ExecutionEngine/Session.h"
#include "AMLS/ExecutionEngine/TargetExecution.h"
#include "AMLS/Frontend/DML/ImportDML.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Pipelines/Target.h"
#include "AMLS/Runtime/Compressed.h"
#include "AMLS/Runtime/Context.h"
#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Memory.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <new>
#include <thread>

using namespace mlir;
using namespace mlir::amls;

namespace cl = llvm::cl;

static cl::OptionCategory category("amls-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<program.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string> entryName("entry", cl::init("main"),
                                      cl::desc("Function to run"),
                                      cl::cat(category));
static cl::list<std::string>
    inputs("input",
           cl::desc("Bind a matrix file to a parameter: NAME=path "
                    "(CSV; Matrix Market for .mtx/.mm; AMLS binary for .bin)"),
           cl::value_desc("NAME=path"), cl::cat(category));
static cl::list<std::string>
    scalarArgs("arg", cl::desc("Bind a scalar to a parameter: NAME=value"),
               cl::value_desc("NAME=value"), cl::cat(category));
static cl::list<std::string> builtinDirs(
    "builtins",
    cl::desc("A directory of DML library functions (NAME.dml defining "
             "m_NAME) searched before AMLS's own; may be repeated"),
    cl::value_desc("DIR"), cl::cat(category));
static cl::list<std::string>
    outputs("output",
            cl::desc("Write result N (0-based) to a file instead of printing "
                     "it: N=path"),
            cl::value_desc("N=path"), cl::cat(category));
static cl::opt<std::string>
    blas("blas", cl::init("auto"),
         cl::desc("When dense products call BLAS: auto, always, never"),
         cl::cat(category));
static cl::opt<unsigned>
    repeat("repeat",
           cl::desc("Run the compiled program N times and report the fastest "
                    "execution (for benchmarks)"),
           cl::init(1), cl::cat(category));
static cl::opt<bool> printIRAfterAll("print-ir-after-all",
                                     cl::desc("Print the IR after each pass"),
                                     cl::cat(category));
static cl::opt<bool>
    noOptimization("O0",
                   cl::desc("Do not optimize: no rewrites and no fusion, only "
                            "the size specialization (same as --rewrites=none "
                            "--fuse=none)"),
                   cl::cat(category));
static cl::opt<std::string> rewriteFamilies(
    "rewrites", cl::init("all"),
    cl::desc("Rewrite families the optimizer runs, comma-separated: "
             "simplify, simplify-dynamic, matmul-chain, ipa, vectorize-loops, "
             "all, none"),
    cl::cat(category));
static cl::opt<std::string>
    fusion("fuse", cl::init("cost"),
           cl::desc("Operator fusion (--amls-fuse): cost (cost-based plans), "
                    "fuse-all, fuse-no-redundancy, none (also --fusion)"),
           cl::cat(category));
static cl::opt<bool> fusionExplain(
    "fuse-explain",
    cl::desc("Print the fusion planner's memo table, partitions, plans and "
             "costs, and the matrices materialized per innermost-loop "
             "iteration, on stderr (also --fusion-explain)"),
    cl::cat(category));
// The spellings of SessionOptions, the compile options (amls-opt
// --amls-compile="fusion=..."), the C API and the Python package.
static cl::alias fusionAlias("fusion", cl::desc("Alias for --fuse"),
                             cl::aliasopt(fusion), cl::cat(category));
static cl::alias fusionExplainAlias("fusion-explain",
                                    cl::desc("Alias for --fuse-explain"),
                                    cl::aliasopt(fusionExplain),
                                    cl::cat(category));
static cl::opt<std::string> formats(
    "formats", cl::init("auto"),
    cl::desc("Storage formats (--amls-select-formats): auto (CSR for "
             "matrices below 40% non-zeros), dense, csr (CSR wherever a "
             "kernel exists; for differential testing), compressed (auto, "
             "and the matrices a loop multiplies compressed, "
             "--amls-select-compression)"),
    cl::cat(category));
static cl::opt<bool> formatsExplain(
    "formats-explain",
    cl::desc("Print which matrices are stored CSR and where formats are "
             "converted, on stderr"),
    cl::cat(category));
static cl::opt<std::string> sparsityEstimator(
    "sparsity-estimator", cl::init("mnc"),
    cl::desc("Sparsity estimates of intermediate results: mnc (MNC sketches "
             "of the CSR inputs' rows and columns, exact for products with "
             "permutation, selection, one-hot and diagonal matrices; "
             "metadata where no sketch exists), metadata (average case from "
             "the inputs' nnz), worst (upper bounds)"),
    cl::cat(category));
static cl::opt<bool> parforExplain(
    "parfor-explain",
    cl::desc("Print each parfor's dependency analysis and parallel plan "
             "(workers, task partitioner and sizes, inner threads) on stderr"),
    cl::cat(category));
static cl::opt<std::string>
    sums("sums", cl::init("kahan"),
         cl::desc("How sum, mean, rowSums, ... add up: kahan (compensated, "
                  "as SystemDS computes them) or plain (faster, less "
                  "accurate; to measure what the compensation costs)"),
         cl::cat(category));
static cl::opt<std::string>
    target("target", cl::init(kDefaultTargetName.str()),
           cl::desc("Where the program runs: cpu, gpu (its parallel loops "
                    "as CUDA kernels on device 0, the rest on the CPU), or "
                    "mpi (every rank of an MPI job, as --distributed)"),
           cl::cat(category));
static cl::opt<bool> distributed(
    "distributed",
    cl::desc("Run on every rank of the MPI job this process belongs to "
             "(mpirun -np N amls-run --distributed ...): --target=mpi; "
             "without a launcher, one rank"),
    cl::cat(category));
static cl::opt<int64_t> distributeMinCells(
    "distribute-min-cells", cl::init(100000),
    cl::desc("--distributed: the cells from which a read matrix is split by "
             "rows over the ranks (smaller ones are read whole by every "
             "rank)"),
    cl::cat(category));
static cl::opt<bool> distributeExplain(
    "distribute-explain",
    cl::desc("--distributed: print each op's distributed form and the "
             "collective it ends in, on stderr"),
    cl::cat(category));
static cl::opt<std::string>
    gpuChip("gpu-chip",
            cl::desc("--target=gpu: the chip the kernels are compiled for, "
                     "e.g. sm_80 (default: the device's)"),
            cl::cat(category));
static cl::opt<std::string> gpuFormat(
    "gpu-format", cl::init("isa"),
    cl::desc("--target=gpu: how kernels are embedded: isa (PTX, compiled by "
             "the driver at load), bin or fatbin (assembled by ptxas)"),
    cl::cat(category));
static cl::opt<int64_t> gpuMinWork(
    "gpu-min-work", cl::init(65536),
    cl::desc("--target=gpu: parallel loops over buffers of at most 64 KiB "
             "with less work (iterations of the loop nest) run on the CPU, "
             "cheaper than a launch; 0 makes every loop a kernel can run one"),
    cl::cat(category));
static cl::opt<std::string> explainPlan(
    "explain",
    cl::desc("Print the optimized plan for the inputs on stdout instead of "
             "running it: dot (a Graphviz graph: amls-run --explain=dot "
             "s.dml | dot -Tsvg > plan.svg)"),
    cl::value_desc("dot"), cl::cat(category));
static cl::opt<bool>
    timing("timing",
           cl::desc("Report parse, optimize, compile and execute times"),
           cl::cat(category));

static int fail(const Twine &message) {
  llvm::errs() << "amls-run: error: " << message << "\n";
  return 1;
}

/// Splits "NAME=rest" or fails with a message naming the option.
static bool splitBinding(StringRef binding, StringRef option, StringRef &name,
                         StringRef &rest) {
  std::tie(name, rest) = binding.split('=');
  if (!name.empty() && binding.contains('='))
    return true;
  fail("--" + option + " expects NAME=value, found '" + binding + "'");
  return false;
}

static void printValue(const RuntimeValue &value) {
  if (value.isMatrix())
    llvm::outs() << runtime::formatMatrix(value.getMatrix().getView());
  else if (value.getKind() == RuntimeValue::Kind::Integer)
    llvm::outs() << value.getInteger() << "\n";
  else
    llvm::outs() << runtime::formatScalar(value.getFloat()) << "\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Memory the system refuses to C++ code outside the pool (the compiler's,
  // small runtime arrays) ends the run with a message, not an abort.
  std::set_new_handler([] {
    std::fflush(stdout);
    std::fputs("amls-run: out of memory: the system refused an allocation\n",
               stderr);
    std::_Exit(1);
  });
  // libLLVM registers `--threads` and `--stats` options of its own (some
  // lazily, when the options are first listed); ours replace them.
  for (StringRef name : {"threads", "stats"}) {
    auto registered = cl::getRegisteredOptions();
    if (auto it = registered.find(name); it != registered.end())
      it->second->removeArgument();
  }
  cl::opt<bool> stats("stats",
                      cl::desc("Report pass statistics and the number of "
                               "compilations"),
                      cl::cat(category));
  cl::opt<std::string> memoryLimit(
      "memory-limit",
      cl::desc("Bytes the program's buffers may take at once, e.g. 2G, "
               "512M (default: 80% of the machine's memory)"),
      cl::value_desc("size"), cl::cat(category));
  cl::opt<bool> memoryPool(
      "memory-pool",
      cl::desc("Reuse freed buffers (default); =false takes every buffer "
               "from the system allocator, the baseline for measuring the "
               "pool"),
      cl::init(true), cl::cat(category));
  cl::opt<unsigned> threads(
      "threads",
      cl::desc("Worker threads (default: the machine's cores; 1 runs "
               "sequential code)"),
      cl::init(0), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "AMLS program runner\n");
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();

  // The options are checked below, after the program is read.
  SessionOptions options;
  options.threads =
      threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  options.blas = blas;
  options.printIRAfterAll = printIRAfterAll;
  options.passStatistics = stats;
  options.rewrites =
      noOptimization ? std::string("none") : rewriteFamilies.getValue();
  options.fusion = noOptimization ? std::string("none") : fusion.getValue();
  options.fusionExplain = fusionExplain;
  options.formats = formats;
  options.formatsExplain = formatsExplain;
  options.formatsActualNnz = formatsExplain && stats;
  options.sparsityEstimator = sparsityEstimator;
  options.parforExplain = parforExplain;
  options.sums = sums;
  if (!memoryLimit.empty() &&
      !runtime::memory::parseSize(memoryLimit.c_str(), options.memoryLimit))
    return fail("--memory-limit: expected a size such as 2G, 512M or "
                "1000000 (bytes), found '" +
                memoryLimit + "'");
  runtime::memory::setPooling(memoryPool);
  options.target = target;
  if (distributed) {
    if (target.getNumOccurrences() && target != "mpi")
      return fail("--distributed runs on --target=mpi, found --target=" +
                  target);
    options.target = "mpi";
  }
  options.distributeMinCells = distributeMinCells;
  options.distributeExplain = distributeExplain;
  options.gpuChip = gpuChip;
  options.gpuFormat = gpuFormat;
  options.gpuMinWork = gpuMinWork;
  // Before anything is read: the GPU target's buffers are managed memory.
  if (std::string problem = prepareTarget(options); !problem.empty())
    return fail(problem);
  options.builtinDirs.assign(builtinDirs.begin(), builtinDirs.end());
  Session session(options);
  // Everything this tool asks of the runtime is the session's.
  runtime::ScopedContext installed(&session.getRuntimeContext());
  bool isDML = StringRef(inputFile).ends_with(".dml");
  SessionDiagnostics diagnostics(session, llvm::errs(),
                                 isDML ? SessionDiagnostics::Language::DML
                                       : SessionDiagnostics::Language::MLIR);

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  if (blas != "auto" && blas != "always" && blas != "never")
    return fail("--blas expects auto, always or never, found '" + blas + "'");
  FailureOr<OptimizeFamilies> families = parseOptimizeFamilies(
      noOptimization ? StringRef("none") : StringRef(rewriteFamilies));
  if (failed(families))
    return fail("--rewrites expects a comma-separated list of simplify, "
                "simplify-dynamic, matmul-chain, ipa, vectorize-loops, all, "
                "none; found '" +
                rewriteFamilies + "'");
  if (fusion != "cost" && fusion != "fuse-all" &&
      fusion != "fuse-no-redundancy" && fusion != "none")
    return fail("--fuse expects cost, fuse-all, fuse-no-redundancy or none, "
                "found '" +
                fusion + "'");
  if (formats != "auto" && formats != "dense" && formats != "csr" &&
      formats != "compressed")
    return fail("--formats expects auto, dense, csr or compressed, found '" +
                formats + "'");
  if (sums != "kahan" && sums != "plain")
    return fail("--sums expects kahan or plain, found '" + sums + "'");
  // A DML script takes its arguments ($name) when it is imported, as in
  // SystemDS: `--arg NAME=value` and `--input NAME=path` both bind $NAME.
  FailureOr<Program *> program = failure();
  if (isDML) {
    dml::ImportOptions importOptions;
    importOptions.entryName = entryName;
    for (StringRef binding :
         llvm::concat<const std::string>(scalarArgs, inputs)) {
      StringRef name, value;
      if (!splitBinding(binding, "arg", name, value))
        return 1;
      if (!importOptions.arguments.try_emplace(name, value.str()).second)
        return fail("argument '$" + name + "' is bound twice");
    }
    program = session.loadDML(std::move(file), importOptions);
  } else {
    program = session.loadMLIR(std::move(file), entryName);
  }
  if (failed(program))
    return 1;
  // Parsing (or importing) and checking the entry.
  double parseMs =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  ArrayRef<Program::Parameter> parameters = (*program)->getParameters();

  auto parameterList = [&] {
    std::string list;
    for (const auto &p : parameters)
      list += (list.empty() ? "" : ", ") + p.name;
    return list.empty() ? std::string("none") : list;
  };

  // Bind every parameter exactly once.
  SmallVector<std::optional<RuntimeValue>> bound(parameters.size());
  auto bind = [&](StringRef name, RuntimeValue value,
                  StringRef option) -> bool {
    std::optional<unsigned> index = (*program)->findParameter(name);
    if (!index) {
      fail("--" + option + ": '" + entryName + "' has no parameter '" + name +
           "'; parameters: " + parameterList());
      return false;
    }
    if (bound[*index]) {
      fail("parameter '" + parameters[*index].name + "' is bound twice");
      return false;
    }
    bound[*index] = std::move(value);
    return true;
  };
  // The session reads input matrices in place: they live until the end.
  std::deque<runtime::Matrix> inputMatrices;
  for (StringRef binding : isDML ? ArrayRef<std::string>() : inputs) {
    StringRef name, path;
    if (!splitBinding(binding, "input", name, path))
      return 1;
    runtime::Matrix &matrix = inputMatrices.emplace_back();
    std::string readError =
        runtime::readMatrix(path.str(), runtime::formatForPath(path), matrix);
    if (!readError.empty())
      return fail("cannot read input '" + name + "': " + readError);
    if (!bind(name, RuntimeValue::ofMatrix(MatrixValue::borrow(matrix)),
              "input"))
      return 1;
  }
  for (StringRef binding : isDML ? ArrayRef<std::string>() : scalarArgs) {
    StringRef name, text;
    if (!splitBinding(binding, "arg", name, text))
      return 1;
    double value;
    if (text.trim().getAsDouble(value))
      return fail("--arg " + name + ": expected a number, found '" + text +
                  "'");
    std::optional<unsigned> index = (*program)->findParameter(name);
    bool isInteger = index && (parameters[*index].type.isIndex() ||
                               parameters[*index].type.isSignlessInteger());
    if (isInteger && value != std::floor(value))
      return fail("--arg " + name + ": parameter '" + name +
                  "' is an integer, "
                  "found '" +
                  text + "'");
    if (!bind(name,
              isInteger ? RuntimeValue::ofInteger(static_cast<int64_t>(value))
                        : RuntimeValue::ofFloat(value),
              "arg"))
      return 1;
  }
  SmallVector<RuntimeValue> args;
  for (auto [i, value] : llvm::enumerate(bound)) {
    if (!value) {
      bool isMatrix = isa<MatrixType>(parameters[i].type);
      std::string typeText;
      llvm::raw_string_ostream os(typeText);
      os << parameters[i].type;
      return fail("parameter '" + parameters[i].name + "' (" + typeText +
                  ") is not bound: use " + (isMatrix ? "--input " : "--arg ") +
                  parameters[i].name + "=" + (isMatrix ? "path" : "value"));
    }
    args.push_back(std::move(*value));
  }

  // Where results go.
  DenseMap<unsigned, std::string> outputPaths;
  for (StringRef binding : outputs) {
    StringRef name, path;
    if (!splitBinding(binding, "output", name, path))
      return 1;
    unsigned index;
    if (name.getAsInteger(10, index))
      return fail("--output expects a result number N=path, found '" + binding +
                  "'");
    outputPaths[index] = path.str();
  }

  if (!explainPlan.empty()) {
    if (explainPlan != "dot")
      return fail("--explain expects 'dot', found '" + explainPlan + "'");
    FailureOr<std::string> graph = (*program)->explainPlan(args);
    if (failed(graph))
      return 1;
    const Target *target = lookupTarget(options.target);
    const TargetExecution *execution =
        target ? getTargetExecution(*target) : nullptr;
    if (!execution || execution->isReportingProcess())
      llvm::outs() << *graph;
    return 0;
  }

  FailureOr<RunResult> run = (*program)->run(args);
  if (failed(run))
    return 1;
  PhaseTimes times = run->times;
  for (unsigned i = 1; i < repeat; ++i) {
    FailureOr<RunResult> again = (*program)->run(args);
    if (failed(again))
      return 1;
    times.execute = std::min(times.execute, again->times.execute);
  }
  ArrayRef<RuntimeValue> results = run->values;

  for (auto [index, path] : outputPaths) {
    if (index >= results.size())
      return fail("--output " + Twine(index) + ": the program has only " +
                  Twine(results.size()) + " results");
    const RuntimeValue &value = results[index];
    double number = value.getNumber();
    runtime::MatrixView view = value.isMatrix()
                                   ? value.getMatrix().getView()
                                   : runtime::MatrixView{&number, 1, 1, 1, 1};
    std::string writeError =
        runtime::writeMatrix(path, runtime::formatForPath(path), view);
    if (!writeError.empty())
      return fail(writeError);
  }
  bool several = results.size() - outputPaths.size() > 1;
  // The processes that run the program together (the ranks of an MPI job)
  // report once.
  const Target *target = lookupTarget(options.target);
  const TargetExecution *execution =
      target ? getTargetExecution(*target) : nullptr;
  bool reporting = !execution || execution->isReportingProcess();
  for (auto [i, value] : llvm::enumerate(results)) {
    if (outputPaths.count(i) || !reporting)
      continue;
    if (several)
      llvm::outs() << "result #" << i << ":\n";
    printValue(value);
  }
  llvm::outs().flush();

  if (timing && reporting)
    llvm::errs() << llvm::formatv(
        "amls-run timing (ms): parse {0:F1}, optimize {1:F1}, compile {2:F1}, "
        "execute {3:F1}\n",
        parseMs, times.optimize, times.compile, times.execute);
  if (!stats)
    return 0;
  runtime::memory::Statistics memory = runtime::memory::getStatistics();
  if (reporting) {
    bool runsOnDevice = target && target->runsOnDevice();
    llvm::errs() << "amls-run: " << session.getStatistics().compilations
                 << " compilation(s), " << options.threads << " thread(s)";
    if (runsOnDevice)
      llvm::errs() << ", " << session.getStatistics().gpuKernels
                   << " GPU kernel(s)";
    llvm::errs() << "\n";
    double hitRate = memory.allocations ? 100.0 * double(memory.poolHits) /
                                              double(memory.allocations)
                                        : 0.0;
    llvm::errs() << llvm::formatv(
        "amls-run memory: {0} allocations ({1} bytes), {2} from the pool "
        "({3:F1}%), peak {4} bytes live, limit {5} bytes\n",
        memory.allocations, memory.bytesAllocated, memory.poolHits, hitRate,
        memory.peakLiveBytes, runtime::memory::getLimit());
    // --formats=compressed: what the compressed matrices cost beyond their
    // kernels.
    runtime::compressed::Statistics compressed =
        runtime::compressed::getStatistics();
    if (compressed.compressions || compressed.decompressions)
      llvm::errs() << llvm::formatv(
          "amls-run compressed: {0} matri{1} compressed, {2} decompressed "
          "({3} bytes)\n",
          compressed.compressions, compressed.compressions == 1 ? "x" : "ces",
          compressed.decompressions, compressed.decompressedBytes);
  }
  if (execution)
    execution->printStatistics(llvm::errs(), options);
  // The largest buffers, for the computations they were for.
  if (reporting)
    for (const auto &buffer : memory.largest)
      if (buffer.bytes)
        llvm::errs() << llvm::formatv(
            "amls-run memory: {0} bytes ({1}x{2}x{3} elements of {4} bytes): "
            "{5}\n",
            buffer.bytes, buffer.sizes[0], buffer.sizes[1], buffer.sizes[2],
            buffer.elementBytes, buffer.what);
  return 0;
}
