// RUN: amls-opt %s -split-input-file -amls-matmul-chain | FileCheck %s
// RUN: amls-opt %s -split-input-file -amls-matmul-chain=mode=sparse | FileCheck %s --check-prefix=SPARSE
// RUN: amls-opt %s -split-input-file -amls-matmul-chain=mode=mnc | FileCheck %s --check-prefix=MNC

// The textbook chain 30x35, 35x15, 15x5, 5x10, 10x20, 20x25 written left to
// right (40500 multiplications) becomes ((A1(A2A3))((A4A5)A6)) (15125).
// CHECK-LABEL: func @textbook
// CHECK-SAME: (%[[A1:.*]]: !amls.matrix<30x35xf64>, %[[A2:.*]]: !amls.matrix<35x15xf64>, %[[A3:.*]]: !amls.matrix<15x5xf64>, %[[A4:.*]]: !amls.matrix<5x10xf64>, %[[A5:.*]]: !amls.matrix<10x20xf64>, %[[A6:.*]]: !amls.matrix<20x25xf64>)
// CHECK-DAG: %[[A23:.*]] = amls.matmul %[[A2]], %[[A3]] : {{.*}} -> !amls.matrix<35x5xf64>
// CHECK-DAG: %[[A123:.*]] = amls.matmul %[[A1]], %[[A23]] : {{.*}} -> !amls.matrix<30x5xf64>
// CHECK-DAG: %[[A45:.*]] = amls.matmul %[[A4]], %[[A5]] : {{.*}} -> !amls.matrix<5x20xf64>
// CHECK-DAG: %[[A456:.*]] = amls.matmul %[[A45]], %[[A6]] : {{.*}} -> !amls.matrix<5x25xf64>
// CHECK: %[[R:.*]] = amls.matmul %[[A123]], %[[A456]] : !amls.matrix<30x5xf64>, !amls.matrix<5x25xf64> -> !amls.matrix<30x25xf64>
// CHECK-NEXT: return %[[R]]
func.func @textbook(%a1: !amls.matrix<30x35xf64>, %a2: !amls.matrix<35x15xf64>,
                    %a3: !amls.matrix<15x5xf64>, %a4: !amls.matrix<5x10xf64>,
                    %a5: !amls.matrix<10x20xf64>, %a6: !amls.matrix<20x25xf64>)
    -> !amls.matrix<30x25xf64> {
  %0 = amls.matmul %a1, %a2 : !amls.matrix<30x35xf64>, !amls.matrix<35x15xf64> -> !amls.matrix<30x15xf64>
  %1 = amls.matmul %0, %a3 : !amls.matrix<30x15xf64>, !amls.matrix<15x5xf64> -> !amls.matrix<30x5xf64>
  %2 = amls.matmul %1, %a4 : !amls.matrix<30x5xf64>, !amls.matrix<5x10xf64> -> !amls.matrix<30x10xf64>
  %3 = amls.matmul %2, %a5 : !amls.matrix<30x10xf64>, !amls.matrix<10x20xf64> -> !amls.matrix<30x20xf64>
  %4 = amls.matmul %3, %a6 : !amls.matrix<30x20xf64>, !amls.matrix<20x25xf64> -> !amls.matrix<30x25xf64>
  return %4 : !amls.matrix<30x25xf64>
}

// -----

// PageRank's teleport term e %*% u %*% p: e %*% (u %*% p), no n x n matrix.
// The root keeps its type (here with a sparsity estimate).
// CHECK-LABEL: func @teleport
// CHECK-SAME: (%[[E:.*]]: !amls.matrix<1000x1xf64>, %[[U:.*]]: !amls.matrix<1x1000xf64>, %[[P:.*]]: !amls.matrix<1000x1xf64>)
// CHECK: %[[UP:.*]] = amls.matmul %[[U]], %[[P]] : !amls.matrix<1x1000xf64>, !amls.matrix<1000x1xf64> -> !amls.matrix<1x1xf64>
// CHECK: %[[R:.*]] = amls.matmul %[[E]], %[[UP]] : !amls.matrix<1000x1xf64>, !amls.matrix<1x1xf64> -> !amls.matrix<1000x1xf64, sparsity = 1.0>
// CHECK-NOT: amls.matmul
// CHECK: return %[[R]]
func.func @teleport(%e: !amls.matrix<1000x1xf64>, %u: !amls.matrix<1x1000xf64>,
                    %p: !amls.matrix<1000x1xf64>) -> !amls.matrix<1000x1xf64, sparsity = 1.0> {
  %eu = amls.matmul %e, %u : !amls.matrix<1000x1xf64>, !amls.matrix<1x1000xf64> -> !amls.matrix<1000x1000xf64>
  %t = amls.matmul %eu, %p : !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1xf64> -> !amls.matrix<1000x1xf64, sparsity = 1.0>
  return %t : !amls.matrix<1000x1xf64, sparsity = 1.0>
}

