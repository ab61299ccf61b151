//===- Planner.cpp - Sample-based compression planning --------------------===//
//
// The planner never reads the whole matrix. It samples chunks of
// consecutive rows (consecutive, so that runs show), codes each column's
// sampled values, and estimates per group of columns:
//
//   distinct tuples  the GEE estimator (Charikar et al., PODS 2000):
//                    sqrt(n/s) f1 + sum_{j>=2} f_j, where f_j counts the
//                    tuples seen j times in s sampled rows;
//   default rows     the sample's share of rows with a non-zero tuple;
//   runs             the sample's runs of non-zero tuples, scaled.
//
// and the size of each encoding (ColumnGroups.h). Co-coding then merges,
// greedily (first only groups whose rows never meet, then any), the pair of groups whose merge saves the most bytes, and also
// merges that save nothing yet, as long as the bytes per row do not grow
// and the merged dictionary stays below a quarter of a byte per row: the
// disjoint sparse columns of a one-hot feature cost a dictionary entry each
// as they merge until, dense enough, the group drops to one DDC code per
// row, which a strict "only when smaller" greedy never reaches.
//
//===----------------------------------------------------------------------===//

#include "CodeTable.h"
#include "ColumnGroups.h"

#include "../Kernels/Threads.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>

using namespace amls::runtime;
using namespace amls::runtime::compressed;

