//===- Encoder.cpp - Compressing a matrix along a plan --------------------===//
//
// One pass over the source's rows per thread, each thread encoding its share
// of the groups. A row's tuple in a group is found by walking its non-zeros
// in column order: state 0 is the zero tuple, and each non-zero (the
// column's position in the group, the value's code in its column) moves to
// the state that tuple prefix has (a CodeTable), so that a sparse row costs
// one lookup per non-zero and a group's codes come out dense and numbered
// in order of appearance. The exact distinct count, default rows and runs
// then choose the group's encoding (chooseEncoding).
//
//===----------------------------------------------------------------------===//

#include "CodeTable.h"
#include "ColumnGroups.h"

#include "../Kernels/Threads.h"

#include <algorithm>
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

/// A tuple state: the prefix it extends, the column position and the
/// column code of its last non-zero.
struct TupleState {
  uint32_t parent;
  uint32_t position;
  uint32_t valueCode;
};

/// The encoder's view of one group while rows stream by.
class GroupEncoder {
public:
  GroupEncoder(const std::vector<int32_t> &columns, int64_t rows)
      : columns(columns), rows(rows), codes(rows) {
    columnValues.resize(columns.size());
    columnCodes.reserve(columns.size());
    for (size_t i = 0; i < columns.size(); ++i)
      columnCodes.emplace_back(/*firstCode=*/1);
    states.push_back({0, 0, 0});
  }

  /// The state after the non-zero `value` in the group's column `position`.
  uint32_t step(uint32_t state, uint32_t position, double value) {
    uint32_t valueCode =
        columnCodes[position].encode(CodeTable::bitsOf(value));
    if (valueCode == columnValues[position].size() + 1)
      columnValues[position].push_back(value);
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

  bool hasFailed() const { return failed; }
  std::unique_ptr<ColumnGroup> build(const Source &source) const;

private:
  Dictionary buildDictionary() const;

  const std::vector<int32_t> &columns;
  int64_t rows;
  memory::Vector<uint16_t> codes;
  /// Per column position: its values' codes (from 1; 0 is zero) and values.
  std::vector<CodeTable> columnCodes;
  std::vector<std::vector<double>> columnValues;
  /// Tuple states: codes 1.. of the transitions; state 0 is the zero tuple.
  CodeTable transitions{/*firstCode=*/1};
  std::vector<TupleState> states;
  bool failed = false;
};

Dictionary GroupEncoder::buildDictionary() const {
  int64_t c = static_cast<int64_t>(columns.size());
  Dictionary dictionary(states.size() * c, 0.0);
  // A state's parent was created before it: copy the prefix, set the
  // last non-zero.
  for (size_t s = 1; s < states.size(); ++s) {
    const TupleState &state = states[s];
    std::copy_n(dictionary.begin() + state.parent * c, c,
                dictionary.begin() + s * c);
    dictionary[s * c + state.position] =
        columnValues[state.position][state.valueCode - 1];
  }
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
  int64_t distinct = static_cast<int64_t>(states.size());
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

/// Encodes the groups `mine` (indices into plan.groups) in one pass over
/// the rows.
void encodeGroups(const Source &source, const CompressionPlan &plan,
                  const std::vector<int64_t> &mine,
                  std::vector<std::unique_ptr<ColumnGroup>> &out) {
  std::vector<std::unique_ptr<GroupEncoder>> encoders;
  // Column -> (encoder, position) for the columns of my groups.
  std::vector<int32_t> encoderOf(source.cols, -1), positionOf(source.cols, 0);
  for (int64_t g : mine) {
    const std::vector<int32_t> &columns = plan.groups[g].columns;
    for (size_t i = 0; i < columns.size(); ++i) {
      encoderOf[columns[i]] = static_cast<int32_t>(encoders.size());
      positionOf[columns[i]] = static_cast<int32_t>(i);
    }
    encoders.push_back(std::make_unique<GroupEncoder>(columns, source.rows));
  }
  std::vector<uint32_t> state(encoders.size(), 0);
  for (int64_t r = 0; r < source.rows; ++r) {
    if (!source.isCSR()) {
      const double *row = source.data + r * source.ld;
      for (size_t e = 0; e < encoders.size(); ++e) {
        GroupEncoder &encoder = *encoders[e];
        const std::vector<int32_t> &columns = plan.groups[mine[e]].columns;
        uint32_t s = 0;
        for (size_t i = 0; i < columns.size(); ++i)
          if (double value = row[columns[i]]; value != 0.0)
            s = encoder.step(s, uint32_t(i), value);
        encoder.finishRow(r, s);
      }
      continue;
    }
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
  for (size_t e = 0; e < encoders.size(); ++e)
    out[mine[e]] = encoders[e]->build(source);
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