// -----

// An inner product used twice is materialized anyway: it ends the chain, and
// two-factor chains have nothing to reorder.
// CHECK-LABEL: func @shared_product
// CHECK: %[[EU:.*]] = amls.matmul %arg0, %arg1
// CHECK: amls.matmul %[[EU]], %arg2
// CHECK: amls.agg sum all %[[EU]]
func.func @shared_product(%e: !amls.matrix<1000x1xf64>, %u: !amls.matrix<1x1000xf64>,
                          %p: !amls.matrix<1000x1xf64>) -> (!amls.matrix<1000x1xf64>, f64) {
  %eu = amls.matmul %e, %u : !amls.matrix<1000x1xf64>, !amls.matrix<1x1000xf64> -> !amls.matrix<1000x1000xf64>
  %t = amls.matmul %eu, %p : !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1xf64> -> !amls.matrix<1000x1xf64>
  %s = amls.agg sum all %eu : !amls.matrix<1000x1000xf64> -> f64
  return %t, %s : !amls.matrix<1000x1xf64>, f64
}

// -----

// Unknown sizes leave the chain as written.
// CHECK-LABEL: func @unknown_sizes
// CHECK: %[[EU:.*]] = amls.matmul %arg0, %arg1
// CHECK: amls.matmul %[[EU]], %arg2
func.func @unknown_sizes(%e: !amls.matrix<?x1xf64>, %u: !amls.matrix<1x?xf64>,
                         %p: !amls.matrix<?x1xf64>) -> !amls.matrix<?x1xf64> {
  %eu = amls.matmul %e, %u : !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %t = amls.matmul %eu, %p : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  return %t : !amls.matrix<?x1xf64>
}

// -----

// A chain already in its best order is left alone; equal costs keep the
// order as written.
// CHECK-LABEL: func @already_optimal
// CHECK: %[[BC:.*]] = amls.matmul %arg1, %arg2
// CHECK: amls.matmul %arg0, %[[BC]]
func.func @already_optimal(%a: !amls.matrix<100x100xf64>, %b: !amls.matrix<100x100xf64>,
                           %c: !amls.matrix<100x1xf64>) -> !amls.matrix<100x1xf64> {
  %bc = amls.matmul %b, %c : !amls.matrix<100x100xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<100x1xf64>
  %r = amls.matmul %a, %bc : !amls.matrix<100x100xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<100x1xf64>
  return %r : !amls.matrix<100x1xf64>
}

// -----

// A sparse A (1000x1000, sparsity 1e-4) times dense B (1000x1000) and C
// (1000x10): dense costs pick A(BC) (2e7 against 1.001e9), which is already
// how it is written; counting non-zero products, (AB)C is about ten times
// cheaper (1.05e6 against 1.0001e7) and the sparse mode reorders.
// CHECK-LABEL: func @sparse_factor
// CHECK: %[[BC:.*]] = amls.matmul %arg1, %arg2
// CHECK: amls.matmul %arg0, %[[BC]]
// SPARSE-LABEL: func @sparse_factor
// SPARSE: %[[AB:.*]] = amls.matmul %arg0, %arg1 : !amls.matrix<1000x1000xf64, sparsity = 1.0e-04>, !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64>
// SPARSE: %[[R:.*]] = amls.matmul %[[AB]], %arg2
// SPARSE: return %[[R]]
func.func @sparse_factor(%a: !amls.matrix<1000x1000xf64, sparsity = 1.0e-4>,
                         %b: !amls.matrix<1000x1000xf64>,
                         %c: !amls.matrix<1000x10xf64>) -> !amls.matrix<1000x10xf64> {
  %bc = amls.matmul %b, %c : !amls.matrix<1000x1000xf64>, !amls.matrix<1000x10xf64> -> !amls.matrix<1000x10xf64>
  %r = amls.matmul %a, %bc : !amls.matrix<1000x1000xf64, sparsity = 1.0e-4>, !amls.matrix<1000x10xf64> -> !amls.matrix<1000x10xf64>
  return %r : !amls.matrix<1000x10xf64>
}

