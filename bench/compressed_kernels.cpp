//===- compressed_kernels.cpp - What the compressed kernels cost ----------===//
//
// bench/compressed.py's measuring half: reads a matrix (dense f64 as
// "AMLSMAT1", rows, cols, cells; or CSR as "AMLSCSR1", rows, cols, nnz, row
// offsets, column indices, values), plans and compresses it with the
// runtime, times each kernel on the compressed form (best of five), and
// prints one JSON object.
//
//   compressed_kernels FILE THREADS
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Compressed.h"
#include "AMLS/Runtime/Runtime.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

using namespace amls::runtime::compressed;

namespace {

double seconds(const std::function<void()> &fn) {
  auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

double best(const std::function<void()> &fn) {
  double fastest = 1e30;
  for (int i = 0; i < 5; ++i)
    fastest = std::min(fastest, seconds(fn));
  return fastest;
}

template <typename T> bool readArray(FILE *file, std::vector<T> &out, size_t n) {
  out.resize(n);
  return std::fread(out.data(), sizeof(T), n, file) == n;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: compressed_kernels FILE THREADS\n");
    return 2;
  }
  amls_rt_set_num_threads(std::atoi(argv[2]));
  FILE *file = std::fopen(argv[1], "rb");
  char magic[8];
  int64_t sizes[3] = {0, 0, 0};
  if (!file || std::fread(magic, 1, 8, file) != 8) {
    std::fprintf(stderr, "compressed_kernels: cannot read %s\n", argv[1]);
    return 1;
  }
  bool csr = std::memcmp(magic, "AMLSCSR1", 8) == 0;
  if (std::fread(sizes, 8, csr ? 3 : 2, file) != size_t(csr ? 3 : 2)) {
    std::fprintf(stderr, "compressed_kernels: %s: short header\n", argv[1]);
    return 1;
  }
  int64_t rows = sizes[0], cols = sizes[1];
  std::vector<double> cells, values;
  std::vector<int64_t> offsets;
  std::vector<int32_t> columns;
  bool complete =
      csr ? readArray(file, offsets, rows + 1) &&
                readArray(file, columns, sizes[2]) &&
                readArray(file, values, sizes[2])
          : readArray(file, cells, size_t(rows) * cols);
  std::fclose(file);
  if (!complete) {
    std::fprintf(stderr, "compressed_kernels: %s: short data\n", argv[1]);
    return 1;
  }
  Source source = csr ? Source::csr(rows, cols, offsets.data(),
                                    columns.data(), values.data())
                      : Source::dense(rows, cols, cells.data(), cols);

  CompressionPlan plan;
  double planSeconds = seconds([&] { plan = planCompression(source); });
  std::shared_ptr<const CompressedMatrix> x;
  double compressSeconds = seconds([&] { x = compress(source, plan); });
  // The source's memory is what a run without compression keeps.
  std::vector<double>().swap(cells);

  const int64_t k = 8;
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> v(cols), y(rows), w(cols * k), z(rows * k);
  for (double &e : v)
    e = unit(random);
  for (double &e : y)
    e = unit(random);
  for (double &e : w)
    e = unit(random);
  for (double &e : z)
    e = unit(random);
  std::vector<double> outRows(rows * k), outCols(cols * k),
      gram(cols * cols);

  std::printf("{\"rows\": %lld, \"cols\": %lld, \"source_bytes\": %llu, "
              "\"compressed_bytes\": %llu, \"groups\": %zu, "
              "\"plan_s\": %.6f, \"compress_s\": %.6f",
              (long long)rows, (long long)cols,
              (unsigned long long)source.getSizeInBytes(),
              (unsigned long long)x->getSizeInBytes(), x->getGroups().size(),
              planSeconds, compressSeconds);
  std::printf(", \"kernels\": {");
  std::printf("\"Xv\": %.6f",
              best([&] { x->multiplyRight(v.data(), 1, 1, outRows.data(), 1); }));
  std::printf(", \"tXv\": %.6f", best([&] {
                x->multiplyLeftTransposed(y.data(), 1, 1, outCols.data(), 1);
              }));
  std::printf(", \"XW\": %.6f", best([&] {
                x->multiplyRight(w.data(), k, k, outRows.data(), k);
              }));
  std::printf(", \"tXW\": %.6f", best([&] {
                x->multiplyLeftTransposed(z.data(), k, k, outCols.data(), k);
              }));
  if (cols <= 200)
    std::printf(", \"tXX\": %.6f",
                best([&] { x->multiplyTransposedSelf(gram.data(), cols); }));
  std::printf(", \"colSums\": %.6f",
              best([&] { x->colSums(outCols.data()); }));
  std::printf(", \"scalar\": %.6f",
              best([&] { x->map([](double e) { return e * 0.5; }); }));
  std::printf("}");
  // VmHWM, not getrusage: ru_maxrss keeps the parent's peak across exec.
  double peakKiB = 0;
  if (FILE *status = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof(line), status))
      if (std::sscanf(line, "VmHWM: %lf", &peakKiB) == 1)
        break;
    std::fclose(status);
  }
  std::printf(", \"peak_rss_mb\": %.1f", peakKiB / 1024.0);
  std::string described = plan.describe();
  std::string firstLine = described.substr(0, described.find('\n'));
  std::printf(", \"plan\": \"%s\"}\n", firstLine.c_str());
  return 0;
}
