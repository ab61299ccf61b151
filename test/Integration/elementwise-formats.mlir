// Every element-wise op family with a CSR kernel (+, -, *, /, ^, min, max,
// >, <, !=) over every pairing of storage formats that --amls-select-formats
// can produce: CSR with dense, dense with CSR, CSR with a scalar either side,
// CSR with a broadcast row and column vector, two CSR matrices, and two
// matrices with 60% non-zeros each (E, F) whose results feed rowSums. The
// oracle runs the program as the default setting stores it, with every
// matrix dense and with every matrix CSR (the CSR kernels of each pairing;
// S and T have 10% non-zeros and empty rows and columns), unfused, at --O0
// and with each rewrite family. NumPy's IEEE results are the oracle: D / S
// is infinite where S is 0, and 0 ^ 0 is 1. (A CSR result of two dense
// operands: elementwise-chain-formats.mlir.)
// RUN: %oracle %s --input S="np.where(np.arange(60)[:, None] % 7 == 0, 0.0, (rng.random((60, 40)) < 0.1) * (rng.random((60, 40)) + 0.5))" --input T="np.where(np.arange(40)[None, :] % 5 == 1, 0.0, (rng.random((60, 40)) < 0.1) * (rng.random((60, 40)) + 0.5))" --input D="rng.random((60, 40)) + 0.5" --input E="np.where(rng.random((60, 40)) < 0.6, rng.random((60, 40)) + 0.5, 0.0)" --input F="np.where(rng.random((60, 40)) < 0.6, rng.random((60, 40)) + 0.5, 0.0)" --input r="rng.random((1, 40)) + 0.5" --input c="rng.random((60, 1)) + 0.5" --arg k=1.5 --expect "S + D" --expect "D + S" --expect "S + k" --expect "k + S" --expect "S + r" --expect "S + c" --expect "S + T" --expect "E + F" --expect "S - D" --expect "D - S" --expect "S - k" --expect "k - S" --expect "S - r" --expect "S - c" --expect "S - T" --expect "E - F" --expect "S * D" --expect "D * S" --expect "S * k" --expect "k * S" --expect "S * r" --expect "S * c" --expect "S * T" --expect "E * F" --expect "S / D" --expect "D / S" --expect "S / k" --expect "k / S" --expect "S / r" --expect "S / c" --expect "S / T" --expect "E / F" --expect "np.power(S, D)" --expect "np.power(D, S)" --expect "np.power(S, k)" --expect "np.power(k, S)" --expect "np.power(S, r)" --expect "np.power(S, c)" --expect "np.power(S, T)" --expect "np.power(E, F)" --expect "np.minimum(S, D)" --expect "np.minimum(D, S)" --expect "np.minimum(S, k)" --expect "np.minimum(k, S)" --expect "np.minimum(S, r)" --expect "np.minimum(S, c)" --expect "np.minimum(S, T)" --expect "np.minimum(E, F)" --expect "np.maximum(S, D)" --expect "np.maximum(D, S)" --expect "np.maximum(S, k)" --expect "np.maximum(k, S)" --expect "np.maximum(S, r)" --expect "np.maximum(S, c)" --expect "np.maximum(S, T)" --expect "np.maximum(E, F)" --expect "(S > D) * 1.0" --expect "(D > S) * 1.0" --expect "(S > k) * 1.0" --expect "(k > S) * 1.0" --expect "(S > r) * 1.0" --expect "(S > c) * 1.0" --expect "(S > T) * 1.0" --expect "(E > F) * 1.0" --expect "(S < D) * 1.0" --expect "(D < S) * 1.0" --expect "(S < k) * 1.0" --expect "(k < S) * 1.0" --expect "(S < r) * 1.0" --expect "(S < c) * 1.0" --expect "(S < T) * 1.0" --expect "(E < F) * 1.0" --expect "(S != D) * 1.0" --expect "(D != S) * 1.0" --expect "(S != k) * 1.0" --expect "(k != S) * 1.0" --expect "(S != r) * 1.0" --expect "(S != c) * 1.0" --expect "(S != T) * 1.0" --expect "(E != F) * 1.0" --expect "(E + F).sum(axis=1, keepdims=True)" --expect "(E - F).sum(axis=1, keepdims=True)" --expect "(E * F).sum(axis=1, keepdims=True)" --expect "(E / F).sum(axis=1, keepdims=True)" --expect "(np.power(E, F)).sum(axis=1, keepdims=True)" --expect "(np.minimum(E, F)).sum(axis=1, keepdims=True)" --expect "(np.maximum(E, F)).sum(axis=1, keepdims=True)" --expect "((E > F) * 1.0).sum(axis=1, keepdims=True)" --expect "((E < F) * 1.0).sum(axis=1, keepdims=True)" --expect "((E != F) * 1.0).sum(axis=1, keepdims=True)" --rtol 1e-14 --atol 0 -- --threads 2 | FileCheck %s --check-prefixes=CHECK%differential_checks
// CHECK: PASS: result 0 matches S + D 60x40
// CHECK: PASS: result 89 matches
// DIFFERENTIAL: PASS: dense: every result matches
// DIFFERENTIAL: PASS: csr: every result matches

