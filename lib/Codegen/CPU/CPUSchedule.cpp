//===- CPUSchedule.cpp - How the lowering schedules work for the CPU ------===//

#include "AMLS/Codegen/CPU/CPUSchedule.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Reductions over fewer cells are not worth splitting (a parallel region
/// costs more than the loop).
constexpr int64_t kMinCellsToSplitReduction = 1 << 15;
/// Partial results per block or row: the f64 lanes of a 512-bit register.
constexpr int64_t kLanes = 8;
/// Block counts tried for full reductions, largest first: enough blocks for
/// the threads to balance, each a multiple of 8 lanes.
constexpr int64_t kBlockCounts[] = {64, 48, 32, 24, 16, 12, 8, 6, 4, 2};
/// Bytes of the row inputs one block of a row-template operator reads: the
/// block stays in the L2 cache while the body's ops read it several times.
constexpr int64_t kRowBlockBytes = 256 * 1024;
/// Chunks of blocks a row-template operator is split into, each computed by
/// one parallel iteration with its own partial results.
constexpr int64_t kRowChunks = 32;

class CPULoweringSchedule : public LoweringSchedule {
public:
  FullReductionSplit splitFullReduction(int64_t rows, int64_t cols,
                                        bool contiguous) const override {
    if (rows * cols < kMinCellsToSplitReduction)
      return {};
    // Column vectors (and inputs that are all of the same shape) are
    // regrouped into runs of 8 cells, so the innermost loop is over lanes.
    if (cols == 1 || contiguous)
      for (int64_t blocks : kBlockCounts)
        if ((rows * cols) % (blocks * kLanes) == 0)
          return {blocks, rows * cols / (blocks * kLanes), kLanes,
                  /*regrouped=*/true};
    for (int64_t blocks : kBlockCounts)
      if (rows % blocks == 0)
        return {blocks, rows / blocks, cols, /*regrouped=*/false};
    return {};
  }

  RowReductionSplit splitRowReduction(int64_t rows,
                                      int64_t cols) const override {
    // At least two groups of lanes per row, and whole groups only.
    if (rows * cols < kMinCellsToSplitReduction || cols < 2 * kLanes ||
        cols % kLanes != 0)
      return {};
    return {cols / kLanes, kLanes};
  }

  RowBlockSchedule scheduleRowBlocks(int64_t bytesPerRow) const override {
    int64_t blockRows = std::clamp<int64_t>(
        kRowBlockBytes / std::max<int64_t>(bytesPerRow, 1) / 8 * 8, 8, 1024);
    return {blockRows, kRowChunks};
  }
};

} // namespace

const LoweringSchedule &mlir::amls::getCPULoweringSchedule() {
  static const CPULoweringSchedule schedule;
  return schedule;
}
