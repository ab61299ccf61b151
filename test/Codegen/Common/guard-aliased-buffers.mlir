// RUN: amls-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(amls-guard-aliased-buffers))" | FileCheck %s

// A runtime call reads the buffer after the tensor is made (the
// canonicalizer folded its to_buffer): the tensor is no longer writable,
// so an insert_slice into it cannot overwrite what the call reads.
// CHECK-LABEL: func.func @read_after
// CHECK: bufferization.to_tensor %{{.*}} restrict :
// CHECK-NOT: writable
func.func private @fill(memref<?x?xf64, strided<[?, ?], offset: ?>>)
func.func private @consume(memref<?x?xf64, strided<[?, ?], offset: ?>>)
func.func @read_after(%n: index, %v: tensor<1x1xf64>) -> tensor<?x?xf64> {
  %m = memref.alloc(%n, %n) : memref<?x?xf64>
  %c = memref.cast %m : memref<?x?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  call @fill(%c) : (memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  %t = bufferization.to_tensor %m restrict writable : memref<?x?xf64> to tensor<?x?xf64>
  %u = tensor.insert_slice %v into %t[0, 0] [1, 1] [1, 1] : tensor<1x1xf64> into tensor<?x?xf64>
  %c2 = memref.cast %m : memref<?x?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  call @consume(%c2) : (memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  return %u : tensor<?x?xf64>
}

// -----

// Only the call that filled the buffer, before the tensor, uses it: the
// tensor stays writable and the update may happen in place.
// CHECK-LABEL: func.func @filled_before
// CHECK: bufferization.to_tensor %{{.*}} restrict writable
func.func private @fill(memref<?x?xf64, strided<[?, ?], offset: ?>>)
func.func @filled_before(%n: index, %v: tensor<1x1xf64>) -> tensor<?x?xf64> {
  %m = memref.alloc(%n, %n) : memref<?x?xf64>
  %c = memref.cast %m : memref<?x?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  call @fill(%c) : (memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  %t = bufferization.to_tensor %m restrict writable : memref<?x?xf64> to tensor<?x?xf64>
  %u = tensor.insert_slice %v into %t[0, 0] [1, 1] [1, 1] : tensor<1x1xf64> into tensor<?x?xf64>
  return %u : tensor<?x?xf64>
}

// -----

// A use in a loop body that follows the tensor counts too, and so does a
// use through a subview.
// CHECK-LABEL: func.func @later_in_loop
// CHECK: bufferization.to_tensor %{{.*}} restrict :
func.func private @consume(memref<?x?xf64, strided<[?, ?], offset: ?>>)
func.func @later_in_loop(%n: index) -> tensor<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc(%n, %n) : memref<?x?xf64>
  %t = bufferization.to_tensor %m restrict writable : memref<?x?xf64> to tensor<?x?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %s = memref.subview %m[0, 0] [%n, %n] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1]>>
    %c = memref.cast %s : memref<?x?xf64, strided<[?, 1]>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
    func.call @consume(%c) : (memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  }
  return %t : tensor<?x?xf64>
}
