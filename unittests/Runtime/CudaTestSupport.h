//===- CudaTestSupport.h - Tests of calls that need a device ----*- C++ -*-===//
//
// Shared by the GPU runtime's tests (CudaRuntimeTest.cpp, CusparseTest.cpp):
// a call that needs the device stops the program with the reason where no
// device is ready, which these machines are.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_UNITTESTS_RUNTIME_CUDATESTSUPPORT_H
#define AMLS_UNITTESTS_RUNTIME_CUDATESTSUPPORT_H

#include "AMLS/Runtime/CUDA.h"
#include "AMLS/Runtime/Failure.h"

#include "gtest/gtest.h"

#include <string>

namespace amls::runtime::testing {

/// Runs `body`, a call that needs the device, under a failure trap.
/// Without a ready device, expects it to have stopped with the reason and
/// returns false; with one, expects it to have returned and returns true
/// (the caller checks what it did).
template <typename Body> bool runNeedingTheDevice(Body body) {
  std::string message;
  bool returned = runTrappingFailures(
      [](void *context) { (*static_cast<Body *>(context))(); }, &body, message);
  std::string problem = cuda::initialize();
  if (!problem.empty()) {
    EXPECT_FALSE(returned);
    EXPECT_EQ(message, "--target=gpu: " + problem);
    return false;
  }
  EXPECT_TRUE(returned) << message;
  return returned;
}

} // namespace amls::runtime::testing

#endif // AMLS_UNITTESTS_RUNTIME_CUDATESTSUPPORT_H