namespace {

/// Co-coded groups stay below this many estimated tuples, so that the
/// values prepareRight writes for one right-hand column stay in cache.
constexpr int64_t kMaxCoCodedDistinct = 16384;

struct Sample {
  /// The sampled rows, ascending, and whether each starts a chunk.
  std::vector<int64_t> rows;
  std::vector<bool> chunkStart;
  int64_t numRows = 0;
};

Sample drawSample(int64_t n, int64_t wanted, uint64_t seed) {
  Sample sample;
  sample.numRows = n;
  if (wanted >= n) {
    sample.rows.resize(n);
    std::iota(sample.rows.begin(), sample.rows.end(), 0);
    sample.chunkStart.assign(n, false);
    if (n)
      sample.chunkStart[0] = true;
    return sample;
  }
  // One chunk in each of `chunks` equal segments, at a random offset.
  int64_t chunks = std::min<int64_t>(64, wanted);
  int64_t chunkRows = wanted / chunks, segment = n / chunks;
  std::mt19937_64 random(seed);
  for (int64_t c = 0; c < chunks; ++c) {
    int64_t slack = segment - chunkRows;
    int64_t start = c * segment +
                    (slack > 0 ? int64_t(random() % uint64_t(slack + 1)) : 0);
    for (int64_t r = start; r < start + chunkRows; ++r) {
      sample.chunkStart.push_back(r == start);
      sample.rows.push_back(r);
    }
  }
  return sample;
}

/// A group of columns as the sample sees it: the sampled rows (indices
/// into Sample::rows, ascending) whose tuple is not the zero tuple, their
/// tuple codes (from 1), and the estimates. Sparse, so that the columns of
/// a one-hot feature cost what they store.
struct GroupSample {
  std::vector<int32_t> columns;
  std::vector<uint32_t> rows;
  std::vector<uint32_t> codes;
  uint32_t numCodes = 1;
  /// The sample's tuples seen once and more often, and its runs of
  /// non-zero tuples: what the estimates are made of.
  int64_t once = 0, more = 0, runs = 0;
  GroupPlan estimate;
};

/// The estimates of a group of `columns` from its sample's statistics.
GroupPlan estimateFrom(std::vector<int32_t> columns, int64_t once, int64_t more,
                       int64_t sampledRows, int64_t runs,
                       const Sample &sample) {
  int64_t s = static_cast<int64_t>(sample.rows.size());
  int64_t n = sample.numRows;
  double scale = double(n) / double(std::max<int64_t>(s, 1));
  double distinct = std::sqrt(scale) * double(once) + double(more) + 1.0;
  int64_t estimatedDistinct =
      std::min<int64_t>(n + 1, static_cast<int64_t>(std::llround(distinct)));
  int64_t nonDefault = std::llround(double(sampledRows) * scale);
  int64_t estimatedRuns = std::llround(double(runs) * scale);
  int64_t numColumns = static_cast<int64_t>(columns.size());
  auto [encoding, bytes] = chooseEncoding(n, numColumns, estimatedDistinct,
                                          nonDefault, estimatedRuns);
  return {std::move(columns), encoding, estimatedDistinct, bytes};
}

void estimate(GroupSample &group, const Sample &sample) {
  std::vector<int64_t> counts(group.numCodes, 0);
  group.runs = 0;
  for (size_t p = 0; p < group.rows.size(); ++p) {
    uint32_t i = group.rows[p], code = group.codes[p];
    ++counts[code];
    group.runs += p == 0 || sample.chunkStart[i] ||
                  group.rows[p - 1] != i - 1 || group.codes[p - 1] != code;
  }
  group.once = group.more = 0;
  for (uint32_t code = 1; code < group.numCodes; ++code) {
    group.once += counts[code] == 1;
    group.more += counts[code] > 1;
  }
  group.estimate =
      estimateFrom(group.columns, group.once, group.more,
                   static_cast<int64_t>(group.rows.size()), group.runs, sample);
}

/// Whether no sampled row has a non-zero tuple in both groups.
bool areDisjoint(const GroupSample &a, const GroupSample &b) {
  size_t p = 0, q = 0;
  while (p < a.rows.size() && q < b.rows.size()) {
    if (a.rows[p] == b.rows[q])
      return false;
    if (a.rows[p] < b.rows[q])
      ++p;
    else
      ++q;
  }
  return true;
}

/// The estimates of two disjoint groups merged, without merging them: their
/// tuples stay apart (each is zero in the other's columns), so the merged
/// sample's tuples seen once, more often, its rows and its runs are sums
/// (a run never continues into the other group's different tuple). The
/// same numbers as estimate() of the merged group.
GroupPlan estimateDisjointMerge(const GroupSample &a, const GroupSample &b,
                                const Sample &sample) {
  std::vector<int32_t> columns;
  std::merge(a.columns.begin(), a.columns.end(), b.columns.begin(),
             b.columns.end(), std::back_inserter(columns));
  return estimateFrom(std::move(columns), a.once + b.once, a.more + b.more,
                      static_cast<int64_t>(a.rows.size() + b.rows.size()),
                      a.runs + b.runs, sample);
}

/// The sampled codes of every column.
std::vector<GroupSample> sampleColumns(const Source &source,
                                       const Sample &sample) {
  int64_t s = static_cast<int64_t>(sample.rows.size());
  std::vector<GroupSample> columns(source.cols);
  std::vector<CodeTable> tables(source.cols, CodeTable(/*firstCode=*/1));
  for (int64_t c = 0; c < source.cols; ++c)
    columns[c].columns = {static_cast<int32_t>(c)};
  auto add = [&](int64_t c, int64_t i, double value) {
    columns[c].rows.push_back(uint32_t(i));
    columns[c].codes.push_back(tables[c].encode(CodeTable::bitsOf(value)));
  };
  for (int64_t i = 0; i < s; ++i) {
    int64_t r = sample.rows[i];
    if (!source.isCSR()) {
      const double *row = source.data + r * source.ld;
      for (int64_t c = 0; c < source.cols; ++c)
        if (row[c] != 0.0)
          add(c, i, row[c]);
      continue;
    }
    for (int64_t p = source.rowOffsets[r]; p < source.rowOffsets[r + 1]; ++p)
      if (source.values[p] != 0.0)
        add(source.columnIndices[p], i, source.values[p]);
  }
  for (int64_t c = 0; c < source.cols; ++c) {
    columns[c].numCodes = static_cast<uint32_t>(tables[c].getSize() + 1);
    estimate(columns[c], sample);
  }
  return columns;
}

/// Joint codes of two groups' tuples (a direct table while the code pairs
/// fit in one, a CodeTable beyond).
class Merger {
public:
  /// The merged group.
  GroupSample merge(const GroupSample &a, const GroupSample &b,
                    const Sample &sample) {
    GroupSample merged;
    std::merge(a.columns.begin(), a.columns.end(), b.columns.begin(),
               b.columns.end(), std::back_inserter(merged.columns));
    uint64_t pairs = uint64_t(a.numCodes) * b.numCodes;
    bool useDirect = pairs <= (uint64_t(1) << 20);
    if (useDirect && direct.size() < pairs)
      direct.resize(pairs, 0);
    CodeTable table(/*firstCode=*/1);
    uint32_t next = 1;
    auto code = [&](uint64_t key) -> uint32_t {
      if (!useDirect)
        return table.encode(key);
      if (!direct[key]) {
        direct[key] = next++;
        touched.push_back(key);
      }
      return direct[key];
    };
    size_t p = 0, q = 0;
    merged.rows.reserve(a.rows.size() + b.rows.size());
    merged.codes.reserve(a.rows.size() + b.rows.size());
    while (p < a.rows.size() || q < b.rows.size()) {
      uint32_t i = std::min(p < a.rows.size() ? a.rows[p] : UINT32_MAX,
                            q < b.rows.size() ? b.rows[q] : UINT32_MAX);
      uint32_t ca = p < a.rows.size() && a.rows[p] == i ? a.codes[p++] : 0;
      uint32_t cb = q < b.rows.size() && b.rows[q] == i ? b.codes[q++] : 0;
      merged.rows.push_back(i);
      merged.codes.push_back(code(uint64_t(ca) * b.numCodes + cb));
    }
    for (uint64_t key : touched)
      direct[key] = 0;
    touched.clear();
    merged.numCodes =
        useDirect ? next : static_cast<uint32_t>(table.getSize() + 1);
    estimate(merged, sample);
    return merged;
  }

private:
  std::vector<uint32_t> direct;
  std::vector<uint64_t> touched;
};

struct Candidate {
  size_t a, b;
  int64_t gain;
  bool valid;
};

/// Greedy co-coding of `groups` (in column order). The first round merges
/// only groups whose sampled rows are disjoint where independent groups
/// would share some (the columns of one one-hot or dummy-coded feature): completing each feature first keeps the second
/// round, which merges any pair, from pairing half a feature with another
/// and blocking the rest.
std::vector<GroupSample> coCode(std::vector<GroupSample> groups,
                                const Sample &sample,
                                const CompressionSettings &settings) {
  // One per thread.
  std::vector<Merger> mergers(1);
  auto dictionaryBytes = [](const GroupPlan &g) {
    return getDictionarySize(g.encoding,
                             static_cast<int64_t>(g.columns.size()),
                             g.distinct);
  };
  auto rowBytes = [&](const GroupPlan &g) {
    return g.bytes - dictionaryBytes(g);
  };
  uint64_t dictionaryLimit = uint64_t(sample.numRows) / 4;
  // Active groups in column order, for the window.
  std::vector<size_t> order(groups.size());
  std::iota(order.begin(), order.end(), 0);
  for (bool exclusiveOnly : {true, false}) {
    bool allPairs =
        static_cast<int64_t>(order.size()) <= settings.allPairsLimit;
    std::vector<Candidate> candidates;
    // Whether merging a and b is a candidate, and its gain.
    auto consider = [&](Merger &merger, size_t a,
                        size_t b) -> std::optional<Candidate> {
      // Disjoint only counts where the sample would show, were the groups
      // independent, at least three shared rows (none: p < 5%).
      if (exclusiveOnly &&
          double(groups[a].rows.size()) * double(groups[b].rows.size()) <
              3.0 * double(sample.rows.size()))
        return std::nullopt;
      // Disjoint groups' merge is estimated from their statistics alone;
      // others are merged on the sample.
      GroupPlan z;
      if (exclusiveOnly) {
        if (!areDisjoint(groups[a], groups[b]))
          return std::nullopt;
        z = estimateDisjointMerge(groups[a], groups[b], sample);
      } else {
        z = merger.merge(groups[a], groups[b], sample).estimate;
      }
      if (z.distinct > kMaxCoCodedDistinct ||
          z.encoding == Encoding::Uncompressed)
        return std::nullopt;
      const GroupPlan &x = groups[a].estimate, &y = groups[b].estimate;
      int64_t gain = int64_t(x.bytes + y.bytes) - int64_t(z.bytes);
      // The scaled row counts are rounded, each by up to half a row: 16
      // bytes of slack keep disjoint lists from looking worse merged.
      if (gain > 0 || (rowBytes(z) <= rowBytes(x) + rowBytes(y) + 16 &&
                       dictionaryBytes(z) <= dictionaryLimit))
        return Candidate{a, b, gain, true};
      return std::nullopt;
    };
    // The pairs' merges are independent: evaluated by all threads, the
    // candidates kept in the pairs' order (the greedy's ties go to the
    // first), so that the plan does not depend on the thread count.
    auto considerAll =
        [&](const std::vector<std::pair<size_t, size_t>> &pairs) {
          std::vector<std::optional<Candidate>> found(pairs.size());
          int64_t threads = threadsFor(static_cast<int64_t>(pairs.size()), 4);
          if (mergers.size() < size_t(threads))
            mergers.resize(threads);
          runThreads(threads, [&](int64_t t) {
            for (size_t p = t; p < pairs.size(); p += threads)
              found[p] = consider(mergers[t], pairs[p].first, pairs[p].second);
          });
          for (const std::optional<Candidate> &candidate : found)
            if (candidate)
              candidates.push_back(*candidate);
        };
    size_t window = allPairs ? order.size() : size_t(settings.coCodeWindow);
    std::vector<std::pair<size_t, size_t>> pairs;
    for (size_t i = 0; i < order.size(); ++i)
      for (size_t j = i + 1; j < std::min(order.size(), i + 1 + window); ++j)
        pairs.push_back({order[i], order[j]});
    considerAll(pairs);
    while (true) {
      Candidate *best = nullptr;
      for (Candidate &candidate : candidates)
        if (candidate.valid && (!best || candidate.gain > best->gain))
          best = &candidate;
      if (!best)
        break;
      size_t a = best->a, b = best->b;
      GroupSample merged = mergers[0].merge(groups[a], groups[b], sample);
      for (Candidate &candidate : candidates)
        if (candidate.a == a || candidate.b == a || candidate.a == b ||
            candidate.b == b)
          candidate.valid = false;
      candidates.erase(
          std::remove_if(candidates.begin(), candidates.end(),
                         [](const Candidate &c) { return !c.valid; }),
          candidates.end());
      size_t id = groups.size();
      groups.push_back(std::move(merged));
      // The merged group takes the place of its first column's group.
      size_t at = std::find(order.begin(), order.end(), std::min(a, b)) -
                  order.begin();
      order[at] = id;
      order.erase(std::find(order.begin(), order.end(), std::max(a, b)));
      at = std::find(order.begin(), order.end(), id) - order.begin();
      size_t lo = at >= window ? at - window : 0;
      size_t hi = std::min(order.size(), at + window + 1);
      pairs.clear();
      for (size_t i = lo; i < hi; ++i)
        if (order[i] != id)
          pairs.push_back({std::min(id, order[i]), std::max(id, order[i])});
      considerAll(pairs);
    }
  }
  std::vector<GroupSample> result;
  for (size_t g : order)
    result.push_back(std::move(groups[g]));
  return result;
}

} // namespace

