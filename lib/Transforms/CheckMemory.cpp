//===- CheckMemory.cpp - Values beyond the memory budget ------------------===//
//
// --amls-check-memory: a matrix whose known size does not fit the budget is
// reported where it is computed (the DML line), before anything runs; the
// runtime's pool (Memory.h) stops the rest at allocation time.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSCHECKMEMORY
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Bytes `type` takes at least, or nullopt when its size is unknown (in
/// double: no overflow, exact up to 2^53). A dense matrix's are exact; of a
/// CSR matrix only the row pointers are certain (the non-zeros are an
/// estimate, often a worst case, and a kernel may keep an operand's
/// pattern or never build the matrix: rowMaxs(G * t(c))). A compressed
/// matrix's size is the plan's, made at run time from the data.
std::optional<double> storedBytes(MatrixType type) {
  if (!type.hasStaticShape() || isCompressedMatrix(type))
    return std::nullopt;
  double rows = type.getRows(), cols = type.getCols();
  if (isCSRMatrix(type))
    return 8.0 * (rows + 1);
  double elementBytes =
      std::max<unsigned>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
  return rows * cols * elementBytes;
}

struct CheckMemoryPass
    : public amls::impl::AMLSCheckMemoryBase<CheckMemoryPass> {
  using AMLSCheckMemoryBase::AMLSCheckMemoryBase;

  void runOnOperation() override {
    if (limit == 0)
      return;
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      if (op->getParentOfType<scf::IfOp>())
        return;
      for (Value result : op->getResults()) {
        auto type = dyn_cast<MatrixType>(result.getType());
        if (!type)
          continue;
        std::optional<double> bytes = storedBytes(type);
        if (!bytes || *bytes <= static_cast<double>(limit))
          continue;
        // At the op's location only: the op itself means little to a DML
        // user.
        mlir::emitError(op->getLoc())
            << "the " << type.getRows() << "x" << type.getCols()
            << (isCSRMatrix(type) ? " CSR" : " dense") << " result of "
            << op->getName() << " needs "
            << llvm::formatv("{0:F0}", *bytes).str()
            << " bytes, more than the memory limit of "
            << static_cast<uint64_t>(limit)
            << " bytes (amls-run --memory-limit)";
        failed = true;
      }
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
