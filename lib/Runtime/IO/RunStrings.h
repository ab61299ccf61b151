//===- RunStrings.h - Strings compiled code holds for the run ---*- C++ -*-===//

#ifndef AMLS_RUNTIME_IO_RUNSTRINGS_H
#define AMLS_RUNTIME_IO_RUNSTRINGS_H

#include <string>

namespace amls::runtime {

/// Keeps `text` until the process ends and returns it NUL-terminated: what
/// the runtime hands compiled code as an `!amls.string`.
const char *keepRunString(std::string text);

} // namespace amls::runtime

#endif // AMLS_RUNTIME_IO_RUNSTRINGS_H
