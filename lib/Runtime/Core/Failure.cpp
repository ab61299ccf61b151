//===- Failure.cpp - How the runtime stops a program ----------------------===//

#include "Failure.h"

#include <cstdio>
#include <cstdlib>

void amls::runtime::fail(const char *message) {
  // What the program printed before the error comes first.
  std::fflush(stdout);
  std::fprintf(stderr, "amls: %s\n", message);
  std::exit(1);
}
