//===- Encoder.cpp - Compressing a matrix along a plan --------------------===//
//
// Each thread encodes its share of the groups. A dense source goes by
// blocks of rows: each column of a group is coded in a pass of its own
// (a lookup per cell, independent of the others, so the core overlaps
// them), then a row's tuple is found by one lookup of its column codes
// packed side by side, each in as many bits as its column's codes need so
// far (a direct table while the packed key is short, a CodeTable beyond).
// A CSR source, and a dense group whose packed key would outgrow 64 bits,
// walks each row's non-zeros in column order instead: state 0 is the zero
// tuple, and each non-zero (the column's position in the group, the
// value's code in its column) moves to the state that tuple prefix has, so
// that a sparse row costs one lookup per non-zero. Either way a group's
// codes come out dense and numbered in order of appearance, and the exact
// distinct count, default rows and runs choose its encoding
// (chooseEncoding).
//
//===----------------------------------------------------------------------===//

#include "CodeTable.h"
#include "ColumnGroups.h"

#include "../Kernels/Threads.h"

#include <algorithm>
#include <cstring>
#include <numeric>

using namespace amls::runtime;
using namespace amls::runtime::compressed;

Source Source::dense(int64_t rows, int64_t cols, const double *data,
                     int64_t ld) {
  Source source;
  source.rows = rows;
  source.cols = cols;
  source.data = data;
  source.ld = ld;
  return source;
}

Source Source::csr(int64_t rows, int64_t cols, const int64_t *rowOffsets,
                   const int32_t *columnIndices, const double *values) {
  Source source;
  source.rows = rows;
  source.cols = cols;
  source.rowOffsets = rowOffsets;
  source.columnIndices = columnIndices;
  source.values = values;
  return source;
}

uint64_t Source::getSizeInBytes() const {
  if (!isCSR())
    return uint64_t(rows) * cols * 8;
  return uint64_t(rowOffsets[rows]) * 12 + uint64_t(rows + 1) * 8;
}

namespace {

/// Rows a dense block codes column by column: its codes stay in L1.
constexpr int64_t kBlockRows = 512;
/// The distance of a block's columns in its column-major copy: not a
/// multiple of 4 KiB, so that a row's cells do not land in one cache set.
constexpr int64_t kBlockStride = kBlockRows + 8;
/// Packed keys of at most this many bits index a direct table.
constexpr int kDirectBits = 16;

/// A tuple state of the row walk: the prefix it extends, the column
/// position and the column code of its last non-zero.
struct TupleState {
  uint32_t parent;
  uint32_t position;
  uint32_t valueCode;
};

/// The encoder's view of one group while rows stream by.
class GroupEncoder {
public:
  /// `packed`: by dense blocks (encodeDenseBlock), else by the row walk
  /// (step).
  GroupEncoder(const std::vector<int32_t> &columns, int64_t rows, bool packed)
      : columns(columns), rows(rows), codes(rows),
        columnCodes(columns.size(), CodeTable(/*firstCode=*/1)), packed(packed),
        bits(columns.size(), 0), shifts(columns.size(), 0) {
    states.push_back({0, 0, 0});
    tupleCodes.assign(columns.size(), 0);
  }

  /// Codes rows [r0, r0 + n) of a dense source (n <= kBlockRows), the
  /// block's column `c` at `block + slots[c] * kBlockStride`. False
  /// when the packed key outgrew 64 bits: the group is then encoded by the
  /// row walk (restart()).
  bool encodeDenseBlock(const double *block, const int32_t *slots, int64_t r0,
                        int64_t n);

  /// Forgets the rows coded so far, for the row walk.
  void restart() {
    columnCodes.assign(columns.size(), CodeTable(/*firstCode=*/1));
    states.assign(1, {0, 0, 0});
    tupleCodes.clear();
    packed = false;
  }

  /// The row walk's state after the non-zero `value` in the group's column
  /// `position`.
  uint32_t step(uint32_t state, uint32_t position, double value) {
    uint32_t valueCode = columnCodes[position].encode(CodeTable::bitsOf(value));
    if (valueCode >= (1u << 20)) {
      failed = true;
      return 0;
    }
    // One column: the tuple is the value, numbered alike (both from 1 in
    // order of appearance), so no transition to look up.
    if (columns.size() == 1) {
      if (valueCode == states.size()) {
        if (states.size() >= uint64_t(kMaxDistinct)) {
          failed = true;
          return 0;
        }
        states.push_back({0, 0, valueCode});
      }
      return valueCode;
    }
    uint64_t key = (uint64_t(state) << 32) | (uint64_t(position) << 20) |
                   valueCode;
    uint32_t next = transitions.encode(key);
    if (next == states.size()) {
      if (states.size() >= uint64_t(kMaxDistinct)) {
        failed = true;
        return 0;
      }
      states.push_back({state, position, valueCode});
    }
    return next;
  }

