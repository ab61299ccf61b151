//===- Distributions.cpp - cdf and icdf of DML's distributions ------------===//
//
// amls.distribution at run time: AMLS/Runtime/Distributions.h computes it
// (Boost.Math); invalid parameters stop the program with the op's position.
//
//===----------------------------------------------------------------------===//

#include "../Core/Failure.h"

#include "AMLS/Runtime/Distributions.h"
#include "AMLS/Runtime/Runtime.h"

#include <string>

extern "C" double amls_rt_distribution(int32_t kind, int32_t inverse,
                                       int32_t upperTail, double x, double a,
                                       double b, const char *where) {
  amls::distributions::Result result =
      amls::distributions::evaluate(kind, inverse, upperTail, x, a, b);
  if (result.error)
    amls::runtime::fail(std::string(where) + ": " + result.error + " (" +
                        (inverse ? "probability " : "quantile ") +
                        std::to_string(x) + ", parameters " +
                        std::to_string(a) + ", " + std::to_string(b) + ")");
  return result.value;
}
