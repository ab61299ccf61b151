// The one end-to-end compile: amls-opt --amls-compile and
// amls-translate --amls-to-llvmir run the same pipeline, so they produce the
// same LLVM IR.
// RUN: amls-opt %s --amls-compile | amls-translate --mlir-to-llvmir -o %t.opt.ll
// RUN: amls-translate --amls-to-llvmir %s -o %t.translate.ll
// RUN: diff %t.opt.ll %t.translate.ll
// RUN: amls-opt %s --amls-compile | FileCheck %s
// RUN: amls-opt %s --amls-compile="fusion=none rewrites=none" | FileCheck %s --check-prefix=O0
// RUN: amls-opt %s --amls-compile="fusion=none rewrites=none" | amls-translate --mlir-to-llvmir -o %t.opt-o0.ll
// RUN: amls-translate --amls-to-llvmir --amls-rewrites=none --amls-fuse=none %s -o %t.translate-o0.ll
// RUN: diff %t.opt-o0.ll %t.translate-o0.ll
// RUN: amls-opt %s --amls-compile="wrap-entry=sum_of_squares threads=1" | FileCheck %s --check-prefix=WRAP
// RUN: not amls-opt %s --amls-compile="fusion=everything" 2>&1 | FileCheck %s --check-prefix=BAD-FUSION
// The memory limit reaches --amls-check-memory: unfused, X^2 is a 32768-byte
// matrix of its own; fused, nothing is allocated and the limit is met.
// RUN: not amls-opt %s --amls-compile="fusion=none rewrites=none memory-limit=1000" 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: amls-opt %s --amls-compile="memory-limit=1000" | FileCheck %s
// RUN: not amls-opt %s --amls-compile="rewrites=simplify,folding" 2>&1 | FileCheck %s --check-prefix=BAD-REWRITES
// RUN: not amls-translate --amls-to-llvmir --amls-fuse=everything %s 2>&1 | FileCheck %s --check-prefix=BAD-TRANSLATE

// The optimizer rewrites sum(X^2) to sumsq and fusion leaves one reduction
// over X; without either, X^2 (x * x) is a matrix of its own (two loops
// over cells).
// CHECK-LABEL: llvm.func @sum_of_squares
// CHECK: llvm.fmul
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.return
// O0-LABEL: llvm.func @sum_of_squares
// O0: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// O0: llvm.fmul
// With wrap-entry, amls_main (C interface) calls the entry and returns its
// result to the execution session.
// WRAP: llvm.func @amls_main({{.*}}) -> f64 attributes {{{.*}}llvm.emit_c_interface}
// WRAP: %[[SUM:.*]] = llvm.call @sum_of_squares(
// WRAP: llvm.return %[[SUM]] : f64
// WRAP: llvm.func @_mlir_ciface_amls_main(
// LIMIT: amls-compile.mlir:[[@LINE+6]]:8: error: the 64x64 dense result of amls.pow needs 32768 bytes, more than the memory limit of 1000 bytes
// BAD-FUSION: amls-compile: expected fusion 'cost', 'fuse-all', 'fuse-no-redundancy' or 'none', found 'everything'
// BAD-REWRITES: amls-compile: expected rewrite families from simplify, simplify-dynamic, matmul-chain, ipa, vectorize-loops, all, none; found 'simplify,folding'
// BAD-TRANSLATE: error: --amls-to-llvmir: expected fusion 'cost', 'fuse-all', 'fuse-no-redundancy' or 'none', found 'everything'
func.func @sum_of_squares(%X: !amls.matrix<64x64xf64>) -> f64 {
  %c2 = arith.constant 2.0 : f64
  %0 = amls.pow %X, %c2 : !amls.matrix<64x64xf64>, f64 -> !amls.matrix<64x64xf64>
  %1 = amls.agg sum all %0 : !amls.matrix<64x64xf64> -> f64
  return %1 : f64
}