func.func @main(%S: !amls.matrix<?x?xf64> {amls.name = "S"}, %T: !amls.matrix<?x?xf64> {amls.name = "T"},
                %D: !amls.matrix<?x?xf64> {amls.name = "D"}, %E: !amls.matrix<?x?xf64> {amls.name = "E"},
                %F: !amls.matrix<?x?xf64> {amls.name = "F"},
                %r: !amls.matrix<1x?xf64> {amls.name = "r"}, %c: !amls.matrix<?x1xf64> {amls.name = "c"},
                %k: f64 {amls.name = "k"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>) {
  %r0 = amls.add %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r1 = amls.add %D, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r2 = amls.add %S, %k : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r3 = amls.add %k, %S : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r4 = amls.add %S, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %r5 = amls.add %S, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r6 = amls.add %S, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r7 = amls.add %E, %F : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r8 = amls.sub %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r9 = amls.sub %D, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r10 = amls.sub %S, %k : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r11 = amls.sub %k, %S : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r12 = amls.sub %S, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %r13 = amls.sub %S, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r14 = amls.sub %S, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r15 = amls.sub %E, %F : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r16 = amls.mul %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r17 = amls.mul %D, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r18 = amls.mul %S, %k : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r19 = amls.mul %k, %S : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r20 = amls.mul %S, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %r21 = amls.mul %S, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r22 = amls.mul %S, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r23 = amls.mul %E, %F : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r24 = amls.div %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r25 = amls.div %D, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r26 = amls.div %S, %k : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r27 = amls.div %k, %S : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r28 = amls.div %S, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %r29 = amls.div %S, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r30 = amls.div %S, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r31 = amls.div %E, %F : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r32 = amls.pow %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r33 = amls.pow %D, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r34 = amls.pow %S, %k : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r35 = amls.pow %k, %S : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r36 = amls.pow %S, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %r37 = amls.pow %S, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r38 = amls.pow %S, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r39 = amls.pow %E, %F : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r40 = amls.min %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r41 = amls.min %D, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r42 = amls.min %S, %k : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r43 = amls.min %k, %S : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r44 = amls.min %S, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %r45 = amls.min %S, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r46 = amls.min %S, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r47 = amls.min %E, %F : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r48 = amls.max %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r49 = amls.max %D, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r50 = amls.max %S, %k : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r51 = amls.max %k, %S : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r52 = amls.max %S, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %r53 = amls.max %S, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r54 = amls.max %S, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r55 = amls.max %E, %F : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r56 = amls.gt %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r57 = amls.gt %D, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r58 = amls.gt %S, %k : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r59 = amls.gt %k, %S : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r60 = amls.gt %S, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %r61 = amls.gt %S, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r62 = amls.gt %S, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r63 = amls.gt %E, %F : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r64 = amls.lt %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r65 = amls.lt %D, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r66 = amls.lt %S, %k : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r67 = amls.lt %k, %S : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r68 = amls.lt %S, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %r69 = amls.lt %S, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r70 = amls.lt %S, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r71 = amls.lt %E, %F : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r72 = amls.ne %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r73 = amls.ne %D, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r74 = amls.ne %S, %k : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r75 = amls.ne %k, %S : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r76 = amls.ne %S, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %r77 = amls.ne %S, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r78 = amls.ne %S, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r79 = amls.ne %E, %F : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %s0 = amls.agg sum row %r7 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %s1 = amls.agg sum row %r15 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %s2 = amls.agg sum row %r23 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %s3 = amls.agg sum row %r31 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %s4 = amls.agg sum row %r39 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %s5 = amls.agg sum row %r47 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %s6 = amls.agg sum row %r55 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %s7 = amls.agg sum row %r63 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %s8 = amls.agg sum row %r71 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %s9 = amls.agg sum row %r79 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64, %r65, %r66, %r67, %r68, %r69, %r70, %r71, %r72, %r73, %r74, %r75, %r76, %r77, %r78, %r79, %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7, %s8, %s9
      : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>
}
