//===- MPIExecution.cpp - Running programs on the ranks of an MPI job -----===//
//
// The session's half of the MPI target: joins the job this process was
// launched in (or runs on one rank without a launcher) and reports what
// each collective moved. The caller's inputs stay where they are: every
// rank's code runs on the host.
//
//===----------------------------------------------------------------------===//

#include "AMLS/ExecutionEngine/Session.h"
#include "AMLS/ExecutionEngine/TargetExecution.h"
#include "AMLS/Runtime/Distributed.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::amls;
namespace distributed = ::amls::runtime::distributed;

namespace {

class MPIExecution : public TargetExecution {
public:
  StringRef getDeviceRuntime() const override { return "mpi"; }
  std::string prepare(SessionOptions &options) const override {
    std::string problem = distributed::initialize();
    if (!problem.empty())
      return "--target=" + options.target + ": " + problem;
    // Every rank compiles the same program: rank 0 explains it.
    if (!distributed::isOutputRank()) {
      options.distributeExplain = false;
      options.fusionExplain = false;
      options.formatsExplain = false;
      options.parforExplain = false;
    }
    return "";
  }
  bool readsInputsInPlace() const override { return true; }
  bool isReportingProcess() const override {
    return distributed::isOutputRank();
  }
  /// Rank 0 prints every rank's collectives (gathered, so that the ranks'
  /// lines do not interleave).
  void printStatistics(llvm::raw_ostream &os,
                       const SessionOptions &options) const override {
    auto ranks = distributed::gatherStatistics();
    if (!distributed::isOutputRank())
      return;
    std::string library = distributed::libraryName();
    os << llvm::formatv("amls-run mpi: {0} rank(s){1}\n", ranks.size(),
                        library.empty() ? std::string(", no MPI")
                                        : ", " + library);
    for (auto [rank, collectives] : llvm::enumerate(ranks))
      for (auto [c, s] : llvm::enumerate(collectives))
        os << llvm::formatv(
            "amls-run mpi: rank {0} {1}: {2} call(s), {3} bytes sent, {4} "
            "bytes received, {5:F3} s\n",
            rank,
            distributed::getCollectiveName(
                static_cast<distributed::Collective>(c)),
            s.calls, s.bytesSent, s.bytesReceived, s.seconds);
  }
};

} // namespace

std::unique_ptr<TargetExecution> mlir::amls::createMPITargetExecution() {
  return std::make_unique<MPIExecution>();
}
