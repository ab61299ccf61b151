//===- MappedFile.h - A file mapped for reading -----------------*- C++ -*-===//
//
// The text readers (matrix CSV, frame CSV) parse the mapped bytes in place:
// no copy of the file, and threads read disjoint ranges of it.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_IO_MAPPEDFILE_H
#define AMLS_RUNTIME_IO_MAPPEDFILE_H

#include <cstddef>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace amls::runtime {

/// `opened` is false when the file cannot be opened or mapped; an empty
/// file is opened with no data.
class MappedFile {
public:
  explicit MappedFile(const std::string &path) {
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0)
      return;
    struct stat info;
    if (fstat(fd, &info) == 0) {
      size = static_cast<size_t>(info.st_size);
      opened = true;
      if (size > 0) {
        void *mapped = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (mapped == MAP_FAILED) {
          opened = false;
        } else {
          data = static_cast<const char *>(mapped);
          madvise(mapped, size, MADV_SEQUENTIAL);
        }
      }
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data)
      munmap(const_cast<char *>(data), size);
  }
  bool opened = false;
  const char *data = nullptr;
  size_t size = 0;
};

} // namespace amls::runtime

#endif // AMLS_RUNTIME_IO_MAPPEDFILE_H
