//===- LoweringSchedule.cpp - The schedules targets register --------------===//
//
// The lowering asks a schedule by name; targets register theirs, so the
// conversion knows no target.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Conversion/AMLSToLinalg/LoweringSchedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>

using namespace mlir::amls;

namespace {

struct ScheduleRegistry {
  std::mutex mutex;
  llvm::StringMap<const LoweringSchedule *> schedules;
  /// The targets' names in the order they registered (for messages).
  llvm::SmallVector<std::string> targetNames;

  ScheduleRegistry() {
    static const LoweringSchedule generic;
    schedules["generic"] = &generic;
    schedules[""] = &generic;
  }
};

ScheduleRegistry &getRegistry() {
  static ScheduleRegistry registry;
  return registry;
}

} // namespace

void mlir::amls::registerLoweringSchedule(llvm::StringRef name,
                                          const LoweringSchedule &schedule) {
  ScheduleRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (!registry.schedules.count(name))
    registry.targetNames.push_back(name.str());
  registry.schedules[name] = &schedule;
}

void mlir::amls::setDefaultLoweringSchedule(const LoweringSchedule &schedule) {
  ScheduleRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.schedules[""] = &schedule;
}

const LoweringSchedule *
mlir::amls::lookupLoweringSchedule(llvm::StringRef name) {
  ScheduleRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.schedules.lookup(name);
}

std::string mlir::amls::listLoweringScheduleNames() {
  ScheduleRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  llvm::SmallVector<std::string> names(registry.targetNames);
  names.push_back("generic");
  std::string text;
  for (auto [i, name] : llvm::enumerate(names))
    text += (i == 0 ? "'" : i + 1 == names.size() ? " or '" : ", '") +
            name + "'";
  return text;
}
