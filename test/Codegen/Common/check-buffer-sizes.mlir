// RUN: amls-opt %s -split-input-file -amls-check-buffer-sizes -cse | FileCheck %s

// Every buffer is announced and checked first: its sizes (1 for missing
// dimensions), the element bytes and its location.
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("a buffer at {{.*}}check-buffer-sizes.mlir:[[@LINE+17]]:8\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("a buffer at {{.*}}check-buffer-sizes.mlir:[[@LINE+17]]:8\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("a buffer at {{.*}}check-buffer-sizes.mlir:[[@LINE+17]]:8\00")
// CHECK-LABEL: func @dynamic
// CHECK-SAME: (%[[R:.*]]: index, %[[C:.*]]: index)
// CHECK-DAG: %[[R64:.*]] = arith.index_cast %[[R]] : index to i64
// CHECK-DAG: %[[C64:.*]] = arith.index_cast %[[C]] : index to i64
// CHECK-DAG: %[[EIGHT:.*]] = arith.constant 8 : i64
// CHECK: call @amls_rt_check_buffer_size(%[[R64]], %[[C64]], %{{.*}}, %[[EIGHT]], %{{.*}})
// CHECK-NEXT: memref.alloc(%[[R]], %[[C]]) : memref<?x?xf64>
// CHECK: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK: call @amls_rt_check_buffer_size(%[[FOUR]], %[[C64]], %{{.*}}, %[[FOUR]], %{{.*}})
// CHECK-NEXT: memref.alloc(%[[C]]) : memref<4x?xi32>
// CHECK: %[[SIXTEEN:.*]] = arith.constant 16 : i64
// CHECK: call @amls_rt_check_buffer_size(%[[SIXTEEN]], %{{.*}}, %{{.*}}, %[[EIGHT]], %{{.*}})
// CHECK-NEXT: memref.alloc() : memref<16xf64>
func.func @dynamic(%r: index, %c: index) -> (memref<?x?xf64>, memref<4x?xi32>, memref<16xf64>) {
  %a = memref.alloc(%r, %c) : memref<?x?xf64>
  %b = memref.alloc(%c) : memref<4x?xi32>
  %s = memref.alloc() : memref<16xf64>
  return %a, %b, %s : memref<?x?xf64>, memref<4x?xi32>, memref<16xf64>
}

// -----

// The op and result that --convert-amls-to-linalg names in locations, and
// a CSR array's role, describe the buffer.
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("a buffer of 'amls.matmul' (dense 10x? result) at prog.dml:3:5\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("the values of 'amls.read' (csr ?x? result) at prog.dml:1:5\00")
// CHECK-LABEL: func @named
func.func @named(%n: index) -> (memref<10x?xf64>, memref<?xf64>) {
  %a = memref.alloc(%n) : memref<10x?xf64> loc(#matmul)
  %v = memref.alloc(%n) : memref<?xf64> loc(#values)
  return %a, %v : memref<10x?xf64>, memref<?xf64>
}
#matmul = loc("'amls.matmul' (dense 10x? result)"("prog.dml":3:5))
#read = loc("'amls.read' (csr ?x? result)"("prog.dml":1:5))
#values = loc("the values"(#read))