// -----

// Chains continue through transposes: t(A %*% B) %*% v is the chain
// t(B), t(A), v (1000x500, 500x1000, 1000x1) and becomes
// t(B) %*% (t(A) %*% v): 1,000,000 multiplications instead of 500,500,000.
// The transposes are views, never copies.
// CHECK-LABEL: func @through_transpose
// CHECK-SAME: (%[[A:.*]]: !amls.matrix<1000x500xf64>, %[[B:.*]]: !amls.matrix<500x1000xf64>, %[[V:.*]]: !amls.matrix<1000x1xf64>)
// CHECK-DAG: %[[TB:.*]] = amls.transpose %[[B]] : !amls.matrix<500x1000xf64> -> !amls.matrix<1000x500xf64>
// CHECK-DAG: %[[TA:.*]] = amls.transpose %[[A]] : !amls.matrix<1000x500xf64> -> !amls.matrix<500x1000xf64>
// CHECK: %[[TAV:.*]] = amls.matmul %[[TA]], %[[V]] : {{.*}} -> !amls.matrix<500x1xf64>
// CHECK: %[[R:.*]] = amls.matmul %[[TB]], %[[TAV]] : {{.*}} -> !amls.matrix<1000x1xf64>
// CHECK-NEXT: return %[[R]]
func.func @through_transpose(%A: !amls.matrix<1000x500xf64>, %B: !amls.matrix<500x1000xf64>,
                             %v: !amls.matrix<1000x1xf64>) -> !amls.matrix<1000x1xf64> {
  %ab = amls.matmul %A, %B : !amls.matrix<1000x500xf64>, !amls.matrix<500x1000xf64> -> !amls.matrix<1000x1000xf64>
  %t = amls.transpose %ab : !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64>
  %r = amls.matmul %t, %v : !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1xf64> -> !amls.matrix<1000x1xf64>
  return %r : !amls.matrix<1000x1xf64>
}

// -----

// A transpose nested in a transpose: t(u %*% t(A %*% B)) %*% s with u
// 1x1000 and s 1x3 is the chain A, B, t(u), s and becomes
// (A %*% (B %*% t(u))) %*% s.
// CHECK-LABEL: func @nested_transposes
// CHECK-SAME: (%[[A:.*]]: !amls.matrix<1000x500xf64>, %[[B:.*]]: !amls.matrix<500x1000xf64>, %[[U:.*]]: !amls.matrix<1x1000xf64>, %[[S:.*]]: !amls.matrix<1x3xf64>)
// CHECK: %[[TU:.*]] = amls.transpose %[[U]] : !amls.matrix<1x1000xf64> -> !amls.matrix<1000x1xf64>
// CHECK: %[[BU:.*]] = amls.matmul %[[B]], %[[TU]] : {{.*}} -> !amls.matrix<500x1xf64>
// CHECK: %[[ABU:.*]] = amls.matmul %[[A]], %[[BU]] : {{.*}} -> !amls.matrix<1000x1xf64>
// CHECK: %[[R:.*]] = amls.matmul %[[ABU]], %[[S]] : {{.*}} -> !amls.matrix<1000x3xf64>
// CHECK-NEXT: return %[[R]]
func.func @nested_transposes(%A: !amls.matrix<1000x500xf64>, %B: !amls.matrix<500x1000xf64>,
                             %u: !amls.matrix<1x1000xf64>, %s: !amls.matrix<1x3xf64>) -> !amls.matrix<1000x3xf64> {
  %ab = amls.matmul %A, %B : !amls.matrix<1000x500xf64>, !amls.matrix<500x1000xf64> -> !amls.matrix<1000x1000xf64>
  %tab = amls.transpose %ab : !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64>
  %utab = amls.matmul %u, %tab : !amls.matrix<1x1000xf64>, !amls.matrix<1000x1000xf64> -> !amls.matrix<1x1000xf64>
  %t = amls.transpose %utab : !amls.matrix<1x1000xf64> -> !amls.matrix<1000x1xf64>
  %r = amls.matmul %t, %s : !amls.matrix<1000x1xf64>, !amls.matrix<1x3xf64> -> !amls.matrix<1000x3xf64>
  return %r : !amls.matrix<1000x3xf64>
}

