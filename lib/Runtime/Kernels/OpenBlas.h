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
/// thread may open one. OpenBLAS is single-threaded outside a
/// ThreadedBlasSection anyway; this keeps a section opened around it
/// serial too.
class SerialBlasSection {
public:
  SerialBlasSection();
  ~SerialBlasSection();
  SerialBlasSection(const SerialBlasSection &) = delete;
  SerialBlasSection &operator=(const SerialBlasSection &) = delete;

private:
  int saved = 0;
};

/// OpenBLAS on amls_rt_set_num_threads's threads while alive, and
/// single-threaded again after: for the LAPACK routines large enough to
/// gain from OpenBLAS's own threads (the BLAS kernels split their work on
/// the OpenMP threads instead). Nothing outside the program's main thread,
/// inside a parallel region, or while amls_rt_blas_serial is set. Kept
/// single-threaded otherwise, OpenBLAS's idle threads never spin next to
/// the OpenMP workers (bench/threads.py).
class ThreadedBlasSection {
public:
  ThreadedBlasSection();
  ~ThreadedBlasSection();
  ThreadedBlasSection(const ThreadedBlasSection &) = delete;
  ThreadedBlasSection &operator=(const ThreadedBlasSection &) = delete;

private:
  bool raised = false;
};

} // namespace amls::runtime

#endif // AMLS_LIB_RUNTIME_KERNELS_OPENBLAS_H
