// RUN: amls-opt %s -split-input-file -amls-map-parallel-loops-to-gpu -cse | FileCheck %s
// RUN: not amls-opt %s -split-input-file -amls-map-parallel-loops-to-gpu="block-size=512 block-rows=4" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: amls-opt %s -split-input-file -amls-map-parallel-loops-to-gpu=min-work=0 | FileCheck %s --check-prefix=ALL
// RUN: not amls-opt %s -split-input-file -amls-map-parallel-loops-to-gpu=min-work=-1 2>&1 | FileCheck %s --check-prefix=BADWORK

// BAD: amls-map-parallel-loops-to-gpu: expected block-size x block-rows between 1 and 1024 threads, found 512 x 4
// BADWORK: amls-map-parallel-loops-to-gpu: expected min-work >= 0, found -1

// A 2-D element-wise loop: tiles of 2 x 128 cells are the blocks, the
// innermost dimension is the threads' x and the outermost the grid's x.
// CHECK: #[[TILE:.*]] = affine_map<(d0) -> (-d0 + 300, 128)>
// CHECK-LABEL: func.func @elementwise
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = {{.*}} step (%[[C2]], %[[C128]])
// CHECK: %[[N:.*]] = affine.min #[[TILE]](%[[J]])
// CHECK: scf.parallel {{.*}} to (%[[C2]], %[[N]])
// CHECK: arith.mulf
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_y, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>, #gpu.loop_dim_map<processor = block_y, {{.*}}>]
func.func @elementwise(%a: memref<700x300xf64>, %b: memref<700x300xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c300 = arith.constant 300 : index
  %c700 = arith.constant 700 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c700, %c300) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<700x300xf64>
    %y = arith.mulf %x, %x : f64
    memref.store %y, %b[%i, %j] : memref<700x300xf64>
  }
  return
}

// -----

// A parallel loop over the columns inside a sequential loop becomes a loop
// nest in each thread; a loop narrower than a block is one block.
// CHECK-LABEL: func.func @row_blocks
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: scf.parallel
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
func.func @row_blocks(%a: memref<12x100x8xf64>, %s: memref<12x8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c12) step (%c1) {
    scf.for %k = %c0 to %c100 step %c1 {
      scf.parallel (%j) = (%c0) to (%c8) step (%c1) {
        %x = memref.load %a[%i, %k, %j] : memref<12x100x8xf64>
        %acc = memref.load %s[%i, %j] : memref<12x8xf64>
        %sum = arith.addf %acc, %x : f64
        memref.store %sum, %s[%i, %j] : memref<12x8xf64>
      }
    }
  }
  return
}

// -----

// A split reduction's first stage, 1024 blocks x 32 lanes: a block of
// threads is 8 rows of 32 lanes (256 threads), the lanes along x.
// CHECK-LABEL: func.func @lanes
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.parallel {{.*}} step (%[[C8]], %[[C32]])
// CHECK: scf.parallel {{.*}} to (%[[C8]], %[[C32]])
// CHECK: scf.for
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_y, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]
func.func @lanes(%a: memref<1024x16x32xf64>, %s: memref<1024x32xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%b, %l) = (%c0, %c0) to (%c1024, %c32) step (%c1, %c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %x = memref.load %a[%b, %k, %l] : memref<1024x16x32xf64>
      %acc = memref.load %s[%b, %l] : memref<1024x32xf64>
      %sum = arith.addf %acc, %x : f64
      memref.store %sum, %s[%b, %l] : memref<1024x32xf64>
    }
  }
  return
}

// -----

