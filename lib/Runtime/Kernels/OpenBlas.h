//===- OpenBlas.h - Routines of the OpenBLAS the runtime loaded -*- C++ -*-===//
//
// Blas.cpp loads OpenBLAS on first use (and picks its CPU kernels); the
// LAPACK kernels (LinearAlgebra.cpp) look their routines up in the same
// library instead of loading it a second time.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_KERNELS_OPENBLAS_H
#define AMLS_LIB_RUNTIME_KERNELS_OPENBLAS_H

namespace amls::runtime {

/// The address of `name` in the loaded OpenBLAS, or null when OpenBLAS is
/// missing or lacks it.
void *openBlasSymbol(const char *name);

/// OpenBLAS single-threaded while alive (its thread count restored after),
/// for BLAS calls from several OpenMP threads at once: OpenBLAS's own
/// threads would compete with them for the cores. Only the program's main
/// thread may open one.
class SerialBlasSection {
public:
  SerialBlasSection();
  ~SerialBlasSection();
  SerialBlasSection(const SerialBlasSection &) = delete;
  SerialBlasSection &operator=(const SerialBlasSection &) = delete;

private:
  int saved = 0;
};

} // namespace amls::runtime

#endif // AMLS_LIB_RUNTIME_KERNELS_OPENBLAS_H
