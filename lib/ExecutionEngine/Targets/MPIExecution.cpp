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
    return "";
  }
  bool readsInputsInPlace() const override { return true; }
  void printStatistics(llvm::raw_ostream &os,
                       const SessionOptions &options) const override {
    std::string library = distributed::libraryName();
    os << llvm::formatv("amls-run mpi: rank {0} of {1}{2}\n",
                        distributed::rank(), distributed::size(),
                        library.empty() ? std::string(" (no MPI)")
                                        : ", " + library);
    for (int c = 0; c < static_cast<int>(distributed::Collective::Count);
         ++c) {
      auto collective = static_cast<distributed::Collective>(c);
      distributed::CollectiveStatistics s =
          distributed::getStatistics(collective);
      os << llvm::formatv("amls-run mpi: rank {0} {1}: {2} call(s), {3} bytes "
                          "sent, {4} bytes received, {5:F3} s\n",
                          distributed::rank(),
                          distributed::getCollectiveName(collective), s.calls,
                          s.bytesSent, s.bytesReceived, s.seconds);
    }
  }
};

} // namespace

std::unique_ptr<TargetExecution> mlir::amls::createMPITargetExecution() {
  return std::make_unique<MPIExecution>();
}
