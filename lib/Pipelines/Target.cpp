//===- Target.cpp - The registry of targets -------------------------------===//
//
// Targets by name, created on first use in the order listed here; each
// registers its lowering schedule under its name for
// --convert-amls-to-linalg.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Pipelines/Target.h"
#include "AMLS/Conversion/AMLSToLinalg/LoweringSchedule.h"

#include "llvm/Support/ErrorHandling.h"

#include <mutex>
#include <vector>

using namespace mlir;
using namespace mlir::amls;

Target::~Target() = default;

namespace {

struct TargetRegistry {
  std::mutex mutex;
  std::vector<std::unique_ptr<Target>> targets;

  TargetRegistry() {
    add(createCPUTarget());
    add(createGPUTarget());
    add(createMPITarget());
    // --convert-amls-to-linalg without a schedule lowers for the default
    // target.
    for (const std::unique_ptr<Target> &target : targets)
      if (target->getName() == kDefaultTargetName)
        setDefaultLoweringSchedule(target->getLoweringSchedule());
  }

  void add(std::unique_ptr<Target> target) {
    // Lookups hand out pointers that must stay valid: no replacing.
    for (const std::unique_ptr<Target> &known : targets)
      if (known->getName() == target->getName())
        llvm::report_fatal_error("amls: target '" + target->getName().str() +
                                 "' registered twice");
    registerLoweringSchedule(target->getName(), target->getLoweringSchedule());
    target->registerPipelines();
    targets.push_back(std::move(target));
  }
};

TargetRegistry &getRegistry() {
  static TargetRegistry registry;
  return registry;
}

} // namespace

/// The first registered target that `matches`, or null.
static const Target *findTarget(function_ref<bool(const Target &)> matches) {
  TargetRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const std::unique_ptr<Target> &target : registry.targets)
    if (matches(*target))
      return target.get();
  return nullptr;
}

const Target *mlir::amls::lookupTarget(StringRef name) {
  return findTarget(
      [&](const Target &target) { return target.getName() == name; });
}

const Target *mlir::amls::lookupTargetForDeviceRuntime(StringRef runtime) {
  return findTarget([&](const Target &target) {
    return target.getDeviceRuntime() == runtime;
  });
}

void mlir::amls::registerTarget(std::unique_ptr<Target> target) {
  TargetRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.add(std::move(target));
}

void mlir::amls::registerBuiltinTargets() { (void)getRegistry(); }

std::string mlir::amls::listTargetNames() {
  TargetRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::string text;
  size_t count = registry.targets.size();
  for (size_t i = 0; i < count; ++i)
    text += (i == 0           ? "'"
             : i + 1 == count ? " or '"
                              : ", '") +
            registry.targets[i]->getName().str() + "'";
  return text;
}
