//===- CsvRows.h - Parsing one row of a CSV file ----------------*- C++ -*-===//
//
// The row parser of the CSV reader (CsvReader.cpp), shared with the ranks
// of a distributed read (lib/Runtime/Distributed/PartitionedRead.cpp), so
// both accept exactly the same lines.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_IO_CSVROWS_H
#define AMLS_LIB_RUNTIME_IO_CSVROWS_H

#include <cstdint>

namespace amls::runtime {

/// A line's problem: the 1-based column of a field that is not a number,
/// or the number of fields when it is not `cols`; nothing (0, 0) when the
/// line is fine.
struct RowProblem {
  int64_t badColumn = 0;
  int64_t fields = 0;
  bool ok() const { return badColumn == 0 && fields == 0; }
};

/// Parses the fields of [begin, end), a line without its newline, into
/// `out` (`cols` values; an empty field is 0).
RowProblem parseRow(const char *begin, const char *end, int64_t cols,
                    double *out);

} // namespace amls::runtime

#endif // AMLS_LIB_RUNTIME_IO_CSVROWS_H
