//===- GPUSchedule.h - The lowering schedule of the GPU ---------*- C++ -*-===//
//
// The GPU's answers to the lowering's LoweringSchedule: reductions split
// into thousands of independent partial results, each a thread's, with
// warp-wide runs of consecutive cells so that a warp's loads coalesce.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_CODEGEN_GPU_GPUSCHEDULE_H
#define AMLS_CODEGEN_GPU_GPUSCHEDULE_H

#include "AMLS/Conversion/AMLSToLinalg/LoweringSchedule.h"

namespace mlir::amls {

/// The schedule --convert-amls-to-linalg{schedule=gpu} uses.
const LoweringSchedule &getGPULoweringSchedule();

} // namespace mlir::amls

#endif // AMLS_CODEGEN_GPU_GPUSCHEDULE_H