// -----

// A transposed product used elsewhere is computed anyway: it ends the chain.
// CHECK-LABEL: func @shared_transpose
// CHECK: %[[AB:.*]] = amls.matmul
// CHECK: %[[T:.*]] = amls.transpose %[[AB]]
// CHECK: amls.matmul %[[T]], %{{.*}}
func.func @shared_transpose(%A: !amls.matrix<1000x500xf64>, %B: !amls.matrix<500x1000xf64>,
                            %v: !amls.matrix<1000x1xf64>) -> (!amls.matrix<1000x1xf64>, !amls.matrix<1000x1000xf64>) {
  %ab = amls.matmul %A, %B : !amls.matrix<1000x500xf64>, !amls.matrix<500x1000xf64> -> !amls.matrix<1000x1000xf64>
  %t = amls.transpose %ab : !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64>
  %r = amls.matmul %t, %v : !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1xf64> -> !amls.matrix<1000x1xf64>
  return %r, %t : !amls.matrix<1000x1xf64>, !amls.matrix<1000x1000xf64>
}

// -----

// The factors' sketches see what their densities do not: A's non-zeros are
// all in column 0, B's row 0 is empty, so A %*% B is empty and (AB)C as
// written costs nothing, where BC costs 90 non-zero pairs. The densities
// (0.1, 0.45, 1) make A(BC) look cheaper (about 110 against 119
// multiplications, MatmulChainTest's SketchesSeeStructure); mode=sparse
// reorders, mode=mnc keeps the order. Without a sketch on one factor,
// mode=mnc costs the chain by the densities too.
// MNC-LABEL: func @structure
// MNC: %[[AB:.*]] = amls.matmul %arg0, %arg1
// MNC: amls.matmul %[[AB]], %arg2
// SPARSE-LABEL: func @structure
// SPARSE: %[[BC:.*]] = amls.matmul %arg1, %arg2
// SPARSE: amls.matmul %arg0, %[[BC]]
// MNC-LABEL: func @structure_without_sketch
// MNC: %[[BC:.*]] = amls.matmul %arg1, %arg2
// MNC: amls.matmul %arg0, %[[BC]]
func.func @structure(
    %A: !amls.matrix<10x10xf64, sparsity = 0.1, format = csr>
        {amls.mnc = #amls.mnc<rows = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], cols = [10, 0, 0, 0, 0, 0, 0, 0, 0, 0]>},
    %B: !amls.matrix<10x10xf64, sparsity = 0.45, format = csr>
        {amls.mnc = #amls.mnc<rows = [0, 5, 5, 5, 5, 5, 5, 5, 5, 5], cols = [9, 9, 9, 9, 9, 0, 0, 0, 0, 0]>},
    %C: !amls.matrix<10x2xf64, sparsity = 1.0>) -> !amls.matrix<10x2xf64> {
  %AB = amls.matmul %A, %B : !amls.matrix<10x10xf64, sparsity = 0.1, format = csr>, !amls.matrix<10x10xf64, sparsity = 0.45, format = csr> -> !amls.matrix<10x10xf64>
  %R = amls.matmul %AB, %C : !amls.matrix<10x10xf64>, !amls.matrix<10x2xf64, sparsity = 1.0> -> !amls.matrix<10x2xf64>
  return %R : !amls.matrix<10x2xf64>
}

func.func @structure_without_sketch(
    %A: !amls.matrix<10x10xf64, sparsity = 0.1, format = csr>,
    %B: !amls.matrix<10x10xf64, sparsity = 0.45, format = csr>
        {amls.mnc = #amls.mnc<rows = [0, 5, 5, 5, 5, 5, 5, 5, 5, 5], cols = [9, 9, 9, 9, 9, 0, 0, 0, 0, 0]>},
    %C: !amls.matrix<10x2xf64, sparsity = 1.0>) -> !amls.matrix<10x2xf64> {
  %AB = amls.matmul %A, %B : !amls.matrix<10x10xf64, sparsity = 0.1, format = csr>, !amls.matrix<10x10xf64, sparsity = 0.45, format = csr> -> !amls.matrix<10x10xf64>
  %R = amls.matmul %AB, %C : !amls.matrix<10x10xf64>, !amls.matrix<10x2xf64, sparsity = 1.0> -> !amls.matrix<10x2xf64>
  return %R : !amls.matrix<10x2xf64>
}
