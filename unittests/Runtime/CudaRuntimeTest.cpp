//===- CudaRuntimeTest.cpp - libamls_cuda_runtime without a device -------===//
//
// What the GPU runtime does on a machine without a GPU: loading the driver
// and saying what is missing, the toolkit's stub driver refusing to
// initialize, chip names, and the pool taking its blocks from another
// source (how --target=gpu backs it with managed memory).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/CUDA.h"
#include "AMLS/Runtime/Memory.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

using namespace amls::runtime;

namespace {

bool exists(const char *path) {
  struct stat info;
  return stat(path, &info) == 0;
}

TEST(CudaRuntimeTest, MissingDriverIsNamed) {
  std::string problem = cuda::loadDriver("libamls-no-such-driver.so.1");
  EXPECT_NE(problem.find("no CUDA driver"), std::string::npos) << problem;
  EXPECT_NE(problem.find("libamls-no-such-driver.so.1"), std::string::npos)
      << problem;
}

TEST(CudaRuntimeTest, LibraryWithoutTheDriverFunctionsIsRefused) {
  std::string problem = cuda::loadDriver("libm.so.6");
  EXPECT_EQ(problem, "no CUDA driver: libm.so.6 lacks cuInit");
}

TEST(CudaRuntimeTest, StubDriverHasNoDevice) {
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (exists("/dev/nvidiactl"))
    GTEST_SKIP() << "a real driver is installed";
  if (!exists(stub))
    GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
  // The stub has every entry point, so it loads; cuInit then refuses.
  EXPECT_EQ(cuda::loadDriver(stub), "");
  std::string problem = cuda::initialize();
  EXPECT_NE(problem.find("no CUDA device: cuInit failed: "
                         "CUDA_ERROR_STUB_LIBRARY"),
            std::string::npos)
      << problem;
  // The answer is kept.
  EXPECT_EQ(cuda::initialize(), problem);
}

TEST(CudaRuntimeTest, ChipNames) {
  EXPECT_EQ(cuda::chipName(9, 0), "sm_90");
  EXPECT_EQ(cuda::chipName(8, 6), "sm_86");
  EXPECT_EQ(cuda::chipName(10, 0), "sm_100");
}

std::atomic<int> sourceBlocks{0};
void *allocateCounted(uint64_t bytes) {
  ++sourceBlocks;
  return std::aligned_alloc(memory::kAlignment, bytes);
}
void releaseCounted(void *block) {
  --sourceBlocks;
  std::free(block);
}
const memory::BlockSource countedSource = {allocateCounted, releaseCounted};

TEST(MemoryBlockSourceTest, BlocksComeFromTheInstalledSource) {
  memory::trim();
  void *before = memory::allocate(4096);
  memory::setBlockSource(&countedSource);
  void *first = memory::allocate(4096);
  void *second = memory::allocate(1 << 20);
  EXPECT_EQ(sourceBlocks.load(), 2);
  // Freed and allocated again: reused from the pool, no new block.
  memory::release(first);
  void *again = memory::allocate(4096);
  EXPECT_EQ(sourceBlocks.load(), 2);
  // A system block freed now is not cached for the new source's users.
  memory::release(before);
  void *third = memory::allocate(4096);
  EXPECT_EQ(sourceBlocks.load(), 3);
  memory::release(again);
  memory::release(second);
  memory::release(third);
  // Back to the system: the cached blocks return to their source.
  memory::setBlockSource(nullptr);
  EXPECT_EQ(sourceBlocks.load(), 0);
  void *system = memory::allocate(4096);
  EXPECT_EQ(sourceBlocks.load(), 0);
  memory::release(system);
}

/// Blocks whose header sits alone in the page before the payload (the
/// managed memory of --target=gpu).
std::atomic<void *> lastBlock{nullptr};
void *allocatePaged(uint64_t bytes) {
  void *block = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  lastBlock = block;
  ++sourceBlocks;
  return block;
}
const memory::BlockSource pagedSource = {allocatePaged, releaseCounted,
                                         /*headerBytes=*/4096};

TEST(MemoryBlockSourceTest, HeaderPageKeepsThePayloadApart) {
  memory::trim();
  memory::setBlockSource(&pagedSource);
  for (uint64_t bytes : {uint64_t(8), uint64_t(4096), uint64_t(1) << 20}) {
    void *buffer = memory::allocate(bytes);
    // The payload starts on the page after the block's first.
    EXPECT_EQ(static_cast<char *>(buffer) -
                  static_cast<char *>(lastBlock.load()),
              4096);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer) % 4096, 0u);
    std::memset(buffer, 0xab, bytes);
    memory::release(buffer);
    // Reused: the pool recognises its own block with the page in front.
    int blocks = sourceBlocks.load();
    void *again = memory::allocate(bytes);
    EXPECT_EQ(again, buffer);
    EXPECT_EQ(sourceBlocks.load(), blocks);
    memory::release(again);
  }
  memory::setBlockSource(nullptr);
  EXPECT_EQ(sourceBlocks.load(), 0);
}

} // namespace
