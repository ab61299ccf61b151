//===- PartitionedWrite.cpp - The ranks write their rows of one file ------===//
//
// A row-partitioned `amls.write` (--amls-distribute): one ordered write.
// The ranks agree on the whole matrix's rows and non-zeros (one
// all-reduce), then write their parts of the file in rank order, each rank
// appending its rows to what the ranks before it wrote (rank 0 creates the
// file and writes the header), with an all-reduce between turns. Nothing
// is gathered: each rank formats only its block, on its threads, and the
// file has the bytes one process writes for the whole matrix. Rank 0 then
// writes the .mtd file. A failure on a rank's turn ends every rank with
// its message.
//
//===----------------------------------------------------------------------===//

#include "../Core/Failure.h"
#include "AMLS/Runtime/Distributed.h"
#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/MatrixIO.h"
#include "Communication.h"

#include <string>

using namespace amls::runtime;
using namespace amls::runtime::distributed;

namespace {

/// Writes the block of every rank of a matrix of `cols` columns, whose
/// block on this rank has `rows` rows and `nonZeros` non-zeros, through
/// `writePart` (the block as the FilePart it is given).
template <typename WritePart>
void writeInTurn(const char *path, int32_t format, int64_t rows,
                 int64_t cols, int64_t nonZeros, WritePart &&writePart) {
  int64_t whole[2] = {rows, nonZeros};
  allReduce(whole, 2, AMLS_AGG_SUM);
  FilePart part;
  part.wholeRows = whole[0];
  part.wholeNonZeros = whole[1];
  part.firstRow = rowBegin(whole[0], rank());
  part.first = rank() == 0;
  for (int32_t turn = 0; turn < size(); ++turn) {
    if (turn == rank()) {
      std::string error = writePart(part);
      if (!error.empty())
        fail(std::move(error));
    }
    // The next rank appends once this one has closed the file (an
    // all-reduce as the barrier: the backend's collectives are the
    // runtime's counted ones, MPIBackend.h, and have no MPI_Barrier).
    if (size() > 1) {
      int64_t done = 1;
      allReduce(&done, 1, AMLS_AGG_SUM);
    }
  }
  if (!isOutputRank())
    return;
  std::string error = writeMatrixMtdFor(path, static_cast<AmlsFileFormat>(format),
                                        whole[0], cols, whole[1]);
  if (!error.empty())
    fail(std::move(error));
}

} // namespace

extern "C" void _mlir_ciface_amls_rt_dist_write(AmlsMatrixF64 *block,
                                                const char *path,
                                                int32_t format) {
  MatrixView view{block->aligned + block->offset, block->sizes[0],
                  block->sizes[1], block->strides[0], block->strides[1]};
  int64_t nonZeros = 0;
  for (int64_t r = 0; r < view.rows; ++r)
    for (int64_t c = 0; c < view.cols; ++c)
      nonZeros += view.at(r, c) != 0.0;
  writeInTurn(path, format, view.rows, view.cols, nonZeros,
              [&](const FilePart &part) {
                return writeMatrixPart(
                    path, static_cast<AmlsFileFormat>(format), view, part);
              });
}

extern "C" void _mlir_ciface_amls_rt_dist_csr_write(AmlsVectorI64 *rowptr,
                                                    AmlsVectorI32 *colidx,
                                                    AmlsVectorF64 *values,
                                                    int64_t cols,
                                                    const char *path,
                                                    int32_t format) {
  CsrMatrixView matrix = CsrMatrixView::of(rowptr, colidx, values, cols);
  // Stored entries may be explicit zeros.
  int64_t nonZeros = 0;
  for (int64_t k = 0; k < matrix.rowptr[matrix.rows]; ++k)
    nonZeros += matrix.values[k] != 0.0;
  writeInTurn(path, format, matrix.rows, matrix.cols, nonZeros,
              [&](const FilePart &part) {
                return writeMatrixPart(
                    path, static_cast<AmlsFileFormat>(format), matrix, part);
              });
}
