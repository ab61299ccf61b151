//===- TempFiles.h - Temporary files of the I/O tests -----------*- C++ -*-===//

#ifndef AMLS_UNITTESTS_RUNTIME_TEMPFILES_H
#define AMLS_UNITTESTS_RUNTIME_TEMPFILES_H

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace amls::iotest {

/// A fresh temporary directory, removed afterwards with its files and
/// their .mtd files.
class TempDir {
public:
  TempDir() {
    char name[] = "/tmp/amls-io-test-XXXXXX";
    path = mkdtemp(name);
  }
  ~TempDir() {
    for (const std::string &file : files) {
      std::remove(file.c_str());
      std::remove((file + ".mtd").c_str());
    }
    rmdir(path.c_str());
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  /// The path of file `name` in the directory, holding `contents` if any.
  std::string file(const std::string &name, const std::string &contents = "") {
    std::string full = path + "/" + name;
    if (!contents.empty())
      std::ofstream(full, std::ios::binary) << contents;
    files.push_back(full);
    return full;
  }

  std::string path;
  std::vector<std::string> files;
};

inline std::string contentsOf(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace amls::iotest

#endif // AMLS_UNITTESTS_RUNTIME_TEMPFILES_H
