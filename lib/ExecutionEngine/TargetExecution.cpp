//===- TargetExecution.cpp - The registry of device runtimes --------------===//

#include "AMLS/ExecutionEngine/TargetExecution.h"
#include "AMLS/Pipelines/Target.h"

#include "llvm/ADT/StringMap.h"

#include <mutex>

using namespace mlir;
using namespace mlir::amls;

TargetExecution::~TargetExecution() = default;

namespace {
struct Registry {
  std::mutex mutex;
  llvm::StringMap<std::unique_ptr<TargetExecution>> executions;
};

Registry &getRegistry() {
  static Registry registry;
  return registry;
}

void registerLocked(Registry &registry,
                    std::unique_ptr<TargetExecution> execution) {
  StringRef name = execution->getDeviceRuntime();
  registry.executions[name] = std::move(execution);
}
} // namespace

void mlir::amls::registerTargetExecution(
    std::unique_ptr<TargetExecution> execution) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registerLocked(registry, std::move(execution));
}

const TargetExecution *mlir::amls::getTargetExecution(const Target &target) {
  StringRef runtime = target.getDeviceRuntime();
  if (runtime.empty())
    return nullptr;
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  static bool builtins = [&] {
    registerLocked(registry, createCUDATargetExecution());
    registerLocked(registry, createMPITargetExecution());
    return true;
  }();
  (void)builtins;
  auto it = registry.executions.find(runtime);
  return it == registry.executions.end() ? nullptr : it->second.get();
}
