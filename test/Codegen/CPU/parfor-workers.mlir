// RUN: amls-opt %s -split-input-file -amls-parfor-workers -verify-diagnostics | FileCheck %s

// A planned parfor loop (bufferized: its shared buffer written in place)
// becomes an OpenMP region of `workers` threads taking tasks from the
// runtime's queue; the loop's own index is lower + j * step for the task's
// iterations j. BLAS runs serially while the workers run. Each task runs
// under a failure trap of the region's record, closed (a failure raised)
// after the queue.
// CHECK-LABEL: func @planned
// CHECK-SAME: (%[[R:.*]]: memref<100xf64>, %[[LB:.*]]: index, %[[UB:.*]]: index, %[[STEP:.*]]: index)
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]]
// CHECK: %[[POS:.*]] = arith.maxsi %[[SPAN]], %{{.*}}
// CHECK: %[[COUNT:.*]] = arith.ceildivsi %[[POS]], %[[STEP]]
// CHECK: %[[N:.*]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK-DAG: %[[WORKERS:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[STATIC:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[TASK:.*]] = arith.constant 4 : i64
// CHECK: %[[Q:.*]] = call @amls_rt_parfor_begin(%[[N]], %[[STATIC]], %[[TASK]], %[[WORKERS]])
// CHECK: %[[F:.*]] = call @amls_rt_region_open()
// CHECK: call @amls_rt_blas_serial
// CHECK: omp.parallel num_threads(%[[WORKERS]] : i32) {
// CHECK: scf.while
// CHECK: %[[T:.*]] = func.call @amls_rt_parfor_next(%[[Q]])
// CHECK: arith.cmpi sge, %[[T]]
// CHECK: scf.condition
// CHECK: ^bb0(%[[TT:.*]]: i64):
// CHECK: func.call @amls_rt_parfor_task_first(%[[Q]], %[[TT]])
// CHECK: func.call @amls_rt_parfor_task_end(%[[Q]], %[[TT]])
// CHECK: %[[BUF:.*]] = func.call @amls_rt_region_trap(%[[F]])
// CHECK: %[[NULL:.*]] = llvm.mlir.zero
// CHECK: %[[ARMED:.*]] = llvm.icmp "ne" %[[BUF]], %[[NULL]]
// CHECK: scf.if %[[ARMED]] {
// CHECK: %[[JUMPED:.*]] = llvm.call @_setjmp(%[[BUF]])
// CHECK: %[[SET:.*]] = arith.cmpi eq, %[[JUMPED]], %{{.*}} : i32
// CHECK: scf.if %[[SET]] {
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[JS:.*]] = arith.muli %[[J]], %[[STEP]]
// CHECK: %[[I:.*]] = arith.addi %[[LB]], %[[JS]]
// CHECK: memref.store %{{.*}}, %[[R]][%[[I]]]
// CHECK: func.call @amls_rt_region_untrap()
// CHECK: omp.terminator
// CHECK: call @amls_rt_blas_serial
// CHECK: call @amls_rt_parfor_end(%[[Q]])
// CHECK: call @amls_rt_region_close(%[[F]])
// CHECK-NOT: amls.parfor_plan
func.func @planned(%R: memref<100xf64>, %lb: index, %ub: index, %step: index) {
  scf.for %i = %lb to %ub step %step {
    %i64 = arith.index_cast %i : index to i64
    %v = arith.sitofp %i64 : i64 to f64
    memref.store %v, %R[%i] : memref<100xf64>
  } {amls.parfor_plan = #amls.parfor_plan<workers = 2, partitioner = static, task_size = 4, inner_threads = 1>}
  return
}

// -----

// A loop that still carries a buffer (not updated in place) stays
// sequential.
// CHECK-LABEL: func @carried
// CHECK-NOT: omp.parallel
// CHECK: scf.for
func.func @carried(%R: memref<100xf64>, %S: memref<100xf64>, %n: index) -> memref<100xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-warning @below {{parfor runs sequentially: bufferization did not update its results in place}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %R) -> (memref<100xf64>) {
    scf.yield %S : memref<100xf64>
  } {amls.parfor_plan = #amls.parfor_plan<workers = 2, partitioner = factoring, task_size = 1, inner_threads = 1>}
  return %r : memref<100xf64>
}
