// RUN: amls-opt %s -amls-lower-to-nvvm="chip=sm_80 format=isa" | FileCheck %s
// RUN: amls-opt %s -amls-lower-to-nvvm="chip=sm_90 format=isa threads=1" | FileCheck %s --check-prefix=SM90
// RUN: %if ptxas %{ amls-opt %s -amls-lower-to-nvvm="chip=sm_80 format=isa" | FileCheck %s --check-prefix=LIBDEVICE %}
// RUN: not amls-opt %s -amls-lower-to-nvvm="chip=sm_7" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not amls-opt %s -amls-lower-to-nvvm="format=elf" 2>&1 | FileCheck %s --check-prefix=FORMAT

// The GPU pipeline: the element-wise loop becomes a kernel, serialized as
// PTX into a gpu.binary, launched from the host function, whose buffers
// still come from the runtime's pool (managed memory under --target=gpu).
// CHECK-LABEL: llvm.func @scale
// CHECK: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: gpu.launch_func @scale_kernel::@scale_kernel
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
// CHECK-NOT: scf.
// CHECK: gpu.binary @scale_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">
// CHECK-SAME: .target sm_80
// Where the CUDA toolkit is (its libdevice), exp is linked into the
// kernel: no call is left unresolved.
// LIBDEVICE: gpu.binary @scale_kernel
// LIBDEVICE-SAME: fma.rn.f64
// LIBDEVICE-NOT: __nv_exp
// SM90: gpu.binary @scale_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">
// SM90-SAME: .target sm_90
// CHIP: amls-lower-to-nvvm: expected a GPU chip sm_NN (sm_52 or newer, e.g. sm_80, sm_90), found 'sm_7'
// FORMAT: amls-lower-to-nvvm: expected GPU format 'isa', 'bin' or 'fatbin', found 'elf'
func.func @scale(%X: !amls.matrix<?x?xf64>, %s: f64) -> !amls.matrix<?x?xf64> {
  %0 = amls.mul %X, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %1 = amls.exp %0 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %1 : !amls.matrix<?x?xf64>
}
