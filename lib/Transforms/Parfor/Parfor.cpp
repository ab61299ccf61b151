//===- Parfor.cpp - parfor legality and parallel plan ---------------------===//
//
// --amls-parfor: every amls.parfor is checked by the dependency analysis
// (lib/Analysis/ParforDependences.cpp) and, when its iterations are
// independent, planned: how many workers, how the iterations are cut into
// tasks, and how many threads the data-parallel ops inside keep (seed 001's
// parfor optimizer, reduced to one machine: the workers and the inner ops
// share one pool of `threads` threads, so a plan never asks for more).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Analysis/ParforDependences.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Runtime/Parfor.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSPARFOR
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Below this many estimated cell operations for the whole loop, starting
/// workers costs more than it saves (tens of microseconds against ~1 ns per
/// cell).
constexpr double kMinParallelCells = 1e5;

/// "file:line:col" of an op, or "unknown".
std::string positionOf(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    op->getLoc().print(os);
  return text;
}

/// The cells the matrix results in `region` hold, a dimension of unknown
/// size counting as `unknownDim`; nested loops count once.
double bodyCells(Region &region, double unknownDim) {
  double cells = 0;
  region.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto matrix = dyn_cast<MatrixType>(type)) {
        auto size = [&](int64_t dim) {
          return ShapedType::isDynamic(dim) ? unknownDim
                                            : static_cast<double>(dim);
        };
        cells += size(matrix.getRows()) * size(matrix.getCols());
      }
  });
  return cells;
}

/// The cells of the shared matrices that each worker copies (merged
/// results), a dimension of unknown size counting as `unknownDim`.
double mergedCells(ParforOp parfor, double unknownDim) {
  std::optional<ArrayRef<int32_t>> merge = parfor.getResultMerge();
  if (!merge)
    return 0;
  double cells = 0;
  for (auto [mode, shared] : llvm::zip(*merge, parfor.getShared())) {
    if (mode == static_cast<int32_t>(ParforResultMerge::InPlace))
      continue;
    auto matrix = cast<MatrixType>(shared.getType());
    auto size = [&](int64_t dim) {
      return ShapedType::isDynamic(dim) ? unknownDim : static_cast<double>(dim);
    };
    cells += size(matrix.getRows()) * size(matrix.getCols());
  }
  return cells;
}

