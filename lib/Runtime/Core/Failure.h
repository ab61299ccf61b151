//===- Failure.h - How the runtime stops a program --------------*- C++ -*-===//
//
// Every run-time error of a compiled program (a check that fails, memory
// refused, a file that cannot be read) ends here: one place that prints
// "amls: <message>" after what the program printed and ends the process
// with status 1, or, under an embedding host's trap
// (AMLS/Runtime/Failure.h), jumps back to it. Call it with no lock held.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_CORE_FAILURE_H
#define AMLS_LIB_RUNTIME_CORE_FAILURE_H

#include <string>

namespace amls::runtime {

[[noreturn]] void fail(const char *message);
/// Takes the message by value and keeps a copy in a thread-local string
/// before failing: a trapped failure leaves by longjmp, which runs no
/// destructor, so a message built in the caller's frame (`fail("..." +
/// name)`) must not own memory there (its buffer is freed before the jump;
/// LeakSanitizer found both the temporary and, with a move assignment, the
/// thread-local string's previous buffer left to it).
[[noreturn]] void fail(std::string message);

} // namespace amls::runtime

#endif // AMLS_LIB_RUNTIME_CORE_FAILURE_H
