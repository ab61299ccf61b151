//===- FrameTestUtils.h - Frames built for the frame tests ------*- C++ -*-===//

#ifndef AMLS_UNITTESTS_RUNTIME_FRAMETESTUTILS_H
#define AMLS_UNITTESTS_RUNTIME_FRAMETESTUTILS_H

#include "AMLS/Runtime/Frame/Frame.h"

#include <string>
#include <vector>

namespace amls::runtime::frame {

/// A frame of string columns named `names`, a row per element of `rows`;
/// "" is a missing cell.
inline Frame stringFrame(const std::vector<std::string> &names,
                         const std::vector<std::vector<std::string>> &rows) {
  Frame frame;
  for (const std::string &name : names)
    frame.addColumn(name, AMLS_FRAME_STRING);
  for (const std::vector<std::string> &row : rows)
    for (size_t col = 0; col < names.size(); ++col) {
      if (row[col].empty())
        frame.column(col).appendMissing();
      else
        frame.column(col).appendString(row[col]);
    }
  frame.setRows(static_cast<int64_t>(rows.size()));
  return frame;
}

} // namespace amls::runtime::frame

#endif // AMLS_UNITTESTS_RUNTIME_FRAMETESTUTILS_H
