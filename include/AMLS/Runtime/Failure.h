//===- Failure.h - Failures returned to an embedding host ------*- C++ -*-===//
//
// A run-time error of a compiled program (a check that fails, memory
// refused, a file that cannot be read, stop()) ends the process with status
// 1 after printing "amls: <message>": what amls-run wants. A host that
// embeds AMLS (the C API, the Python package) runs compiled code through
// runTrappingFailures instead, and gets the message back.
//
// The failure returns by longjmp from the runtime's failure point to the
// trap: compiled code holds no C++ objects, and the runtime calls fail()
// with no lock held. Inside a parallel region (a parallel loop, a parfor's
// workers) the jump goes to a trap the compiled code set around the
// region's iteration (amls_rt_region_trap in Runtime.h, from
// --amls-trap-parallel-failures and --amls-parfor-workers): the region's
// other iterations are skipped, its threads join as usual, and the failure
// is raised again on the thread that started the region. What cannot come
// back: a failure in a parallel region of the runtime's own kernels, or
// on a thread the host started without a trap, still ends the process;
// and the buffers the program held when it failed are not freed (the
// pool's budget counts them until the process ends).
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_FAILURE_H
#define AMLS_RUNTIME_FAILURE_H

#include <string>

namespace amls::runtime {

/// Calls `body(context)`. Returns true when it returned; false when the
/// runtime failed on this thread while it ran, with the failure's message
/// in `message` (nothing printed). Traps nest.
bool runTrappingFailures(void (*body)(void *), void *context,
                         std::string &message);

/// Failures returned to a trap since the process started.
unsigned getTrappedFailures();

} // namespace amls::runtime

#endif // AMLS_RUNTIME_FAILURE_H
