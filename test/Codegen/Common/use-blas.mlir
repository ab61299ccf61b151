// RUN: amls-opt %s -split-input-file -amls-use-blas | FileCheck %s --check-prefix=AUTO
// RUN: amls-opt %s -split-input-file -amls-use-blas=mode=never | FileCheck %s --check-prefix=NEVER
// RUN: amls-opt %s -split-input-file -amls-use-blas=mode=always | FileCheck %s --check-prefix=ALWAYS
// RUN: not amls-opt %s -split-input-file -amls-use-blas=mode=sometimes 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: amls-opt %s -split-input-file -amls-use-blas=library=cublas | FileCheck %s --check-prefix=CUBLAS
// RUN: amls-opt %s -split-input-file -amls-use-blas="library=cublas mode=never" | FileCheck %s --check-prefix=CUSPARSE
// RUN: not amls-opt %s -split-input-file -amls-use-blas=library=mkl 2>&1 | FileCheck %s --check-prefix=LIBRARY

// BAD: amls-use-blas: expected mode 'auto', 'always' or 'never', found 'sometimes'
// LIBRARY: amls-use-blas: expected library 'openblas' or 'cublas', found 'mkl'

// A large static product calls BLAS in auto mode.
// AUTO-LABEL: func @large
// AUTO: memref.cast %{{.*}} : memref<200x300xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// AUTO: call @amls_rt_gemm_f64
// AUTO-NOT: linalg.matmul
// NEVER-LABEL: func @large
// NEVER: linalg.matmul
// NEVER-NOT: call @amls_rt_gemm_f64
// With library=cublas (the GPU pipeline) the same product goes to cuBLAS
// through libamls_cuda_runtime, with the same views.
// CUBLAS-LABEL: func @large
// CUBLAS: call @amls_rt_gpu_gemm_f64(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
// CUBLAS-NOT: amls_rt_gemm_f64
func.func @large(%A: memref<200x300xf64>, %B: memref<300x100xf64>, %C: memref<200x100xf64>) {
  linalg.matmul ins(%A, %B : memref<200x300xf64>, memref<300x100xf64>) outs(%C : memref<200x100xf64>)
  return
}

// -----

// A small static product keeps the generated loops, unless forced.
// AUTO-LABEL: func @small
// AUTO: linalg.matmul
// AUTO-NOT: call @amls_rt_gemm_f64
// ALWAYS-LABEL: func @small
// ALWAYS: call @amls_rt_gemm_f64
func.func @small(%A: memref<4x3xf64>, %B: memref<3x2xf64>, %C: memref<4x2xf64>) {
  linalg.matmul ins(%A, %B : memref<4x3xf64>, memref<3x2xf64>) outs(%C : memref<4x2xf64>)
  return
}

// -----

// Unknown sizes: decided at run time from M*N*K.
// AUTO-LABEL: func @dynamic
// AUTO: arith.muli
// AUTO-NEXT: %[[FLOPS:.*]] = arith.muli
// AUTO: %[[LARGE:.*]] = arith.cmpi sge, %[[FLOPS]], %{{.*}} : index
// AUTO: scf.if %[[LARGE]] {
// AUTO: func.call @amls_rt_gemm_f64(
// AUTO: } else {
// AUTO: linalg.matmul
func.func @dynamic(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  linalg.matmul ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
  return
}

// -----

// A transposed operand is passed as a transposed (column-major) view.
// ALWAYS-LABEL: func @transposed
// ALWAYS: %[[T:.*]] = memref.transpose %{{.*}} (d0, d1) -> (d1, d0)
// ALWAYS: memref.cast %[[T]]
// ALWAYS: call @amls_rt_gemm_f64
func.func @transposed(%X: memref<100x10xf64>, %C: memref<10x10xf64>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%X, %X : memref<100x10xf64>, memref<100x10xf64>) outs(%C : memref<10x10xf64>)
  return
}

// -----

// f32 products call the single-precision entry point.
// ALWAYS-LABEL: func @f32
// ALWAYS: memref.cast %{{.*}} : memref<4x3xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// ALWAYS: call @amls_rt_gemm_f32
func.func @f32(%A: memref<4x3xf32>, %B: memref<3x2xf32>, %C: memref<4x2xf32>) {
  linalg.matmul ins(%A, %B : memref<4x3xf32>, memref<3x2xf32>) outs(%C : memref<4x2xf32>)
  return
}

// -----

// Integer products and products on tensors (before bufferization) are left
// alone.
// ALWAYS-LABEL: func @integer
// ALWAYS: linalg.matmul
// ALWAYS-NOT: call @amls_rt_gemm
func.func @integer(%A: memref<4x3xi64>, %B: memref<3x2xi64>, %C: memref<4x2xi64>) {
  linalg.matmul ins(%A, %B : memref<4x3xi64>, memref<3x2xi64>) outs(%C : memref<4x2xi64>)
  return
}

