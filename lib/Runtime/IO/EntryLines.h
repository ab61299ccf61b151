//===- EntryLines.h - Parsing the entry lines of coordinate files -*- C++ -*-===//
//
// The fast parser of Matrix Market and text-cell entry lines ("<row> <col>
// [<value>]") and a read-only mapping of a file, shared by the threads of
// the parallel coordinate reader (CoordinateReader.cpp) and by the ranks
// of a distributed read (lib/Runtime/Distributed/PartitionedRead.cpp),
// each of which touches only its own part of the mapping.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_IO_ENTRYLINES_H
#define AMLS_LIB_RUNTIME_IO_ENTRYLINES_H

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace amls::runtime::entry_lines {

//===----------------------------------------------------------------------===//
// Entry lines
//===----------------------------------------------------------------------===//

/// 10^k, exact as doubles for k <= 22.
constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                   1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16};

inline bool isBlank(char c) { return c == ' ' || c == '\t'; }
inline bool isDigit(char c) { return static_cast<unsigned>(c - '0') < 10; }
inline bool endsField(const char *q, const char *end) {
  return q == end || isBlank(*q) || *q == '\r' || *q == '\n';
}

/// 10^k as integers, k <= 8.
constexpr uint64_t kIntegerPowersOfTen[] = {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

/// The number of 8 digits (minus '0' each, the first in the lowest byte).
inline uint64_t eightDigits(uint64_t digits) {
  digits = digits * 10 + (digits >> 8);
  return (((digits & 0x000000FF000000FFULL) * 0x000F424000000064ULL) +
          (((digits >> 16) & 0x000000FF000000FFULL) * 0x0000271000000001ULL)) >>
             32 &
         0xFFFFFFFFULL;
}

/// Appends the digits at `q` to `value` (which may wrap beyond 19 digits:
/// the callers refuse so many) and returns their count. Eight bytes at a
/// time where the part has them: a number's length then costs no branch
/// per digit, and the lengths of column indices are random.
inline int scanDigits(const char *&q, const char *end, uint64_t &value) {
  int count = 0;
  while (end - q >= 8) {
    uint64_t chunk;
    std::memcpy(&chunk, q, 8);
    uint64_t digits = chunk - 0x3030303030303030ULL;
    // The high bit of each byte that is not a digit (bytes after the first
    // such may be wrong: borrows and carries go up, and they are unused).
    uint64_t other =
        (digits | (digits + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
    int length = other ? __builtin_ctzll(other) / 8 : 8;
    if (length == 0)
      return count;
    // The digits to the high bytes, zeros (leading zeros) before them.
    digits <<= 8 * (8 - length);
    value = value * kIntegerPowersOfTen[length] + eightDigits(digits);
    q += length;
    count += length;
    if (length < 8)
      return count;
  }
  for (; q < end && isDigit(*q); ++q, ++count)
    value = value * 10 + (*q - '0');
  return count;
}

/// A 1-based index: 1 to 18 digits (no overflow), then the field's end.
inline bool parseIndex(const char *&q, const char *end, int64_t &out) {
  uint64_t v = 0;
  int count = scanDigits(q, end, v);
  out = static_cast<int64_t>(v);
  return count > 0 && count <= 18 && endsField(q, end);
}

/// A value: an integer or plain decimal of at most 15 digits exactly (a
/// mantissa below 2^53 divided by an exact power of ten is the correctly
/// rounded value, as strtod's), anything else (exponents, more digits,
/// "inf", "nan") by from_chars. The short path is what a matrix file
/// usually holds, and saves a sixth of reading t_10pct (10M values like
/// "0.0625": 0.55-0.65 s against 0.61-0.72 s with from_chars alone).
inline bool parseValue(const char *&q, const char *end, double &value) {
  if (q < end && *q == '+') {
    ++q;
    // "+-1" is no number for the sequential reader either.
    if (q < end && (*q == '+' || *q == '-'))
      return false;
  }
  const char *token = q;
  bool negative = q < end && *q == '-';
  q += negative;
  uint64_t mantissa = 0;
  int digits = scanDigits(q, end, mantissa), fraction = 0;
  if (q < end && *q == '.') {
    ++q;
    fraction = scanDigits(q, end, mantissa);
    digits += fraction;
  }
  if (digits > 0 && digits <= 15 && endsField(q, end)) {
    value = static_cast<double>(mantissa);
    if (fraction)
      value /= kPowersOfTen[fraction];
    value = negative ? -value : value;
    return true;
  }
  auto [next, ec] = std::from_chars(token, end, value);
  q = next;
  return ec == std::errc() && endsField(q, end);
}

enum class Line { Entry, Skipped, Unsupported };

/// Parses the line at `p` (up to its '\n' or `end`) as `<row> <col>[
/// <value>]` into 1-based r, c and v, and moves `p` past it. Blank and
/// comment lines are Skipped; anything else this parser does not take
/// (trailing fields, odd numbers) is Unsupported.
inline Line parseLine(const char *&p, const char *end, bool pattern, int64_t &r,
                      int64_t &c, double &v) {
  const char *q = p;
  while (q < end && (isBlank(*q) || *q == '\r'))
    ++q;
  if (q == end || *q == '\n' || *q == '%') {
    const char *eol = static_cast<const char *>(std::memchr(q, '\n', end - q));
    p = eol ? eol + 1 : end;
    return Line::Skipped;
  }
  auto skipBlanks = [&] {
    while (q < end && isBlank(*q))
      ++q;
  };
  if (!parseIndex(q, end, r) || q == end || !isBlank(*q))
    return Line::Unsupported;
  skipBlanks();
  if (!parseIndex(q, end, c))
    return Line::Unsupported;
  v = 1.0;
  if (!pattern) {
    if (q == end || !isBlank(*q))
      return Line::Unsupported;
    skipBlanks();
    if (!parseValue(q, end, v))
      return Line::Unsupported;
  }
  while (q < end && (isBlank(*q) || *q == '\r'))
    ++q;
  if (q < end && *q != '\n')
    return Line::Unsupported;
  p = q < end ? q + 1 : end;
  return Line::Entry;
}


/// A read-only mapping of a file, unmapped when it goes.
class MappedFile {
public:
  explicit MappedFile(const std::string &path) {
    int fd = open(path.c_str(), O_RDONLY);
    if (fd < 0)
      return;
    struct stat info;
    if (fstat(fd, &info) == 0 && info.st_size > 0) {
      void *mapped = mmap(nullptr, info.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (mapped != MAP_FAILED) {
        base = static_cast<const char *>(mapped);
        size = info.st_size;
        // Every page is read once, front to back within each part.
        madvise(mapped, size, MADV_SEQUENTIAL);
      }
    }
    close(fd);
  }
  ~MappedFile() {
    if (base)
      munmap(const_cast<char *>(base), size);
  }
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

  const char *base = nullptr;
  size_t size = 0;
};

} // namespace amls::runtime::entry_lines

#endif // AMLS_LIB_RUNTIME_IO_ENTRYLINES_H
