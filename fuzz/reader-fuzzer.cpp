//===- reader-fuzzer.cpp - libFuzzer target for the matrix file readers ---===//
//
// Feeds arbitrary bytes, as a file, to the CSV and Matrix Market readers
// (dense and CSR, threaded) and to the metadata the compiler reads from
// the same files. Any crash, sanitizer report, hang or allocation beyond
// the small budget set here is a bug: bad files must end in a message.
// Where both readers take a file, the CSR matrix must hold the dense one's
// cells (the CSR reader's own parsers are the dense reader's oracle).
// Built by the sanitizer build (fuzz/CMakeLists.txt) from libamls_runtime;
// `make fuzz-readers` runs it.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include <unistd.h>

// The readers take the runtime's thread count from here (Blas.cpp in the
// runtime, which the fuzzer does not link): two threads, as on this
// machine.
namespace {

using namespace amls::runtime;

/// Equal, or both NaN (-0 is 0: CSR drops zeros of either sign).
bool sameCell(double x, double y) { return x == y || (x != x && y != y); }

/// Traps unless `sparse` holds exactly the non-zero cells of `dense`.
void checkSame(const Matrix &dense, const CsrMatrix &sparse) {
  if (dense.rows != sparse.rows || dense.cols != sparse.cols)
    __builtin_trap();
  int64_t stored = 0;
  for (int64_t r = 0; r < dense.rows; ++r) {
    int64_t k = sparse.rowptr[r];
    for (int64_t c = 0; c < dense.cols; ++c) {
      bool listed = k < sparse.rowptr[r + 1] && sparse.colidx[k] == c;
      double cell = listed ? sparse.values[k++] : 0.0;
      if (!sameCell(cell, dense.at(r, c)) || (listed && cell == 0.0))
        __builtin_trap();
    }
    if (k != sparse.rowptr[r + 1])
      __builtin_trap();
    stored = k;
  }
  if (stored != sparse.nonZeros())
    __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::string path = [] {
    memory::setLimit(uint64_t(64) << 20);
    amls_rt_set_num_threads(2);
    return "/tmp/amls-reader-fuzz-" + std::to_string(getpid());
  }();
  std::string text(reinterpret_cast<const char *>(data), size);
  if (FILE *file = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, file);
    std::fclose(file);
  }
  for (FileFormat format :
       {AMLS_FILE_CSV, AMLS_FILE_MATRIX_MARKET, AMLS_FILE_TEXT}) {
    // A text-cell file's sizes as a read states them (no .mtd file).
    StatedShape stated{40, 40};
    Matrix dense;
    bool denseRead = readMatrix(path, format, dense, stated).empty();
    CsrMatrix sparse;
    if (readCsrMatrix(path, format, sparse, stated).empty() && denseRead)
      checkSame(dense, sparse);
  }
  MtdMetadata mtd;
  (void)parseMtd(text, mtd);
  std::istringstream in(text);
  (void)parseMatrixMarketMetadata(in);
  (void)readCsvShape(path);
  return 0;
}