CompressionPlan compressed::planCompression(const Source &source,
                                            const CompressionSettings &settings) {
  CompressionPlan plan;
  plan.sourceBytes = source.getSizeInBytes();
  if (source.rows == 0 || source.cols == 0)
    return plan;
  // At most ~8 MiB of sampled non-zeros (8 bytes each), however wide the
  // matrix.
  int64_t perRow = source.isCSR()
                       ? std::max<int64_t>(1, source.rowOffsets[source.rows] /
                                                  source.rows)
                       : source.cols;
  int64_t wanted = std::min<int64_t>(
      settings.sampleRows,
      std::max<int64_t>(2048, (int64_t(1) << 20) / perRow));
  Sample sample = drawSample(source.rows, wanted, settings.seed);
  std::vector<GroupSample> columns = sampleColumns(source, sample);

  std::vector<GroupSample> compressible;
  std::vector<int32_t> uncompressed;
  for (GroupSample &column : columns) {
    if (column.estimate.encoding == Encoding::Uncompressed)
      uncompressed.push_back(column.columns[0]);
    else
      compressible.push_back(std::move(column));
  }
  for (GroupSample &group :
       coCode(std::move(compressible), sample, settings)) {
    plan.estimatedBytes += group.estimate.bytes;
    plan.groups.push_back(std::move(group.estimate));
  }
  // The columns that do not compress stay together: one matrix for BLAS.
  if (!uncompressed.empty()) {
    int64_t c = static_cast<int64_t>(uncompressed.size());
    uint64_t bytes = getUncompressedSize(source.rows, c);
    plan.estimatedBytes += bytes;
    plan.groups.push_back({std::move(uncompressed), Encoding::Uncompressed, 0,
                           bytes});
  }
  // First columns are distinct: the order is total.
  std::sort(plan.groups.begin(), plan.groups.end(),
                   [](const GroupPlan &a, const GroupPlan &b) {
                     return a.columns.front() < b.columns.front();
                   });
  plan.compress =
      double(plan.estimatedBytes) * settings.minRatio <= double(plan.sourceBytes);
  return plan;
}

bool compressed::looksCompressible(const Source &source) {
  if (source.isCSR() || source.rows == 0 || source.cols == 0)
    return false;
  // Rows spread evenly over the matrix; a column is coded when they hold at
  // most kFew distinct values (a set of kFew slots, compared bit for bit).
  constexpr int64_t kRows = 1024, kFew = 64;
  int64_t rows = std::min(source.rows, kRows);
  int64_t coded = 0;
  std::vector<uint64_t> seen;
  for (int64_t c = 0; c < source.cols; ++c) {
    seen.clear();
    bool few = true;
    for (int64_t k = 0; k < rows && few; ++k) {
      int64_t r = k * source.rows / rows;
      uint64_t bits;
      std::memcpy(&bits, &source.data[r * source.ld + c], sizeof bits);
      if (std::find(seen.begin(), seen.end(), bits) != seen.end())
        continue;
      seen.push_back(bits);
      few = static_cast<int64_t>(seen.size()) <= kFew;
    }
    coded += few;
  }
  // Half the columns coded: their groups take a byte a row where the
  // cells take eight, at least 2x smaller whatever the other half does
  // (the plan, made later from a larger sample, decides).
  return 2 * coded >= source.cols;
}