struct ParforPass : public mlir::amls::impl::AMLSParforBase<ParforPass> {
  using AMLSParforBase::AMLSParforBase;

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](ParforOp parfor) {
      if (!check(parfor))
        failed = true;
      else if (parfor.getIndependent())
        plan(parfor);
    });
    if (failed)
      signalPassFailure();
  }

  /// The name of shared matrix `i` in the source, or "#i".
  static std::string sharedName(ParforOp parfor, unsigned i) {
    if (std::optional<ArrayAttr> names = parfor.getSharedNames())
      if (i < names->size())
        if (auto name = dyn_cast<StringAttr>((*names)[i]))
          return name.str();
    return "#" + std::to_string(i);
  }

  /// Whether `matrix` is all zeros by construction (matrix(0, ...)).
  static bool isZeroFill(Value matrix) {
    while (auto cast = matrix.getDefiningOp<CastOp>())
      matrix = cast.getInput();
    auto fill = matrix.getDefiningOp<FillOp>();
    return fill && (matchPattern(fill.getValue(), m_AnyZeroFloat()) ||
                    matchPattern(fill.getValue(), m_Zero()));
  }

  bool check(ParforOp parfor) {
    std::vector<SharedMatrixDependence> results =
        analyzeParforDependences(parfor);
    SmallVector<int32_t> merge;
    bool independent = true;
    std::string summary;
    llvm::raw_string_ostream os(summary);
    for (auto [i, result] : llvm::enumerate(results)) {
      std::string name = sharedName(parfor, i);
      if (i)
        os << "; ";
      merge.push_back(static_cast<int32_t>(ParforResultMerge::InPlace));
      if (result.independent) {
        os << name;
        if (result.dimension >= 0)
          os << " by " << (result.dimension == 0 ? "rows" : "columns") << " ("
             << result.how << ")";
        else
          os << " (" << result.how << ")";
        continue;
      }
      independent = false;
      os << name << " dependent";
      if (parfor.getUnchecked()) {
        // SystemDS's result merge: the workers' writes may overlap or be
        // read by other iterations, so each worker updates its own copy.
        bool zero = isZeroFill(parfor.getShared()[i]);
        merge.back() = static_cast<int32_t>(
            zero ? ParforResultMerge::NonZeros : ParforResultMerge::Compare);
        os << ": a copy per worker, merged by "
           << (zero ? "its nonzero cells" : "the cells that changed");
        continue;
      }
      InFlightDiagnostic diag =
          (result.first ? result.first : parfor.getOperation())->emitError();
      diag << "parfor: iterations may depend on each other through '" << name
           << "': " << result.reason;
      if (result.second)
        diag << " (the other access: " << positionOf(result.second) << ")";
      diag << "; each iteration must write its own rows or columns, e.g. "
              "R[i, ] or R[, i] (check=0 turns the check off)";
      diag.attachNote(parfor.getLoc()) << "in this parfor";
    }
    if (!independent && !parfor.getUnchecked())
      return false;
    parfor.setIndependent(true);
    if (llvm::any_of(merge, [](int32_t mode) { return mode != 0; }))
      parfor.setResultMerge(merge);
    if (explain) {
      llvm::errs() << "amls-parfor: parfor at " << positionOf(parfor) << ": ";
      if (results.empty())
        llvm::errs() << "no shared matrices";
      llvm::errs() << summary
                   << (independent ? "" : " (check=0: run as independent)")
                   << "\n";
    }
    return true;
  }

  void plan(ParforOp parfor) {
    std::optional<int64_t> lower = getConstantIntValue(parfor.getLowerBound());
    std::optional<int64_t> upper = getConstantIntValue(parfor.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(parfor.getStep());
    std::optional<int64_t> iterations;
    if (lower && upper && step && *step > 0)
      iterations = std::max<int64_t>(0, (*upper - *lower + *step - 1) / *step);
    int64_t available = std::max<unsigned>(threads, 1);
    std::vector<std::string> why;

    int64_t workers = parfor.getWorkers().value_or(available);
    if (!parfor.getFixedPlan()) {
      if (workers > available) {
        why.push_back(llvm::formatv("par={0} capped at the {1} threads",
                                    workers, available));
        workers = available;
      }
      if (iterations && *iterations < workers)
        workers = std::max<int64_t>(*iterations, 1);
      // The whole loop's work against the cost of starting workers (a
      // dimension of unknown size taken as 1000).
      double cells = bodyCells(parfor.getBody(), 1000);
      if (iterations && workers > 1 &&
          cells * *iterations < kMinParallelCells) {
        why.push_back(llvm::formatv(
            "~{0} cell operations in all: too little for threads",
            static_cast<int64_t>(cells * *iterations)));
        workers = 1;
      }
      // Each worker's matrices at once must fit the budget, with its
      // copies of the results that are merged.
      double bytes = 8 * (bodyCells(parfor.getBody(), 0) +
                          mergedCells(parfor, 0));
      int64_t wanted = workers;
      while (memoryLimit > 0 && workers > 1 && bytes * workers > memoryLimit)
        --workers;
      if (workers < wanted)
        why.push_back(llvm::formatv(
            "{0} workers' matrices would exceed the memory budget", wanted));
    }
    ParforPartitioner partitioner =
        parfor.getPartitioner().value_or(ParforPartitioner::Factoring);
    int64_t taskSize = parfor.getTaskSize().value_or(1);
    // Seed 001's two shapes of a plan on one machine: k workers with
    // single-threaded ops inside (nested OpenMP regions run serialized,
    // BLAS on the calling thread), or one worker whose ops use all threads.
    int64_t innerThreads = workers > 1 ? 1 : available;
    Builder b(parfor.getContext());
    parfor.setWorkersAttr(b.getI64IntegerAttr(workers));
    parfor.setPartitionerAttr(
        ParforPartitionerAttr::get(parfor.getContext(), partitioner));
    parfor.setTaskSizeAttr(b.getI64IntegerAttr(taskSize));
    parfor.setInnerThreadsAttr(b.getI64IntegerAttr(innerThreads));
    if (!explain)
      return;
    llvm::errs() << "amls-parfor: plan: " << workers << " worker"
                 << (workers == 1 ? "" : "s") << " x " << innerThreads
                 << " inner thread" << (innerThreads == 1 ? "" : "s") << ", "
                 << stringifyParforPartitioner(partitioner);
    if (partitioner == ParforPartitioner::Fixed)
      llvm::errs() << " " << taskSize;
    if (iterations) {
      std::vector<int64_t> tasks = ::amls::runtime::partitionTasks(
          *iterations, static_cast<AmlsParforPartitioner>(partitioner),
          taskSize, workers);
      llvm::errs() << ", " << *iterations << " iterations in " << tasks.size()
                   << " task" << (tasks.size() == 1 ? "" : "s");
      if (!tasks.empty()) {
        llvm::errs() << " (";
        for (auto [i, size] : llvm::enumerate(tasks)) {
          if (i == 16) {
            llvm::errs() << ", ...";
            break;
          }
          llvm::errs() << (i ? ", " : "") << size;
        }
        llvm::errs() << ")";
      }
    } else {
      llvm::errs() << ", iterations known at run time";
    }
    for (const std::string &reason : why)
      llvm::errs() << "; " << reason;
    llvm::errs() << "\n";
  }
};

} // namespace
