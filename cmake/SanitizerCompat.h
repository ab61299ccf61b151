/*===- SanitizerCompat.h - Force-included in sanitizer builds -------------===*
 *
 * LLVM's BumpPtrAllocator (llvm/Support/Allocator.h) poisons its slabs and
 * unpoisons each allocation when the translation unit is compiled with
 * AddressSanitizer. libMLIR is not: a slab poisoned by an inline copy in
 * AMLS's code and allocated from by libMLIR's copy stays poisoned, and the
 * first memcmp on it (MLIR's type uniquing) is a false use-after-poison.
 * The annotations are turned off in AMLS's code; the pool calls them by
 * their parenthesized names, which these function-like macros do not touch.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMLS_CMAKE_SANITIZERCOMPAT_H
#define AMLS_CMAKE_SANITIZERCOMPAT_H

#include <sanitizer/asan_interface.h>

#define __asan_poison_memory_region(address, bytes) ((void)(address), (void)(bytes))
#define __asan_unpoison_memory_region(address, bytes)                          \
  ((void)(address), (void)(bytes))

#endif
