//===- AMLSDistribution.cpp - amls.distribution ---------------------------===//
//
// The verifier and folder of amls.distribution. Both use the runtime's
// definition (AMLS/Runtime/Distributions.h, Boost.Math), so a folded
// constant is what the program would compute.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Runtime/Distributions.h"

#include "mlir/IR/Matchers.h"

#include <array>
#include <cmath>

using namespace mlir;
using namespace mlir::amls;

unsigned DistributionOp::getNumParameters(Distribution dist) {
  return dist == Distribution::Normal || dist == Distribution::F ? 2 : 1;
}

/// The operands' values, NaN where they are not constants.
static std::array<double, 3> constantOperands(DistributionOp op) {
  std::array<double, 3> values = {NAN, NAN, NAN};
  auto read = [](Value v) {
    FloatAttr attr;
    return v && matchPattern(v, m_Constant(&attr)) ? attr.getValueAsDouble()
                                                   : NAN;
  };
  values[0] = read(op.getTarget());
  for (auto [i, p] : llvm::enumerate(op.getParameters()))
    values[i + 1] = read(p);
  return values;
}

LogicalResult DistributionOp::verify() {
  unsigned expected = getNumParameters(getDist());
  if (getParameters().size() != expected)
    return emitOpError("distribution '")
           << stringifyDistribution(getDist()) << "' takes " << expected
           << " parameter(s), found " << getParameters().size();
  // Check the constant parameters one at a time, with 1 (valid for every
  // parameter) standing for the other one.
  std::array<double, 3> values = constantOperands(*this);
  for (unsigned i = 0; i < expected; ++i) {
    if (!matchPattern(getParameters()[i], m_Constant()))
      continue;
    double a = i == 0 ? values[1] : 1.0;
    double b = i == 1 ? values[2] : 1.0;
    if (const char *error = ::amls::distributions::checkParameters(
            static_cast<int32_t>(getDist()), a, b))
      return emitOpError(error) << ", found " << values[i + 1];
  }
  double p = values[0];
  if (getInverse() && (p < 0 || p > 1))
    return emitOpError("expects a probability in [0, 1], found ") << p;
  return success();
}

OpFoldResult DistributionOp::fold(FoldAdaptor adaptor) {
  double values[3] = {0, 0, 0};
  auto operands = adaptor.getOperands();
  for (auto [i, attr] : llvm::enumerate(operands)) {
    auto constant = dyn_cast_if_present<FloatAttr>(attr);
    if (!constant)
      return {};
    values[i] = constant.getValueAsDouble();
  }
  ::amls::distributions::Result result = ::amls::distributions::evaluate(
      static_cast<int32_t>(getDist()), getInverse(), getUpperTail(), values[0],
      values[1], values[2]);
  if (result.error)
    return {};
  return FloatAttr::get(getType(), result.value);
}