// -----

// ALWAYS-LABEL: func @tensors
// ALWAYS: linalg.matmul
// ALWAYS-NOT: call @amls_rt_gemm
func.func @tensors(%A: tensor<4x3xf64>, %B: tensor<3x2xf64>, %C: tensor<4x2xf64>) -> tensor<4x2xf64> {
  %0 = linalg.matmul ins(%A, %B : tensor<4x3xf64>, tensor<3x2xf64>) outs(%C : tensor<4x2xf64>) -> tensor<4x2xf64>
  return %0 : tensor<4x2xf64>
}

// -----

// With library=cublas the products of a CSR and a dense matrix and the
// conversion to dense call their cuSPARSE versions with the same
// arguments, whatever the mode, and the
// CPU kernels' declarations go; other runtime calls stay. With the CPU's
// BLAS they are left alone.
// CUBLAS-LABEL: func @csr_products
// CUBLAS: call @amls_rt_gpu_csr_spmm(%[[P:.*]], %[[I:.*]], %[[V:.*]], %[[N:.*]], %[[B:.*]], %[[C:.*]]) :
// CUBLAS-NEXT: call @amls_rt_gpu_csr_spmm_t(%[[P]], %[[I]], %[[V]], %[[N]], %[[B]], %[[C]]) :
// CUBLAS-NEXT: call @amls_rt_gpu_dense_csr_mm(%[[B]], %[[P]], %[[I]], %[[V]], %[[N]], %[[C]]) :
// CUBLAS-NEXT: call @amls_rt_gpu_csr_to_dense(%[[P]], %[[I]], %[[V]], %[[N]], %[[C]]) :
// CUBLAS-NEXT: %[[NNZ:.*]] = call @amls_rt_gpu_csr_count_dense(%[[C]], %[[P]]) :
// CUBLAS-NEXT: call @amls_rt_gpu_csr_from_dense(%[[C]], %[[P]], %[[I]], %[[V]]) :
// CUBLAS-NEXT: call @amls_rt_csr_tsmm(
// CUBLAS: return %[[NNZ]]
// CUBLAS-NOT: @amls_rt_csr_spmm
// CUBLAS-NOT: @amls_rt_dense_csr_mm
// CUBLAS-NOT: @amls_rt_csr_to_dense
// CUBLAS-NOT: @amls_rt_csr_count_dense
// CUBLAS-NOT: @amls_rt_csr_from_dense
// CUSPARSE-LABEL: func @csr_products
// CUSPARSE: call @amls_rt_gpu_csr_spmm(
// CUSPARSE-NEXT: call @amls_rt_gpu_csr_spmm_t(
// CUSPARSE-NEXT: call @amls_rt_gpu_dense_csr_mm(
// NEVER-LABEL: func @csr_products
// NEVER: call @amls_rt_csr_spmm(
// NEVER-NOT: amls_rt_gpu
func.func private @amls_rt_csr_spmm(memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func private @amls_rt_csr_spmm_t(memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func private @amls_rt_dense_csr_mm(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func private @amls_rt_csr_to_dense(memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func private @amls_rt_csr_count_dense(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xi64, strided<[?], offset: ?>>) -> i64 attributes {llvm.emit_c_interface}
func.func private @amls_rt_csr_from_dense(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func private @amls_rt_csr_tsmm(memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func @csr_products(%p: memref<?xi64, strided<[?], offset: ?>>, %i: memref<?xi32, strided<[?], offset: ?>>, %v: memref<?xf64, strided<[?], offset: ?>>, %n: i64, %b: memref<?x?xf64, strided<[?, ?], offset: ?>>, %c: memref<?x?xf64, strided<[?, ?], offset: ?>>) -> i64 {
  call @amls_rt_csr_spmm(%p, %i, %v, %n, %b, %c) : (memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  call @amls_rt_csr_spmm_t(%p, %i, %v, %n, %b, %c) : (memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  call @amls_rt_dense_csr_mm(%b, %p, %i, %v, %n, %c) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  call @amls_rt_csr_to_dense(%p, %i, %v, %n, %c) : (memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  %nnz = call @amls_rt_csr_count_dense(%c, %p) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xi64, strided<[?], offset: ?>>) -> i64
  call @amls_rt_csr_from_dense(%c, %p, %i, %v) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
  call @amls_rt_csr_tsmm(%p, %i, %v, %n, %c) : (memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  return %nnz : i64
}
