//===- Context.cpp - The runtime state of one execution session -----------===//

#include "AMLS/Runtime/Context.h"

#include <algorithm>

using namespace amls::runtime;

namespace {
thread_local Context *installed = nullptr;
} // namespace

Context *Context::create() { return new Context(); }

Context &Context::processDefault() {
  // Never destroyed: buffers may be released during static destruction.
  static Context *instance = new Context();
  return *instance;
}

Context &Context::current() {
  Context *context = installed;
  return context ? *context : processDefault();
}

void Context::release() {
  if (references.fetch_sub(1, std::memory_order_acq_rel) == 1 &&
      this != &processDefault())
    delete this;
}

uint64_t Context::getMemoryLimit() const {
  uint64_t bytes = memory.limit.load(std::memory_order_relaxed);
  return bytes ? bytes : memory::defaultLimit();
}

int32_t Context::getThreads() const {
  return std::max<int32_t>(threads.load(std::memory_order_relaxed), 1);
}

Context *amls::runtime::getInstalledContext() { return installed; }

Context *amls::runtime::exchangeInstalledContext(Context *context) {
  Context *outer = installed;
  installed = context;
  return outer;
}

ScopedContext::ScopedContext(Context *context)
    : outer(exchangeInstalledContext(context)) {}

ScopedContext::~ScopedContext() { exchangeInstalledContext(outer); }