  void finishRow(int64_t r, uint32_t state) {
    codes[r] = static_cast<uint16_t>(state);
  }

  /// The row walk numbers every tuple prefix it passes through; only the
  /// states rows end in are tuples. Renumbers those (in the order they
  /// were made, the zero tuple staying 0) and forgets the others.
  void dropPrefixStates();

  bool hasFailed() const { return failed; }
  bool isPacked() const { return packed; }
  std::unique_ptr<ColumnGroup> build(const Source &source) const;

private:
  Dictionary buildDictionary() const;
  int64_t getNumTuples() const {
    if (packed)
      return numPackedTuples;
    return keptStates.empty() ? static_cast<int64_t>(states.size())
                              : static_cast<int64_t>(keptStates.size());
  }
  /// Sets the fields' shifts from their widths and re-enters the tuples
  /// found so far under the new layout (their codes unchanged: they are
  /// entered in the order of their codes). False beyond 64 bits.
  bool relayout();
  uint64_t pack(const uint32_t *columnCodeOfPosition) const {
    uint64_t key = 0;
    for (size_t i = 0; i < columns.size(); ++i)
      key |= uint64_t(columnCodeOfPosition[i]) << shifts[i];
    return key;
  }

  const std::vector<int32_t> &columns;
  int64_t rows;
  memory::Vector<uint16_t> codes;
  /// Per column position: its values' codes (from 1; 0 is zero).
  std::vector<CodeTable> columnCodes;

  // The dense block encoding: each position's field width and shift in
  // the packed key, the block's column codes (position-major), the tuples'
  // column codes (tuple-major, tuple 0 the zero tuple) and the packed key
  // to tuple code map.
  bool packed;
  std::vector<int> bits, shifts;
  int totalBits = 0;
  std::vector<uint32_t> blockCodes;
  std::vector<uint32_t> tupleCodes;
  int64_t numPackedTuples = 1;
  std::vector<uint32_t> directTuples;
  CodeTable hashedTuples{/*firstCode=*/1};

