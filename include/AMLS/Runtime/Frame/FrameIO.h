//===- FrameIO.h - Frames in CSV files --------------------------*- C++ -*-===//
//
// Both functions return "" or the problem (with the path, line and column),
// for the caller to fail with once its own objects are gone (a failure may
// leave by longjmp).
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_FRAME_FRAMEIO_H
#define AMLS_RUNTIME_FRAME_FRAMEIO_H

#include "AMLS/Runtime/Frame/Frame.h"

#include <memory>
#include <string>
#include <vector>

namespace amls::runtime::frame {

struct CsvOptions {
  bool header = false;
  std::string sep = ",";
  /// Fields that are missing values (besides an empty unquoted field).
  std::vector<std::string> naStrings;
  /// A type per column; empty: every column is a string.
  std::vector<AmlsFrameValueType> schema;
};

std::string readCsv(const std::string &path, const CsvOptions &options,
                    std::unique_ptr<Frame> &result);

/// Writes the frame and its .mtd file (sizes, header, separator, schema).
std::string writeCsv(const Frame &frame, const std::string &path, bool header,
                     const std::string &sep);

} // namespace amls::runtime::frame

#endif // AMLS_RUNTIME_FRAME_FRAMEIO_H
