//===- KahanSum.h - Compensated summation as SystemDS computes it -*- C++
//-*-===//
//
// SystemDS sums with Kahan's compensation (its KahanPlus); the compiler's
// sums do the same (--amls-compensate-sums), and so do the runtime's sparse
// kernels, so that dense and CSR results agree with SystemDS's and with
// each other. The runtime is not built with fast-math, so the compiler
// keeps the order of these operations.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_KERNELS_KAHANSUM_H
#define AMLS_LIB_RUNTIME_KERNELS_KAHANSUM_H

#include <cmath>

namespace amls::runtime {

/// A running sum and the rounding error it has lost so far.
struct KahanSum {
  double sum = 0.0;
  double correction = 0.0;

  /// SystemDS's step; once the sum is infinite the correction is 0 (inf -
  /// inf would make it NaN, and the NaN would spread into the sum).
  void add(double value) {
    double corrected = value + correction;
    double next = sum + corrected;
    correction = std::isinf(next) ? 0.0 : corrected - (next - sum);
    sum = next;
  }
  /// Merges another partial sum (its sum, then its correction).
  void add(const KahanSum &other) {
    add(other.sum);
    add(other.correction);
  }
};

} // namespace amls::runtime

#endif // AMLS_LIB_RUNTIME_KERNELS_KAHANSUM_H