  // The row walk: tuple states (codes 1.. of the transitions; state 0 is
  // the zero tuple).
  CodeTable transitions{/*firstCode=*/1};
  std::vector<TupleState> states;
  /// After dropPrefixStates, the states kept, by their new codes (empty:
  /// all).
  std::vector<uint32_t> keptStates;
  bool failed = false;
};

void GroupEncoder::dropPrefixStates() {
  if (packed || failed || columns.size() == 1)
    return;
  std::vector<uint32_t> renumbered(states.size(), 0);
  std::vector<bool> used(states.size(), false);
  used[0] = true;
  for (int64_t r = 0; r < rows; ++r)
    used[codes[r]] = true;
  std::vector<uint32_t> kept;
  for (size_t s = 0; s < states.size(); ++s)
    if (used[s]) {
      renumbered[s] = static_cast<uint32_t>(kept.size());
      kept.push_back(static_cast<uint32_t>(s));
    }
  if (kept.size() == states.size())
    return;
  for (int64_t r = 0; r < rows; ++r)
    codes[r] = static_cast<uint16_t>(renumbered[codes[r]]);
  keptStates = std::move(kept);
}

bool GroupEncoder::relayout() {
  totalBits = 0;
  for (size_t i = 0; i < columns.size(); ++i) {
    shifts[i] = totalBits;
    totalBits += bits[i];
  }
  if (totalBits > 64)
    return false;
  size_t c = columns.size();
  if (totalBits <= kDirectBits) {
    directTuples.assign(size_t(1) << totalBits, 0);
    for (int64_t t = 1; t < numPackedTuples; ++t)
      directTuples[pack(&tupleCodes[t * c])] = static_cast<uint32_t>(t);
    return true;
  }
  directTuples.clear();
  hashedTuples = CodeTable(/*firstCode=*/1);
  for (int64_t t = 1; t < numPackedTuples; ++t)
    hashedTuples.encode(pack(&tupleCodes[t * c]));
  return true;
}

bool GroupEncoder::encodeDenseBlock(const double *block, const int32_t *slots,
                                    int64_t r0, int64_t n) {
  size_t c = columns.size();
  blockCodes.resize(c * kBlockRows);
  bool grown = false;
  for (size_t i = 0; i < c; ++i) {
    const double *cell = block + int64_t(slots[columns[i]]) * kBlockStride;
    uint32_t *out = &blockCodes[i * kBlockRows];
    CodeTable &table = columnCodes[i];
    uint32_t largest = 0;
    for (int64_t r = 0; r < n; ++r) {
      double value = cell[r];
      uint32_t code = value != 0.0 ? table.encode(CodeTable::bitsOf(value)) : 0;
      out[r] = code;
      largest = std::max(largest, code);
    }
    if (table.getSize() >= uint64_t(kMaxDistinct)) {
      failed = true;
      return true;
    }
    while ((uint64_t(1) << bits[i]) <= largest) {
      ++bits[i];
      grown = true;
    }
  }
  if (c == 1) {
    // The tuple is the value: the same codes.
    for (int64_t r = 0; r < n; ++r)
      codes[r0 + r] = static_cast<uint16_t>(blockCodes[r]);
    numPackedTuples = static_cast<int64_t>(columnCodes[0].getSize()) + 1;
    return true;
  }
  if (grown && !relayout())
    return false;
  for (int64_t r = 0; r < n; ++r) {
    uint64_t key = 0;
    for (size_t i = 0; i < c; ++i)
      key |= uint64_t(blockCodes[i * kBlockRows + r]) << shifts[i];
    uint32_t tuple = 0;
    if (key != 0) {
      if (!directTuples.empty()) {
        tuple = directTuples[key];
        if (!tuple)
          directTuples[key] = tuple = static_cast<uint32_t>(numPackedTuples);
      } else {
        tuple = hashedTuples.encode(key);
      }
      if (tuple == numPackedTuples) {
        if (numPackedTuples >= kMaxDistinct) {
          failed = true;
          return true;
        }
        ++numPackedTuples;
        for (size_t i = 0; i < c; ++i)
          tupleCodes.push_back(blockCodes[i * kBlockRows + r]);
      }
    }
    codes[r0 + r] = static_cast<uint16_t>(tuple);
  }
  return true;
}

Dictionary GroupEncoder::buildDictionary() const {
  int64_t c = static_cast<int64_t>(columns.size());
  std::vector<std::vector<double>> values(c);
  for (int64_t i = 0; i < c; ++i)
    for (uint64_t bits : columnCodes[i].getKeysByCode()) {
      double value;
      std::memcpy(&value, &bits, sizeof(value));
      values[i].push_back(value);
    }
  int64_t tuples = getNumTuples();
  Dictionary dictionary(tuples * c, 0.0);
  if (packed && c == 1) {
    std::copy(values[0].begin(), values[0].end(), dictionary.begin() + 1);
    return dictionary;
  }
  if (packed) {
    for (int64_t t = 1; t < tuples; ++t)
      for (int64_t i = 0; i < c; ++i)
        if (uint32_t code = tupleCodes[t * c + i])
          dictionary[t * c + i] = values[i][code - 1];
    return dictionary;
  }
  // A state's parent was made before it: copy the prefix, set the last
  // non-zero.
  int64_t numStates = static_cast<int64_t>(states.size());
  Dictionary all(numStates * c, 0.0);
  for (int64_t s = 1; s < numStates; ++s) {
    const TupleState &state = states[s];
    std::copy_n(all.begin() + state.parent * c, c, all.begin() + s * c);
    all[s * c + state.position] = values[state.position][state.valueCode - 1];
  }
  if (keptStates.empty())
    return all;
  for (int64_t t = 0; t < tuples; ++t)
    std::copy_n(all.begin() + int64_t(keptStates[t]) * c, c,
                dictionary.begin() + t * c);
  return dictionary;
}

std::unique_ptr<ColumnGroup> extractUncompressed(const Source &source,
                                                 std::vector<int32_t> columns) {
  int64_t c = static_cast<int64_t>(columns.size());
  memory::Vector<double> cells(uint64_t(source.rows) * c, 0.0);
  if (!source.isCSR()) {
    for (int64_t r = 0; r < source.rows; ++r)
      for (int64_t i = 0; i < c; ++i)
        cells[r * c + i] = source.data[r * source.ld + columns[i]];
  } else {
    std::vector<int32_t> position(source.cols, -1);
    for (int64_t i = 0; i < c; ++i)
      position[columns[i]] = static_cast<int32_t>(i);
    for (int64_t r = 0; r < source.rows; ++r)
      for (int64_t p = source.rowOffsets[r]; p < source.rowOffsets[r + 1];
           ++p)
        if (int32_t i = position[source.columnIndices[p]]; i >= 0)
          cells[r * c + i] = source.values[p];
  }
  return std::make_unique<UncompressedGroup>(std::move(columns),
                                             std::move(cells), source.rows);
}

std::unique_ptr<ColumnGroup> GroupEncoder::build(const Source &source) const {
  if (failed)
    return extractUncompressed(source, columns);
  int64_t c = static_cast<int64_t>(columns.size());
  int64_t distinct = getNumTuples();
  std::vector<int64_t> counts(distinct, 0);
  int64_t runs = 0;
  for (int64_t r = 0; r < rows; ++r) {
    ++counts[codes[r]];
    runs += codes[r] != 0 && (r == 0 || codes[r - 1] != codes[r]);
  }
  Encoding encoding =
      chooseEncoding(rows, c, distinct, rows - counts[0], runs).first;
  switch (encoding) {
  case Encoding::Uncompressed:
    return extractUncompressed(source, columns);
  case Encoding::DDC: {
    if (distinct <= 256) {
      auto narrow = std::make_shared<memory::Vector<uint8_t>>(rows);
      std::copy(codes.begin(), codes.end(), narrow->begin());
      return std::make_unique<DDCGroup<uint8_t>>(
          columns, buildDictionary(), std::move(narrow), std::move(counts));
    }
    auto wide = std::make_shared<memory::Vector<uint16_t>>(codes);
    return std::make_unique<DDCGroup<uint16_t>>(
        columns, buildDictionary(), std::move(wide), std::move(counts));
  }
  case Encoding::OLE:
  case Encoding::RLE: {
    bool runLength = encoding == Encoding::RLE;
    auto lists = std::make_shared<ListGroup::RowLists>(distinct - 1);
    for (int64_t t = 1; t < distinct; ++t)
      (*lists)[t - 1].reserve(runLength ? 0 : counts[t]);
    for (int64_t r = 0; r < rows; ++r) {
      uint16_t code = codes[r];
      if (code == 0)
        continue;
      memory::Vector<uint32_t> &list = (*lists)[code - 1];
      if (!runLength) {
        list.push_back(uint32_t(r));
      } else if (r > 0 && codes[r - 1] == code) {
        ++list.back();
      } else {
        list.push_back(uint32_t(r));
        list.push_back(1);
      }
    }
    Dictionary all = buildDictionary();
    Dictionary listed(all.begin() + c, all.end());
    return std::make_unique<ListGroup>(encoding, columns, std::move(listed),
                                       std::vector<double>(c, 0.0),
                                       std::move(lists), rows);
  }
  }
  return nullptr;
}

/// Encodes the groups of `encoders` (plan.groups[groups[e]]) from a dense
/// source: by blocks of rows, and by the row walk those whose packed key
/// outgrew 64 bits.
void encodeDense(const Source &source, const CompressionPlan &plan,
                 const std::vector<int64_t> &groups,
                 std::vector<std::unique_ptr<GroupEncoder>> &encoders) {
  // The block's cells of my columns, column-major: copied in one
  // sequential sweep over the rows, so that each column's pass reads
  // consecutive cells (a strided read from memory stalls on every cell).
  std::vector<int32_t> slots(source.cols, -1), mine;
  for (int64_t g : groups)
    for (int32_t column : plan.groups[g].columns) {
      slots[column] = static_cast<int32_t>(mine.size());
      mine.push_back(column);
    }
  std::vector<double> block(mine.size() * kBlockStride);
  std::vector<size_t> walked;
  for (int64_t r0 = 0; r0 < source.rows; r0 += kBlockRows) {
    int64_t n = std::min(kBlockRows, source.rows - r0);
    for (int64_t r = 0; r < n; ++r) {
      const double *row = source.data + (r0 + r) * source.ld;
      for (size_t slot = 0; slot < mine.size(); ++slot)
        block[slot * kBlockStride + r] = row[mine[slot]];
    }
    for (size_t e = 0; e < encoders.size(); ++e) {
      GroupEncoder &encoder = *encoders[e];
      if (!encoder.isPacked() || encoder.hasFailed() ||
          encoder.encodeDenseBlock(block.data(), slots.data(), r0, n))
        continue;
      encoder.restart();
      walked.push_back(e);
    }
  }
  for (size_t e : walked) {
    GroupEncoder &encoder = *encoders[e];
    const std::vector<int32_t> &columns = plan.groups[groups[e]].columns;
    for (int64_t r = 0; r < source.rows && !encoder.hasFailed(); ++r) {
      const double *row = source.data + r * source.ld;
      uint32_t s = 0;
      for (size_t i = 0; i < columns.size(); ++i)
        if (double value = row[columns[i]]; value != 0.0)
          s = encoder.step(s, uint32_t(i), value);
      encoder.finishRow(r, s);
    }
  }
}

/// Encodes the groups `mine` (indices into plan.groups) in one pass over
/// the rows.
void encodeGroups(const Source &source, const CompressionPlan &plan,
                  const std::vector<int64_t> &mine,
                  std::vector<std::unique_ptr<ColumnGroup>> &out) {
  std::vector<std::unique_ptr<GroupEncoder>> encoders;
  // Column -> (encoder, position) for the columns of my groups.
  std::vector<int32_t> encoderOf(source.cols, -1), positionOf(source.cols, 0);
  std::vector<int64_t> encoded;
  for (int64_t g : mine) {
    const std::vector<int32_t> &columns = plan.groups[g].columns;
    // Planned uncompressed: no codes to find.
    if (plan.groups[g].encoding == Encoding::Uncompressed) {
      out[g] = extractUncompressed(source, columns);
      continue;
    }
    for (size_t i = 0; i < columns.size(); ++i) {
      encoderOf[columns[i]] = static_cast<int32_t>(encoders.size());
      positionOf[columns[i]] = static_cast<int32_t>(i);
    }
    encoded.push_back(g);
    encoders.push_back(
        std::make_unique<GroupEncoder>(columns, source.rows, !source.isCSR()));
  }
  if (!source.isCSR()) {
    encodeDense(source, plan, encoded, encoders);
    for (size_t e = 0; e < encoders.size(); ++e) {
      encoders[e]->dropPrefixStates();
      out[encoded[e]] = encoders[e]->build(source);
    }
    return;
  }
  std::vector<uint32_t> state(encoders.size(), 0);
  for (int64_t r = 0; r < source.rows; ++r) {
    for (int64_t p = source.rowOffsets[r]; p < source.rowOffsets[r + 1]; ++p) {
      int32_t column = source.columnIndices[p];
      int32_t e = encoderOf[column];
      if (e < 0 || source.values[p] == 0.0)
        continue;
      state[e] = encoders[e]->step(state[e], uint32_t(positionOf[column]),
                                   source.values[p]);
    }
    for (size_t e = 0; e < encoders.size(); ++e) {
      encoders[e]->finishRow(r, state[e]);
      state[e] = 0;
    }
  }
  for (size_t e = 0; e < encoders.size(); ++e) {
    encoders[e]->dropPrefixStates();
    out[encoded[e]] = encoders[e]->build(source);
  }
}

} // namespace

std::shared_ptr<const CompressedMatrix>
compressed::compress(const Source &source, const CompressionPlan &plan) {
  int64_t numGroups = static_cast<int64_t>(plan.groups.size());
  std::vector<std::unique_ptr<ColumnGroup>> groups(numGroups);
  // Groups dealt to threads by columns, largest first, each to the thread
  // with the fewest columns so far.
  int64_t threads = threadsFor(numGroups, 1);
  std::vector<std::vector<int64_t>> mine(threads);
  std::vector<int64_t> load(threads, 0), order(numGroups);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    size_t sizeA = plan.groups[a].columns.size();
    size_t sizeB = plan.groups[b].columns.size();
    return sizeA != sizeB ? sizeA > sizeB : a < b;
  });
  for (int64_t g : order) {
    int64_t t = std::min_element(load.begin(), load.end()) - load.begin();
    mine[t].push_back(g);
    load[t] += static_cast<int64_t>(plan.groups[g].columns.size());
  }
  runThreads(threads, [&](int64_t t) {
    std::sort(mine[t].begin(), mine[t].end());
    encodeGroups(source, plan, mine[t], groups);
  });
  return std::make_shared<const CompressedMatrix>(source.rows, source.cols,
                                                  std::move(groups));
}
