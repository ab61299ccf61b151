//===- ProcessGrid.cpp - The ranks of a distributed run --------------------===//
//
// Finds the MPI the job was launched with from the launcher's environment,
// loads its backend (MPIBackend.h) from beside libamls_runtime, and keeps
// the process's rank, rank count and collective statistics.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Distributed.h"
#include "AMLS/Runtime/MPIBackend.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <string>

using namespace amls::runtime;

namespace {

struct ProcessGrid {
  std::mutex lock;
  bool initialized = false;
  const AmlsMpiBackend *backend = nullptr;
  int32_t rank = 0;
  int32_t size = 1;
};

ProcessGrid &grid() {
  static ProcessGrid instance;
  return instance;
}

distributed::CollectiveStatistics
    statistics[static_cast<int>(distributed::Collective::Count)];

/// The backend's library name for the job's launcher, or "" when the
/// process was not started by one. AMLS_MPI=openmpi|mpich overrides it.
std::string detectBackend() {
  if (const char *named = std::getenv("AMLS_MPI"); named && *named)
    return named;
  if (std::getenv("OMPI_COMM_WORLD_SIZE"))
    return "openmpi";
  // MPICH's Hydra (and Slurm's PMI) launchers.
  if (std::getenv("PMI_SIZE") || std::getenv("PMI_RANK") ||
      std::getenv("MPI_LOCALNRANKS"))
    return "mpich";
  return "";
}

/// The directory libamls_runtime was loaded from (the backends lie beside
/// it in the build and in an installation).
std::string runtimeDirectory() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&distributed::initialize), &info) ||
      !info.dli_fname)
    return "";
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

/// Open MPI's default point-to-point layer probes the network transports
/// (UCX, libfabric) in MPI_Init: 0.2 s on this machine, a tenth of a
/// 1M-vertex PageRank. A job whose ranks all run on one node talks through
/// shared memory, which the ob1 layer uses; such a job gets it unless the
/// user chose a layer (`mpirun --mca pml ...`, which mpirun passes as
/// OMPI_MCA_pml, or that variable).
void chooseOpenMPITransport() {
  const char *size = std::getenv("OMPI_COMM_WORLD_SIZE");
  const char *local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (std::getenv("OMPI_MCA_pml") || !size || !local ||
      std::strcmp(size, local) != 0)
    return;
  setenv("OMPI_MCA_pml", "ob1", /*overwrite=*/0);
}

} // namespace

std::string distributed::initialize() {
  ProcessGrid &g = grid();
  std::lock_guard<std::mutex> guard(g.lock);
  if (g.initialized)
    return "";
  std::string name = detectBackend();
  if (name.empty()) {
    g.initialized = true; // One rank, no MPI.
    return "";
  }
  if (name != "openmpi" && name != "mpich")
    return "expected AMLS_MPI 'openmpi' or 'mpich', found '" + name + "'";
  if (name == "openmpi")
    chooseOpenMPITransport();
  std::string library = runtimeDirectory() + "libamls_mpi_" + name + ".so";
  // Global: Open MPI's components, loaded by libmpi, resolve libmpi's
  // symbols through the global scope.
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char *why = dlerror();
    return "cannot load the " + name + " backend of a distributed run: " +
           (why ? why : library) +
           " (AMLS was built without that MPI, or it is not installed)";
  }
  auto entry = reinterpret_cast<const AmlsMpiBackend *(*)()>(
      dlsym(handle, "amls_mpi_backend"));
  if (!entry)
    return library + " lacks amls_mpi_backend";
  const AmlsMpiBackend *backend = entry();
  if (backend->init())
    return std::string("cannot join the MPI job: ") + backend->lastError();
  g.backend = backend;
  g.rank = backend->rank();
  g.size = backend->size();
  g.initialized = true;
  // The launcher counts a rank that ends without MPI_Finalize as failed.
  static bool finalizeAtExit = [] {
    std::atexit([] { distributed::finalize(); });
    return true;
  }();
  (void)finalizeAtExit;
  return "";
}

void distributed::finalize() {
  ProcessGrid &g = grid();
  std::lock_guard<std::mutex> guard(g.lock);
  if (g.backend)
    g.backend->finalize();
  g.backend = nullptr;
  g.rank = 0;
  g.size = 1;
  g.initialized = false;
}

int32_t distributed::rank() { return grid().rank; }
int32_t distributed::size() { return grid().size; }
bool distributed::isOutputRank() { return grid().rank == 0; }

std::string distributed::libraryName() {
  const AmlsMpiBackend *backend = grid().backend;
  return backend ? backend->libraryVersion() : "";
}

void distributed::failAll(const std::string &message) {
  std::fflush(stdout);
  ProcessGrid &g = grid();
  if (!g.backend || g.size == 1) {
    std::fprintf(stderr, "amls: %s\n", message.c_str());
    std::exit(1);
  }
  std::fprintf(stderr, "amls: [rank %d of %d] %s\n", g.rank, g.size,
               message.c_str());
  std::fflush(stderr);
  g.backend->abortAll(1);
  std::exit(1); // MPI_Abort does not return; if it did, still end this rank.
}

int64_t distributed::rowBegin(int64_t rows, int32_t rank) {
  int64_t ranks = size();
  int64_t base = rows / ranks, extra = rows % ranks;
  return rank * base + std::min<int64_t>(rank, extra);
}

int64_t distributed::rowCount(int64_t rows, int32_t rank) {
  int64_t ranks = size();
  return rows / ranks + (rank < rows % ranks ? 1 : 0);
}

const char *distributed::getCollectiveName(Collective collective) {
  switch (collective) {
  case Collective::AllReduce:
    return "all-reduce";
  case Collective::AllGather:
    return "all-gather";
  case Collective::AllToAll:
    return "all-to-all";
  case Collective::Count:
    break;
  }
  return "?";
}

distributed::CollectiveStatistics
distributed::getStatistics(Collective collective) {
  return statistics[static_cast<int>(collective)];
}

void distributed::resetStatistics() {
  for (CollectiveStatistics &s : statistics)
    s = CollectiveStatistics();
}

namespace amls::runtime::distributed::detail {
const AmlsMpiBackend *backend() { return grid().backend; }
CollectiveStatistics &statisticsOf(Collective collective) {
  return statistics[static_cast<int>(collective)];
}
} // namespace amls::runtime::distributed::detail
