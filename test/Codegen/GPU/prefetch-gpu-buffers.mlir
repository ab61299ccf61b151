// RUN: amls-opt %s -split-input-file -amls-prefetch-gpu-buffers | FileCheck %s

// The host writes A (a loop over its rows), a kernel reads it and writes
// B, the host sums B's first column (a nest whose outer loop sweeps the
// rows): A moves to the device before the kernel, B (fresh before the
// kernel: no move) to the host before the sum.
// The 16x16 buffer C (2 KiB) stays on the host: no migration for it. Single
// cells read or written on the host move nothing (the driver's fault moves
// their page): B's cell read after the sum, D's cell written before a
// kernel.
// CHECK-LABEL: func @straight_line
// CHECK: memref.store %{{.*}}, %[[A:.*]][
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[POINTER:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: call @amls_rt_gpu_prefetch(%{{.*}}, %{{.*}}, %c1_i32{{[_0-9]*}})
// CHECK-NEXT: gpu.launch
// CHECK: gpu.terminator
// CHECK: memref.extract_strided_metadata %[[B:[^ ]*]]
// CHECK: call @amls_rt_gpu_prefetch(%{{.*}}, %{{.*}}, %c0_i32{{[_0-9]*}})
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.load %[[B]]
// CHECK-NOT: amls_rt_gpu_prefetch
// CHECK: return
func.func @straight_line(%v: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c1000 = arith.constant 1000 : index
  %zero = arith.constant 0.0 : f64
  %a = memref.alloc() : memref<1000x100xf64>
  %b = memref.alloc() : memref<1000x100xf64>
  %c = memref.alloc() : memref<16x16xf64>
  %d = memref.alloc() : memref<1000x100xf64>
  scf.for %i = %c0 to %c1000 step %c1 {
    memref.store %v, %a[%i, %c0] : memref<1000x100xf64>
  }
  memref.store %v, %c[%c0, %c0] : memref<16x16xf64>
  memref.store %v, %d[%c0, %c0] : memref<1000x100xf64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c100, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c100, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%bx, %tx] : memref<1000x100xf64>
    %y = memref.load %c[%c0, %c0] : memref<16x16xf64>
    %w = memref.load %d[%bx, %tx] : memref<1000x100xf64>
    %z = arith.addf %x, %y : f64
    %u = arith.addf %z, %w : f64
    memref.store %u, %b[%bx, %tx] : memref<1000x100xf64>
    gpu.terminator
  }
  %r = scf.for %i = %c0 to %c1000 step %c1 iter_args(%sum = %zero) -> (f64) {
    %row = scf.for %j = %c0 to %c1 step %c1 iter_args(%part = %sum) -> (f64) {
      %e = memref.load %b[%i, %c0] : memref<1000x100xf64>
      %n = arith.addf %part, %e : f64
      scf.yield %n : f64
    }
    scf.yield %row : f64
  }
  %one = memref.load %b[%c1, %c1] : memref<1000x100xf64>
  %s = memref.load %c[%c0, %c0] : memref<16x16xf64>
  %t = arith.addf %r, %s : f64
  %q = arith.addf %t, %one : f64
  memref.dealloc %a : memref<1000x100xf64>
  memref.dealloc %b : memref<1000x100xf64>
  memref.dealloc %c : memref<16x16xf64>
  memref.dealloc %d : memref<1000x100xf64>
  return %q : f64
}

// -----

// CG's pattern: X (an input, its size unknown) is read by a kernel and by
// cuBLAS in every iteration and by nothing on the host: it moves once,
// before the loop. r, written by the kernel in the loop and read by the
// host after it, moves to the host once, after the loop; q and r are
// fresh before the loop and do not move there.
// CHECK-LABEL: func @loop
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf64>
// CHECK-NOT: amls_rt_gpu_prefetch
// CHECK: memref.extract_strided_metadata %[[X]]
// CHECK: call @amls_rt_gpu_prefetch(%{{.*}}, %{{.*}}, %c1_i32{{[_0-9]*}})
// CHECK-NEXT: scf.for
// CHECK-NOT: amls_rt_gpu_prefetch
// CHECK: call @amls_rt_gpu_gemm_f64
// CHECK: }
// CHECK: call @amls_rt_gpu_prefetch(%{{.*}}, %{{.*}}, %c0_i32{{[_0-9]*}})
// CHECK-NEXT: scf.for
func.func private @amls_rt_gpu_gemm_f64(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func @loop(%x: memref<?x?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %r = memref.alloc(%n) : memref<?x1xf64>
  %q = memref.alloc(%n) : memref<?x1xf64>
  scf.for %i = %c0 to %c10 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%bx, %c0] : memref<?x?xf64>
      memref.store %v, %r[%bx, %c0] : memref<?x1xf64>
      gpu.terminator
    }
    %xv = memref.cast %x : memref<?x?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
    %rv = memref.cast %r : memref<?x1xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
    %qv = memref.cast %q : memref<?x1xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
    func.call @amls_rt_gpu_gemm_f64(%xv, %rv, %qv) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  }
  %zero = arith.constant 0.0 : f64
  %s = scf.for %j = %c0 to %n step %c1 iter_args(%sum = %zero) -> (f64) {
    %e = memref.load %r[%j, %c0] : memref<?x1xf64>
    %t = arith.addf %sum, %e : f64
    scf.yield %t : f64
  }
  memref.dealloc %r : memref<?x1xf64>
  memref.dealloc %q : memref<?x1xf64>
  return %s : f64
}

// -----

