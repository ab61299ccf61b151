//===- reader-fuzzer.cpp - libFuzzer target for the matrix file readers ---===//
//
// Feeds arbitrary bytes, as a file, to the CSV and Matrix Market readers
// (dense and CSR, threaded) and to the metadata the compiler reads from
// the same files. Any crash, sanitizer report, hang or allocation beyond
// the small budget set here is a bug: bad files must end in a message.
// Build and run with `make fuzz-readers` (clang-22, -fsanitize=fuzzer,
// address, undefined).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Memory.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include <unistd.h>

// The readers take the runtime's thread count from here (Blas.cpp in the
// runtime, which the fuzzer does not link): two threads, as on this
// machine.
extern "C" int32_t amls_rt_get_num_threads(void) { return 2; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace amls::runtime;
  static const std::string path = [] {
    memory::setLimit(uint64_t(64) << 20);
    return "/tmp/amls-reader-fuzz-" + std::to_string(getpid());
  }();
  std::string text(reinterpret_cast<const char *>(data), size);
  if (FILE *file = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, file);
    std::fclose(file);
  }
  for (FileFormat format : {AMLS_FILE_CSV, AMLS_FILE_MATRIX_MARKET}) {
    Matrix dense;
    (void)readMatrix(path, format, dense);
    CsrMatrix sparse;
    (void)readCsrMatrix(path, format, sparse);
  }
  std::istringstream in(text);
  (void)parseMatrixMarketMetadata(in);
  (void)readCsvShape(path);
  return 0;
}
