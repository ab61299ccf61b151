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

#include <cstdlib>
#include <string>

namespace amls::runtime::testing {

/// Whether the user asked to skip the GPU tests (AMLS_SKIP=gpu[,...], as
/// for lit: docs/testing.md).
inline bool skippingGpuTests() {
  const char *value = std::getenv("AMLS_SKIP");
  return value && (std::string(",") + value + ",").find(",gpu,") !=
                      std::string::npos;
}

/// Stops a test that needs a part of the CUDA toolkit which is missing: a
/// skip where AMLS_SKIP names gpu, otherwise a failure naming the part (no
/// silent skips).
#define AMLS_REQUIRE_CUDA_TOOLKIT(available, what)                             \
  do {                                                                         \
    if (!(available)) {                                                        \
      if (::amls::runtime::testing::skippingGpuTests())                        \
        GTEST_SKIP() << "AMLS_SKIP=gpu: " << (what);                           \
      FAIL() << (what) << " is missing: install the CUDA toolkit under "       \
             << "/usr/local/cuda, or set AMLS_SKIP=gpu";                       \
    }                                                                          \
  } while (false)

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
