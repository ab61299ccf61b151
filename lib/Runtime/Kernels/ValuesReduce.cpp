//===- ValuesReduce.cpp - Reductions over a CSR matrix's values -----------===//
//
// sum(X), sumsq(X), min(X), max(X) of a CSR matrix reduce its value array
// directly (the row structure does not matter), with independent
// compensated lanes so the loop vectorizes, and one contiguous range per
// thread.
//
//===----------------------------------------------------------------------===//

#include "KahanSum.h"
#include "SparseSupport.h"

#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace {

using namespace amls::runtime;
using namespace amls::runtime::sparse;

/// Below this many values a single thread is faster than starting more.
constexpr int64_t kMinValuesPerThread = 1 << 17;

double identity(int kind) {
  switch (kind) {
  case AMLS_AGG_MIN:
    return std::numeric_limits<double>::infinity();
  case AMLS_AGG_MAX:
    return -std::numeric_limits<double>::infinity();
  default:
    return 0.0;
  }
}

/// Combines partial results (min/max as the dense lowering's
/// arith.minimumf/maximumf).
double combine(int kind, double acc, double value) {
  switch (kind) {
  case AMLS_AGG_MIN:
    return minimum(acc, value);
  case AMLS_AGG_MAX:
    return maximum(acc, value);
  default:
    return acc + value;
  }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) double
reduceRange(const double *values, int64_t begin, int64_t end, int kind) {
  // Four registers of lanes: a compensated step is a chain of four
  // dependent additions, which one register's worth of lanes would wait on.
  constexpr int kLanes = 32;
  double lanes[kLanes];
  std::fill(lanes, lanes + kLanes, identity(kind));
  int64_t i = begin;
  if (kind == AMLS_AGG_SUM || kind == AMLS_AGG_SUMSQ) {
    // Compensated lanes (KahanSum's step, spelled out on arrays so that the
    // lane loop vectorizes).
    bool square = kind == AMLS_AGG_SUMSQ;
    double corrections[kLanes] = {};
    auto add = [&](int lane, double v) {
      double corrected = (square ? v * v : v) + corrections[lane];
      double next = lanes[lane] + corrected;
      corrections[lane] =
          std::isinf(next) ? 0.0 : corrected - (next - lanes[lane]);
      lanes[lane] = next;
    };
    for (; i + kLanes <= end; i += kLanes)
      for (int lane = 0; lane < kLanes; ++lane)
        add(lane, values[i + lane]);
    for (; i < end; ++i)
      add(0, values[i]);
    KahanSum total{0.0, 0.0};
    for (int lane = 0; lane < kLanes; ++lane)
      total.add(KahanSum{lanes[lane], corrections[lane]});
    return total.sum + total.correction;
  } else {
    bool nan = false;
    for (; i + kLanes <= end; i += kLanes)
      for (int lane = 0; lane < kLanes; ++lane) {
        double v = values[i + lane];
        nan |= v != v;
        lanes[lane] = kind == AMLS_AGG_MIN ? std::min(lanes[lane], v)
                                           : std::max(lanes[lane], v);
      }
    for (; i < end; ++i) {
      nan |= values[i] != values[i];
      lanes[0] = kind == AMLS_AGG_MIN ? std::min(lanes[0], values[i])
                                      : std::max(lanes[0], values[i]);
    }
    if (nan)
      return NAN;
  }
  double result = identity(kind);
  for (double lane : lanes)
    result = combine(kind, result, lane);
  return result;
}

} // namespace

extern "C" double _mlir_ciface_amls_rt_values_reduce(AmlsVectorF64 *values,
                                                     int32_t kind) {
  checkAggKind(kind, "reduction of CSR values");
  const double *data = values->aligned + values->offset;
  int64_t size = values->sizes[0];
  int64_t threads = threadsFor(size, kMinValuesPerThread);
  std::vector<double> partials(threads, identity(kind));
  runThreads(threads, [&](int64_t t) {
    partials[t] =
        reduceRange(data, size * t / threads, size * (t + 1) / threads, kind);
  });
  if (kind == AMLS_AGG_SUM || kind == AMLS_AGG_SUMSQ) {
    KahanSum total;
    for (double partial : partials)
      total.add(partial);
    return total.sum;
  }
  double result = identity(kind);
  for (double partial : partials)
    result = combine(kind, result, partial);
  return result;
}