// Loops a kernel cannot run stay on the CPU, unmapped: a call (the
// runtime's random numbers), an allocation, a host constant, results of a
// reduction, four dimensions.
// CHECK-LABEL: func.func @host_loops
// CHECK-NOT: mapping
// CHECK: return
func.func private @amls_rt_rand(i64) -> f64
memref.global "private" constant @table : memref<4xf64> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @host_loops(%a: memref<4xf64>, %b: memref<2x2x2x2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %n = arith.index_cast %i : index to i64
    %x = func.call @amls_rt_rand(%n) : (i64) -> f64
    memref.store %x, %a[%i] : memref<4xf64>
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %t = memref.alloc() : memref<1xf64>
    memref.store %zero, %t[%c0] : memref<1xf64>
    memref.dealloc %t : memref<1xf64>
  }
  %table = memref.get_global @table : memref<4xf64>
  %view = memref.subview %table[0] [4] [1] : memref<4xf64> to memref<4xf64, strided<[1]>>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %x = memref.load %view[%i] : memref<4xf64, strided<[1]>>
    memref.store %x, %a[%i] : memref<4xf64>
  }
  %sum = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%zero) -> f64 {
    %x = memref.load %a[%i] : memref<4xf64>
    scf.reduce(%x : f64) {
    ^bb0(%l: f64, %r: f64):
      %s = arith.addf %l, %r : f64
      scf.reduce.return %s : f64
    }
  }
  scf.parallel (%i, %j, %k, %l) = (%c0, %c0, %c0, %c0) to (%c2, %c2, %c2, %c2) step (%c1, %c1, %c1, %c1) {
    memref.store %zero, %b[%i, %j, %k, %l] : memref<2x2x2x2xf64>
  }
  return %sum : f64
}

// -----

// The cost rule: a loop of little work (50 cells) over buffers of at most
// 64 KiB, which the runtime keeps in host memory, runs on the CPU; the same
// work over a larger buffer (a row of a 1000 x 1000 matrix, whose pages a
// CPU loop would pull from the device), work of unknown size, and a nest
// of 100 x 1000 iterations over small buffers are kernels. min-work=0 maps
// the small loop too.
// CHECK-LABEL: func.func @cost_rule
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT: memref.load %{{.*}} : memref<50xf64>
// CHECK-NOT: mapping
// CHECK: memref.store %{{.*}} : memref<50xf64>
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: scf.parallel
// CHECK: memref<1000x1000xf64>
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK: memref<?xf64>
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK: scf.for
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
// ALL-LABEL: func.func @cost_rule
// ALL-COUNT-4: mapping = [#gpu.loop_dim_map<processor = block_x
func.func @cost_rule(%v: memref<50xf64>, %w: memref<50xf64>, %big: memref<1000x1000xf64>, %d: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c50 = arith.constant 50 : index
  %c100 = arith.constant 100 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%i) = (%c0) to (%c50) step (%c1) {
    %x = memref.load %v[%i] : memref<50xf64>
    %y = arith.mulf %x, %x : f64
    memref.store %y, %w[%i] : memref<50xf64>
  }
  scf.parallel (%i) = (%c0) to (%c50) step (%c1) {
    %x = memref.load %big[%c0, %i] : memref<1000x1000xf64>
    memref.store %x, %w[%i] : memref<50xf64>
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %d[%i] : memref<?xf64>
    %y = arith.addf %x, %x : f64
    memref.store %y, %d[%i] : memref<?xf64>
  }
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    scf.for %k = %c0 to %c1000 step %c1 {
      %j = arith.remui %k, %c50 : index
      %x = memref.load %v[%j] : memref<50xf64>
      %acc = memref.load %w[%j] : memref<50xf64>
      %s = arith.addf %acc, %x : f64
      memref.store %s, %w[%j] : memref<50xf64>
    }
  }
  return
}

// -----

// A loop whose body runs an scf.while has work the rule cannot know: it
// stays a kernel, even over small buffers.
// CHECK-LABEL: func.func @unknown_inner_loop
// CHECK: scf.while
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
func.func @unknown_inner_loop(%v: memref<50xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c50 = arith.constant 50 : index
  %limit = arith.constant 1.0e6 : f64
  scf.parallel (%i) = (%c0) to (%c50) step (%c1) {
    %x = memref.load %v[%i] : memref<50xf64>
    %y = scf.while (%a = %x) : (f64) -> f64 {
      %more = arith.cmpf olt, %a, %limit : f64
      scf.condition(%more) %a : f64
    } do {
    ^bb0(%a: f64):
      %b = arith.addf %a, %a : f64
      scf.yield %b : f64
    }
    memref.store %y, %v[%i] : memref<50xf64>
  }
  return
}
