//===- CPUSchedule.cpp - How the lowering schedules work for the CPU ------===//

#include "AMLS/Codegen/CPU/CPUSchedule.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Reductions over fewer cells are not worth splitting (a parallel region
/// costs more than the loop). Above, an unsplit compensated sum is one
/// dependent chain: an L2SVM line search over 20000 rows took 0.244 ms per
/// iteration with the threshold at 2^15 cells, 0.011 ms split.
constexpr int64_t kMinCellsToSplitReduction = 1 << 13;
/// Partial results per block of a full reduction or per row, most first:
/// up to eight registers of 8 f64 lanes whose updates are independent. A
/// compensated sum's step is a chain of four dependent additions (through
/// memory: the partials are stored each row); with a single register of
/// lanes the loop waited on that chain (2-4x slower than a plain sum), with
/// four or eight it waits on memory again.
constexpr int64_t kLaneCounts[] = {64, 32, 16, 8};
/// Block counts tried for full reductions, largest first: enough blocks for
/// the threads to balance.
constexpr int64_t kBlockCounts[] = {64, 48, 32, 24, 16, 12, 8, 6, 4, 2};
/// Blocks a full reduction wants at least before it takes fewer lanes.
constexpr int64_t kMinBlocks = 8;
/// Lanes of a full reduction whose cells no block and lane counts divide:
/// the blocks cover all but fewer than kMinBlocks * kTailLanes cells, which
/// are reduced after them (one chain, a few microseconds). Without it, an
/// L2SVM step over 3999999 rows was one sequential compensated sum, 10x
/// slower than over 4000000 (26.5 against 2.6 ms).
constexpr int64_t kTailLanes = 32;
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
    // regrouped into runs of cells, so the innermost loop is over lanes:
    // the most lanes that leave enough blocks for the threads, else the
    // most lanes with fewer blocks.
    if (cols == 1 || contiguous) {
      int64_t cells = rows * cols;
      for (int64_t minBlocks : {kMinBlocks, int64_t(1)})
        for (int64_t lanes : kLaneCounts)
          for (int64_t blocks : kBlockCounts)
            if (blocks >= minBlocks && cells % (blocks * lanes) == 0)
              return {blocks, cells / (blocks * lanes), lanes,
                      /*regrouped=*/true};
      int64_t perBlock = cells / (kMinBlocks * kTailLanes);
      return {kMinBlocks, perBlock, kTailLanes, /*regrouped=*/true,
              cells - kMinBlocks * perBlock * kTailLanes};
    }
    for (int64_t blocks : kBlockCounts)
      if (rows % blocks == 0)
        return {blocks, rows / blocks, cols, /*regrouped=*/false};
    // The last rows % kMinBlocks rows after the blocks.
    if (rows >= kMinBlocks)
      return {kMinBlocks, rows / kMinBlocks, cols, /*regrouped=*/false,
              rows % kMinBlocks};
    return {};
  }

  /// A cache line: vector loads that start on one stay within it (NumPy's
  /// large arrays start 16 bytes past one, which split every AVX-512 load
  /// of a reduction over them in two).
  int64_t alignBlocksTo() const override { return 64; }

  RowReductionSplit splitRowReduction(int64_t rows,
                                      int64_t cols) const override {
    // At least two groups of lanes per row, and whole groups only: the
    // most lanes that divide the row.
    if (rows * cols < kMinCellsToSplitReduction)
      return {};
    for (int64_t lanes : kLaneCounts)
      if (cols >= 2 * lanes && cols % lanes == 0)
        return {cols / lanes, lanes};
    return {};
  }

  RowBlockSchedule scheduleRowBlocks(int64_t bytesPerRow) const override {
    RowBlockSchedule schedule;
    schedule.blockBytes = kRowBlockBytes;
    schedule.rowMultiple = 8;
    schedule.minRows = 8;
    schedule.maxRows = 1024;
    schedule.blockRows = std::clamp<int64_t>(
        kRowBlockBytes / std::max<int64_t>(bytesPerRow, 1) / 8 * 8,
        schedule.minRows, schedule.maxRows);
    schedule.maxChunks = kRowChunks;
    return schedule;
  }
};

} // namespace

const LoweringSchedule &mlir::amls::getCPULoweringSchedule() {
  static const CPULoweringSchedule schedule;
  return schedule;
}