// A buffer the kernel writes on one branch and the host on the other may
// be on the device after the branch: the host's read moves it. Returning a
// buffer a kernel wrote moves it to the host (the program's output). The
// host wrote the argument V: the kernel that reads it moves it.
// CHECK-LABEL: func @branches_and_results
// CHECK: scf.if
// CHECK-NOT: amls_rt_gpu_prefetch
// CHECK: gpu.launch
// CHECK: } else {
// CHECK-NOT: amls_rt_gpu_prefetch
// CHECK: memref.store
// CHECK: }
// CHECK: call @amls_rt_gpu_prefetch(%{{.*}}, %{{.*}}, %c0_i32{{[_0-9]*}})
// CHECK-NEXT: scf.for
// CHECK: memref.store %{{.*}}, %[[V:.*]][
// CHECK: memref.extract_strided_metadata %[[V]]
// CHECK: call @amls_rt_gpu_prefetch(%{{.*}}, %{{.*}}, %c1_i32{{[_0-9]*}})
// CHECK-NEXT: gpu.launch
// CHECK: call @amls_rt_gpu_prefetch(%{{.*}}, %{{.*}}, %c0_i32{{[_0-9]*}})
// CHECK-NEXT: return
func.func @branches_and_results(%flag: i1, %v: f64, %w: memref<?xf64>) -> (f64, memref<1000x100xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %a = memref.alloc() : memref<1000x100xf64>
  scf.if %flag {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c100, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c100, %sy = %c1, %sz = %c1) {
      memref.store %v, %a[%bx, %tx] : memref<1000x100xf64>
      gpu.terminator
    }
  } else {
    memref.store %v, %a[%c0, %c0] : memref<1000x100xf64>
  }
  %zero = arith.constant 0.0 : f64
  %r = scf.for %j = %c0 to %c100 step %c1 iter_args(%sum = %zero) -> (f64) {
    %e = memref.load %a[%j, %c0] : memref<1000x100xf64>
    %t = arith.addf %sum, %e : f64
    scf.yield %t : f64
  }
  %b = memref.alloc() : memref<1000x100xf64>
  scf.for %j = %c0 to %c100 step %c1 {
    memref.store %v, %w[%j] : memref<?xf64>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c100, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c100, %sy = %c1, %sz = %c1) {
    %u = memref.load %w[%tx] : memref<?xf64>
    memref.store %u, %b[%bx, %tx] : memref<1000x100xf64>
    gpu.terminator
  }
  memref.dealloc %a : memref<1000x100xf64>
  return %r, %b : f64, memref<1000x100xf64>
}

// -----

// cuSPARSE's calls: the row pointers are read on the host (the runtime
// narrows them for each call), the column indices, values and dense
// operands on the device. All of them come from the host here: only the
// device's operands move, once, before the loop.
// CHECK-LABEL: func @csr_product
// CHECK-SAME: (%[[P:[^:]*]]: memref<?xi64{{.*}}>, %[[I:[^:]*]]: memref<?xi32{{.*}}>, %[[V:[^:]*]]: memref<?xf64{{.*}}>, %{{.*}}: i64, %[[B:[^:]*]]: memref<
// CHECK-NOT: extract_strided_metadata %[[P]]
// CHECK-DAG: memref.extract_strided_metadata %[[I]]
// CHECK-DAG: memref.extract_strided_metadata %[[V]]
// CHECK-DAG: memref.extract_strided_metadata %[[B]]
// CHECK-NOT: extract_strided_metadata %[[P]]
// CHECK: scf.for
// CHECK-NOT: amls_rt_gpu_prefetch
// CHECK: call @amls_rt_gpu_csr_spmm
func.func private @amls_rt_gpu_csr_spmm(memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func @csr_product(%p: memref<?xi64, strided<[?], offset: ?>>, %i: memref<?xi32, strided<[?], offset: ?>>, %v: memref<?xf64, strided<[?], offset: ?>>, %n: i64, %b: memref<?x?xf64, strided<[?, ?], offset: ?>>, %c: memref<?x?xf64, strided<[?, ?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  scf.for %k = %c0 to %c10 step %c1 {
    func.call @amls_rt_gpu_csr_spmm(%p, %i, %v, %n, %b, %c) : (memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  }
  return
}

// -----

// Element types and layouts: index elements migrate as 8 bytes each; a
// buffer of another element type, or with a layout that is not strided,
// is left to the driver's faults.
// CHECK-LABEL: func @element_types_and_layouts
// CHECK-SAME: (%[[I:[^:]*]]: memref<?xindex>
// CHECK: memref.extract_strided_metadata %[[I]]
// CHECK: %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK: call @amls_rt_gpu_prefetch
// CHECK-NEXT: gpu.launch
// CHECK-NOT: amls_rt_gpu_prefetch
// CHECK: return
func.func @element_types_and_layouts(%i: memref<?xindex>, %c: memref<?xcomplex<f64>>, %m: memref<?x?xf64, affine_map<(d0, d1) -> (d1, d0)>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %i[%tx] : memref<?xindex>
    %y = memref.load %c[%x] : memref<?xcomplex<f64>>
    memref.store %y, %c[%tx] : memref<?xcomplex<f64>>
    %z = memref.load %m[%tx, %x] : memref<?x?xf64, affine_map<(d0, d1) -> (d1, d0)>>
    memref.store %z, %m[%x, %tx] : memref<?x?xf64, affine_map<(d0, d1) -> (d1, d0)>>
    gpu.terminator
  }
  return
}
