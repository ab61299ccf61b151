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
#include "AMLS/Runtime/ABI.h"
#include "AMLS/Runtime/Distributed.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <vector>

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
  std::pair<int64_t, int64_t> getProcessRank() const override {
    return {distributed::rank(), distributed::size()};
  }
  std::pair<int64_t, int64_t> getRowBlock(int64_t rows) const override {
    return {distributed::rowBegin(rows, distributed::rank()),
            distributed::rowCount(rows, distributed::rank())};
  }
  std::string
  combineRowBlocks(MutableArrayRef<RowBlockShape> blocks) const override;
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

/// Three collectives of a few numbers: the rows and non-zeros summed,
/// then the columns' range and whether every rank accepted its arguments
/// and holds its share of the rows.
std::string
MPIExecution::combineRowBlocks(MutableArrayRef<RowBlockShape> blocks) const {
  size_t count = blocks.size();
  std::vector<int64_t> rows(count);
  std::vector<double> nonZeros(count);
  for (auto [i, block] : llvm::enumerate(blocks)) {
    rows[i] = block.rows;
    nonZeros[i] = block.nonZeros;
  }
  bool accepted = llvm::all_of(
      blocks, [](const RowBlockShape &block) { return block.accepted; });
  distributed::allReduce(rows.data(), count, AMLS_AGG_SUM);
  distributed::allReduce(nonZeros.data(), count, AMLS_AGG_SUM);
  // Per block, minimized over the ranks: -cols, cols, the first rank whose
  // block is not its share, -csr and csr; then whether every rank accepted.
  int32_t rank = distributed::rank();
  std::vector<int64_t> checks;
  for (auto [i, block] : llvm::enumerate(blocks)) {
    block.wholeRows = rows[i];
    block.wholeNonZeros = nonZeros[i];
    checks.push_back(-block.cols);
    checks.push_back(block.cols);
    checks.push_back(block.rows == distributed::rowCount(rows[i], rank)
                         ? std::numeric_limits<int64_t>::max()
                         : rank);
    checks.push_back(-int64_t(block.csr));
    checks.push_back(int64_t(block.csr));
  }
  checks.push_back(accepted);
  distributed::allReduce(checks.data(), checks.size(), AMLS_AGG_MIN);
  if (!checks.back())
    return accepted ? "another rank's arguments were rejected (that rank "
                      "says why)"
                    : "this rank's arguments were rejected";
  for (auto [i, block] : llvm::enumerate(blocks)) {
    const int64_t *check = &checks[5 * i];
    int64_t fewest = check[1], most = -check[0];
    if (fewest != most)
      return llvm::formatv("the row blocks of '{0}' have {1} to {2} columns "
                           "on different ranks (this rank's: {3})",
                           block.name, fewest, most, block.cols)
          .str();
    if (check[3] != -check[4])
      return llvm::formatv("the row blocks of '{0}' are CSR on some ranks and "
                           "dense on others (this rank's: {1}); pass every "
                           "rank's block alike",
                           block.name, block.csr ? "CSR" : "dense")
          .str();
    int64_t wrongRank = check[2];
    if (wrongRank != std::numeric_limits<int64_t>::max()) {
      std::string mine =
          wrongRank == rank
              ? llvm::formatv(", {0} rows for its {1}", block.rows,
                              distributed::rowCount(block.wholeRows, rank))
                    .str()
              : "";
      return llvm::formatv(
                 "the row blocks of '{0}' are not the ranks' shares of its "
                 "{1} rows: rank {2} of {3} passed another count{4} (rank r "
                 "holds {1} / {3} rows, one more if r < {1} % {3}, in rank "
                 "order; Session.row_range({1}) is a rank's range)",
                 block.name, block.wholeRows, wrongRank, distributed::size(),
                 mine)
          .str();
    }
  }
  return "";
}

} // namespace

std::unique_ptr<TargetExecution> mlir::amls::createMPITargetExecution() {
  return std::make_unique<MPIExecution>();
}
