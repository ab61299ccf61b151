//===- CheckBufferSizes.cpp - Run-time checks of buffer sizes -------------===//
//
// --amls-check-buffer-sizes: every buffer is announced to the runtime
// before it is allocated, with the location of the computation it is for,
// so that a negative or overflowing size (from the data) or one beyond the
// memory budget is an error naming the DML line instead of a wrapped
// allocation or an anonymous "out of memory", and the statistics can name
// the largest buffers.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSCHECKBUFFERSIZES
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

struct CheckBufferSizesPass
    : public amls::impl::AMLSCheckBufferSizesBase<CheckBufferSizesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation()->walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (type.getRank() <= 3 && type.getElementType().isIntOrFloat())
        allocs.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocs) {
      MemRefType type = alloc.getType();
      OpBuilder builder(alloc);
      Location loc = alloc.getLoc();
      SmallVector<Value> args;
      unsigned dynamic = 0;
      for (int64_t d = 0; d < 3; ++d) {
        int64_t size = d < type.getRank() ? type.getDimSize(d) : 1;
        args.push_back(
            ShapedType::isDynamic(size)
                ? arith::IndexCastOp::create(builder, loc, builder.getI64Type(),
                                             alloc.getDynamicSizes()[dynamic++])
                      .getResult()
                : arith::ConstantIntOp::create(builder, loc, size, 64)
                      .getResult());
      }
      unsigned bits = type.getElementType().getIntOrFloatBitWidth();
      args.push_back(arith::ConstantIntOp::create(builder, loc,
                                                  std::max(1u, bits / 8), 64));
      args.push_back(
          createStringPointer(builder, loc, alloc, describeBuffer(loc)));
      createRuntimeCall(builder, loc, alloc, RuntimeFunction::CheckBufferSize,
                        args);
    }
  }
};

} // namespace
