// The address and byte count --amls-prefetch-gpu-buffers computes for a
// strided view, executed (lowered by upstream passes, run by mlir-runner)
// with stand-ins for the runtime's functions that record what they get:
// @work receives rows 10-309 and columns 20-219 of a 1000x1000 f64 matrix
// and hands them to a device call (the stand-in of cuBLAS's gemm), so
// before it they move to the device: from element 10 * 1000 + 20 = 10020
// (80160 bytes past the matrix's start), 1 + 299 * 1000 + 199 * 1 =
// 299200 elements (2393600 bytes), to the device (1).
// RUN: amls-opt %s -amls-prefetch-gpu-buffers | mlir-opt --pass-pipeline="builtin.module(expand-strided-metadata,finalize-memref-to-llvm,convert-func-to-llvm,convert-arith-to-llvm,convert-vector-to-llvm,reconcile-unrealized-casts)" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s
// CHECK: 80160
// CHECK-NEXT: 2393600
// CHECK-NEXT: 1
// CHECK-NEXT: 1

memref.global "private" @recorded : memref<4xi64> = dense<0>

func.func @amls_rt_gpu_prefetch(%address: i64, %bytes: i64, %toDevice: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %record = memref.get_global @recorded : memref<4xi64>
  memref.store %address, %record[%c0] : memref<4xi64>
  memref.store %bytes, %record[%c1] : memref<4xi64>
  %direction = arith.extui %toDevice : i32 to i64
  memref.store %direction, %record[%c2] : memref<4xi64>
  %calls = memref.load %record[%c3] : memref<4xi64>
  %one = arith.constant 1 : i64
  %more = arith.addi %calls, %one : i64
  memref.store %more, %record[%c3] : memref<4xi64>
  return
}

func.func @amls_rt_gpu_gemm_f64(%a: memref<?x?xf64, strided<[?, ?], offset: ?>>, %b: memref<?x?xf64, strided<[?, ?], offset: ?>>, %c: memref<?x?xf64, strided<[?, ?], offset: ?>>) {
  return
}

func.func @work(%view: memref<?x?xf64, strided<[?, ?], offset: ?>>) {
  call @amls_rt_gpu_gemm_f64(%view, %view, %view) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %matrix = memref.alloc() : memref<1000x1000xf64>
  %part = memref.subview %matrix[10, 20] [300, 200] [1, 1] : memref<1000x1000xf64> to memref<300x200xf64, strided<[1000, 1], offset: 10020>>
  %view = memref.cast %part : memref<300x200xf64, strided<[1000, 1], offset: 10020>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  call @work(%view) : (memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  %record = memref.get_global @recorded : memref<4xi64>
  %address = memref.load %record[%c0] : memref<4xi64>
  %bytes = memref.load %record[%c1] : memref<4xi64>
  %direction = memref.load %record[%c2] : memref<4xi64>
  %calls = memref.load %record[%c3] : memref<4xi64>
  %base = memref.extract_aligned_pointer_as_index %matrix : memref<1000x1000xf64> -> index
  %start = arith.index_cast %base : index to i64
  %past = arith.subi %address, %start : i64
  vector.print %past : i64
  vector.print %bytes : i64
  vector.print %direction : i64
  vector.print %calls : i64
  memref.dealloc %matrix : memref<1000x1000xf64>
  return
}
