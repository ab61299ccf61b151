//===- GPUSchedule.cpp - How the lowering schedules work for the GPU ------===//
//
// A GPU needs tens of thousands of threads in flight to hide its memory
// latency, and a warp's 32 threads reading consecutive addresses. A split
// reduction's first stage is a parallel loop over (blocks, lanes) whose
// threads each sum perBlock cells `lanes` apart: with 32 lanes a warp reads
// 32 consecutive cells per step. The partial results are merged on the
// device too, up to 128 per thread in each stage, until few enough are left
// for the host: what it reads migrates there (managed memory, by page
// faults) and back when the device writes it again.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/GPU/GPUSchedule.h"
#include "AMLS/Codegen/CPU/CPUSchedule.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Reductions over fewer cells run unsplit.
constexpr int64_t kMinCellsToSplitReduction = 1 << 15;
/// A warp: the partial results of a block, consecutive cells apart.
constexpr int64_t kLaneCounts[] = {32, 16, 8};
/// Blocks of a full reduction: at most this many, at least this many (or
/// the GPU idles).
constexpr int64_t kMaxBlocks = 2048;
constexpr int64_t kMinBlocks = 64;
/// Cells each thread sums at least, so that the merge stays small.
constexpr int64_t kMinCellsPerThread = 16;
/// Partial results merged on the host: at most this many (a page of f64).
constexpr int64_t kMaxPartialsOnHost = 512;
/// Partial results each thread of a merge stage merges: at most this many
/// (a stage is two launches, the initialization and the merge, and a
/// thread's loads overlap).
constexpr int64_t kMaxPartialsPerThread = 128;

/// The largest divisor of `count` in [low, high], or 0.
int64_t largestDivisor(int64_t count, int64_t low, int64_t high) {
  for (int64_t divisor = std::min(high, count); divisor >= low; --divisor)
    if (count % divisor == 0)
      return divisor;
  return 0;
}

/// The smallest divisor of `count` in [low, high], or 0.
int64_t smallestDivisor(int64_t count, int64_t low, int64_t high) {
  for (int64_t divisor = std::max<int64_t>(low, 1); divisor <= high; ++divisor)
    if (count % divisor == 0)
      return divisor;
  return 0;
}

class GPULoweringSchedule : public LoweringSchedule {
public:
  FullReductionSplit splitFullReduction(int64_t rows, int64_t cols,
                                        bool contiguous) const override {
    if (rows * cols < kMinCellsToSplitReduction)
      return {};
    if (cols == 1 || contiguous) {
      int64_t cells = rows * cols;
      for (int64_t lanes : kLaneCounts) {
        if (cells % lanes != 0)
          continue;
        int64_t runs = cells / lanes;
        if (int64_t blocks =
                largestDivisor(runs, kMinBlocks,
                               std::min(kMaxBlocks, runs / kMinCellsPerThread)))
          return {blocks, runs / blocks, lanes, /*regrouped=*/true};
      }
    }
    // Cells that no warp of lanes and block count divide (a prime
    // count): as many blocks of a warp as the cells allow, and the cells
    // after them (fewer than blocks x 32) reduced on their own.
    if (cols == 1 || contiguous) {
      int64_t cells = rows * cols, lanes = kLaneCounts[0];
      int64_t blocks = std::clamp(cells / (lanes * kMinCellsPerThread),
                                  kMinBlocks, kMaxBlocks);
      int64_t perBlock = cells / (blocks * lanes);
      return {blocks, perBlock, lanes, /*regrouped=*/true,
              cells - blocks * perBlock * lanes};
    }
    // The matrix's own columns as lanes: blocks of whole rows, and the
    // rows after them on their own where no block count divides the rows.
    int64_t maxBlocks = std::min(kMaxBlocks, rows / kMinCellsPerThread);
    if (int64_t blocks = largestDivisor(rows, 2, maxBlocks))
      return {blocks, rows / blocks, cols, /*regrouped=*/false};
    if (maxBlocks >= 2)
      return {maxBlocks, rows / maxBlocks, cols, /*regrouped=*/false,
              rows % maxBlocks};
    return {};
  }

  RowReductionSplit splitRowReduction(int64_t rows,
                                      int64_t cols) const override {
    if (rows * cols < kMinCellsToSplitReduction)
      return {};
    for (int64_t lanes : kLaneCounts)
      if (cols >= 2 * lanes && cols % lanes == 0)
        return {cols / lanes, lanes};
    return {};
  }

  int64_t splitMerge(int64_t count) const override {
    if (count <= kMaxPartialsOnHost)
      return 0;
    // A warp at least: fewer threads take as long and use less of it.
    return smallestDivisor(
        count,
        std::max<int64_t>(32, llvm::divideCeil(count, kMaxPartialsPerThread)),
        count / 2);
  }

  /// Row-template operators call BLAS and allocate per block, so they run
  /// on the host: the CPU's blocks.
  RowBlockSchedule scheduleRowBlocks(int64_t bytesPerRow) const override {
    return getCPULoweringSchedule().scheduleRowBlocks(bytesPerRow);
  }

  /// X %*% v and t(X) %*% (...) as two products, which go to cuBLAS: the
  /// CPU's kernel would pull X from the device on every iteration of a
  /// loop such as CG's.
  bool usesChainKernel() const override { return false; }
};

} // namespace

const LoweringSchedule &mlir::amls::getGPULoweringSchedule() {
  static const GPULoweringSchedule schedule;
  return schedule;
}
