//===- LoweringSchedule.h - What the lowering asks of a target --*- C++ -*-===//
//
// The AMLS-to-linalg lowering is target-neutral: it builds reductions and
// fused operators from a few shape decisions that depend on the machine
// (vector width, cache size, core count). A target answers them through this
// hook; the CPU's answers live in lib/Codegen/CPU. The default answers split
// nothing and run a row-template operator as one chunk.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_CONVERSION_AMLSTOLINALG_LOWERINGSCHEDULE_H
#define AMLS_CONVERSION_AMLSTOLINALG_LOWERINGSCHEDULE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::amls {

/// A full reduction over a static rows x cols space as `blocks` equal blocks
/// of rows reduced in parallel, each into `lanes` partial results, merged
/// afterwards. A block is viewed as perBlock x lanes cells: the matrix's own
/// rows and columns, or (`regrouped`) runs of `lanes` consecutive cells.
/// What the blocks leave at the end, `tail` cells (regrouped) or rows, and
/// the `head` cells before them (regrouped), are reduced on their own and
/// merged with them.
struct FullReductionSplit {
  int64_t blocks = 1, perBlock = 0, lanes = 0;
  bool regrouped = false;
  int64_t tail = 0;
  int64_t head = 0;

  explicit operator bool() const { return blocks > 1; }
};

/// A row reduction over a static rows x cols matrix with `lanes` partial
/// results per row: each row viewed as `groups` groups of `lanes` cells.
struct RowReductionSplit {
  int64_t groups = 0, lanes = 0;

  explicit operator bool() const { return groups > 0; }
};

/// How a row-template operator walks its row inputs: blocks of `blockRows`
/// rows (kept in cache while the body reads them several times), grouped
/// into at most `maxChunks` chunks computed in parallel. When a row input's
/// width is known only at run time, the rows of a block are computed there
/// the same way: `blockBytes` divided by the bytes of a row, rounded down to
/// a multiple of `rowMultiple`, within [minRows, maxRows] (a `blockBytes` of
/// 0 keeps `blockRows`).
struct RowBlockSchedule {
  int64_t blockRows = 1024;
  int64_t maxChunks = 1;
  int64_t blockBytes = 0;
  int64_t rowMultiple = 1, minRows = 1, maxRows = 1024;
};

class LoweringSchedule {
public:
  virtual ~LoweringSchedule() = default;

  /// How to split a full reduction over a static rows x cols input;
  /// `contiguous` when every input of the reduction has that shape (so
  /// any run of cells may be regrouped). No split by default.
  virtual FullReductionSplit splitFullReduction(int64_t rows, int64_t cols,
                                                bool contiguous) const {
    return {};
  }

  /// The boundary (bytes) the blocks of a regrouped full reduction should
  /// start on when the inputs are known to start `amls.line_offset` cells
  /// past one: the cells before it become the head. 0: no head.
  virtual int64_t alignBlocksTo() const { return 0; }

  /// How to split a row reduction over a static rows x cols input.
  virtual RowReductionSplit splitRowReduction(int64_t rows,
                                              int64_t cols) const {
    return {};
  }

  /// How many partial results of a full reduction, `count` of them, are
  /// merged in parallel first: a divisor `lanes` of `count`, each lane
  /// merging count / lanes partial results, before the merge of the lanes
  /// (asked again). 0: all at once, where the rest of the program runs.
  virtual int64_t splitMerge(int64_t count) const { return 0; }

  /// The blocks of a row-template operator whose row inputs take
  /// `bytesPerRow` bytes per row.
  virtual RowBlockSchedule scheduleRowBlocks(int64_t bytesPerRow) const {
    return {};
  }

  /// Whether an f64 `amls.mmchain` (t(X) %*% (w * (X %*% v))) calls the
  /// runtime's kernel, which reads X once on the CPU; otherwise it becomes
  /// two products and a cell-wise product, which the target's library
  /// (BLAS, cuBLAS) and loops run.
  virtual bool usesChainKernel() const { return true; }
};

/// The schedules --convert-amls-to-linalg's `schedule` option names: each
/// target registers its own under its name (lib/Pipelines/Targets), and
/// "generic" (the defaults above) is always there. `schedule` must outlive
/// the process's compilations.
void registerLoweringSchedule(llvm::StringRef name,
                              const LoweringSchedule &schedule);
/// The schedule registered as `name`, or null; the empty name is the
/// default target's (setDefaultLoweringSchedule), "generic" before one is
/// set.
const LoweringSchedule *lookupLoweringSchedule(llvm::StringRef name);
/// What the empty schedule name means: the target registry sets it to the
/// default target's, so that the conversion names no target.
void setDefaultLoweringSchedule(const LoweringSchedule &schedule);
/// "'cpu', 'gpu' or 'generic'": the registered names, for messages.
std::string listLoweringScheduleNames();

} // namespace mlir::amls

#endif // AMLS_CONVERSION_AMLSTOLINALG_LOWERINGSCHEDULE_H
