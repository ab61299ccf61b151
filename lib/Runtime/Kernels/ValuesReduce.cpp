//===- ValuesReduce.cpp - Reductions over a CSR matrix's values -----------===//
//
// sum(X), sumsq(X), min(X), max(X) of a CSR matrix reduce its value array
// directly (the row structure does not matter), with independent lanes so
// the loop vectorizes, and one contiguous range per thread.
//
//===----------------------------------------------------------------------===//

#include "SparseSupport.h"

#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace {

using namespace amls::runtime::sparse;

/// Below this many values a single thread is faster than starting more.
constexpr int64_t kMinValuesPerThread = 1 << 17;

enum Kind { Sum = 0, SumSq = 1, Min = 2, Max = 3 };

double identity(int kind) {
  switch (kind) {
  case Min:
    return std::numeric_limits<double>::infinity();
  case Max:
    return -std::numeric_limits<double>::infinity();
  default:
    return 0.0;
  }
}

/// Combines partial results (min/max as the dense lowering's
/// arith.minimumf/maximumf).
double combine(int kind, double acc, double value) {
  switch (kind) {
  case Min:
    return minimum(acc, value);
  case Max:
    return maximum(acc, value);
  default:
    return acc + value;
  }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) double
reduceRange(const double *values, int64_t begin, int64_t end, int kind) {
  constexpr int kLanes = 8;
  double lanes[kLanes];
  std::fill(lanes, lanes + kLanes, identity(kind));
  int64_t i = begin;
  if (kind == Sum || kind == SumSq) {
    bool square = kind == SumSq;
    for (; i + kLanes <= end; i += kLanes)
      for (int lane = 0; lane < kLanes; ++lane) {
        double v = values[i + lane];
        lanes[lane] += square ? v * v : v;
      }
    for (; i < end; ++i)
      lanes[0] += square ? values[i] * values[i] : values[i];
  } else {
    bool nan = false;
    for (; i + kLanes <= end; i += kLanes)
      for (int lane = 0; lane < kLanes; ++lane) {
        double v = values[i + lane];
        nan |= v != v;
        lanes[lane] =
            kind == Min ? std::min(lanes[lane], v) : std::max(lanes[lane], v);
      }
    for (; i < end; ++i) {
      nan |= values[i] != values[i];
      lanes[0] = kind == Min ? std::min(lanes[0], values[i])
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
  const double *data = values->aligned + values->offset;
  int64_t size = values->sizes[0];
  int64_t threads = threadsFor(size, kMinValuesPerThread);
  std::vector<double> partials(threads, identity(kind));
  runThreads(threads, [&](int64_t t) {
    partials[t] =
        reduceRange(data, size * t / threads, size * (t + 1) / threads, kind);
  });
  double result = identity(kind);
  for (double partial : partials)
    result = combine(kind, result, partial);
  return result;
}
