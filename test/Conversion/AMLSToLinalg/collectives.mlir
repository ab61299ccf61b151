// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg | FileCheck %s

// A matrix all-reduce becomes upstream shard.all_reduce over the run's
// one-axis grid; a scalar one, a runtime call (an index through i64).
// CHECK: shard.grid @amls_ranks(shape = ?)
// CHECK-LABEL: func @all_reduce
// CHECK: call @amls_rt_dist_all_reduce_f64(%{{.*}}, %c0_i32) : (f64, i32) -> f64
// CHECK: arith.index_cast %{{.*}} : index to i64
// CHECK: call @amls_rt_dist_all_reduce_i64
// CHECK: shard.all_reduce %{{.*}} on @amls_ranks grid_axes = [0] reduction = max : tensor<10x10xf64> -> tensor<10x10xf64>
func.func @all_reduce(%s: f64, %n: index, %g: !amls.matrix<10x10xf64>) -> (f64, index, !amls.matrix<10x10xf64>) {
  %0 = amls.all_reduce sum %s : f64
  %1 = amls.all_reduce sum %n : index
  %2 = amls.all_reduce max %g : !amls.matrix<10x10xf64>
  return %0, %1, %2 : f64, index, !amls.matrix<10x10xf64>
}

// -----

// The gather sums the blocks' row counts for its buffer; a block of a
// replicated matrix is a slice at this rank's first row.
// CHECK-LABEL: func @blocks
// CHECK: call @amls_rt_dist_all_reduce_i64
// CHECK: call @amls_rt_dist_gather_rows
// CHECK: %[[BEGIN:.*]] = call @amls_rt_dist_row_begin
// CHECK: %[[COUNT:.*]] = call @amls_rt_dist_row_count
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0] [%{{.*}}, %{{.*}}] [1, 1] : tensor<1001x1xf64> to tensor<?x?xf64>
func.func @blocks(%b: !amls.matrix<?x10xf64>, %v: !amls.matrix<1001x1xf64>) -> (!amls.matrix<1001x10xf64>, !amls.matrix<?x1xf64>) {
  %0 = amls.all_gather_rows %b : !amls.matrix<?x10xf64> -> !amls.matrix<1001x10xf64>
  %1 = amls.local_rows %v : !amls.matrix<1001x1xf64> -> !amls.matrix<?x1xf64>
  return %0, %1 : !amls.matrix<1001x10xf64>, !amls.matrix<?x1xf64>
}

// -----

// A parfor's share: ceil((ub - lb) / step) iterations split as rows are;
// its result merged by the runtime.
// CHECK-LABEL: func @parfor_share
// CHECK: arith.maxsi
// CHECK: arith.ceildivsi
// CHECK: call @amls_rt_dist_row_begin
// CHECK: call @amls_rt_dist_row_count
// CHECK: call @amls_rt_dist_merge_results
func.func @parfor_share(%lb: index, %ub: index, %step: index, %r: !amls.matrix<10x12xf64>, %before: !amls.matrix<10x12xf64>) -> (index, index, index, !amls.matrix<10x12xf64>) {
  %lo, %hi, %st = amls.local_iterations %lb to %ub step %step
  %0 = amls.merge_ranks %r over %before : !amls.matrix<10x12xf64>
  return %lo, %hi, %st, %0 : index, index, index, !amls.matrix<10x12xf64>
}

// Dealt in turn: from lb + rank * step, every N-th iteration.
// CHECK-LABEL: func @parfor_cyclic
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[STEP:.*]]: index)
// CHECK: %[[RANK:.*]] = call @amls_rt_dist_rank() : () -> i64
// CHECK: %[[R:.*]] = arith.index_cast %[[RANK]] : i64 to index
// CHECK: %[[N:.*]] = call @amls_rt_dist_size() : () -> i64
// CHECK: %[[P:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[OFFSET:.*]] = arith.muli %[[R]], %[[STEP]] : index
// CHECK: %[[LO:.*]] = arith.addi %[[LB]], %[[OFFSET]] : index
// CHECK: %[[ST:.*]] = arith.muli %[[STEP]], %[[P]] : index
// CHECK: return %[[LO]], %[[UB]], %[[ST]]
func.func @parfor_cyclic(%lb: index, %ub: index, %step: index) -> (index, index, index) {
  %lo, %hi, %st = amls.local_iterations %lb to %ub step %step cyclic
  return %lo, %hi, %st : index, index, index
}

// -----

// A row-partitioned read reads this rank's rows, dense or CSR.
// CHECK-LABEL: func @reads
// CHECK: call @amls_rt_dist_file_rows
// CHECK: call @amls_rt_dist_file_cols
// CHECK: call @amls_rt_dist_read
// CHECK: call @amls_rt_dist_csr_read
// CHECK-NOT: call @amls_rt_csr_read
func.func @reads() -> (!amls.matrix<?x10xf64>, !amls.matrix<?x100xf64, format = csr>) {
  %X = amls.read "X.csv" csv {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x10xf64>
  %A = amls.read "A.mtx" mm {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x100xf64, format = csr>
  return %X, %A : !amls.matrix<?x10xf64>, !amls.matrix<?x100xf64, format = csr>
}
