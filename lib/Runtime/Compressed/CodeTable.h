//===- CodeTable.h - Dense codes for 64-bit keys ----------------*- C++ -*-===//
//
// The planner and the encoder number the distinct values of a column, and
// the distinct tuples of a group, in the order they first appear. An
// open-addressing table from a 64-bit key (a double's bits, or a tuple's
// prefix code with the next column's code) to its code: a few nanoseconds a
// lookup where std::unordered_map allocates a node per key.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_COMPRESSED_CODETABLE_H
#define AMLS_LIB_RUNTIME_COMPRESSED_CODETABLE_H

#include <cstdint>
#include <cstring>
#include <vector>

namespace amls::runtime::compressed {

class CodeTable {
public:
  explicit CodeTable(uint32_t firstCode = 0) : next(firstCode) {
    resize(16);
  }

  /// The code of `key`, assigning the next one to a new key.
  uint32_t encode(uint64_t key) {
    uint64_t slot = hash(key);
    while (true) {
      Entry &entry = entries[slot];
      if (!entry.used) {
        entry = {key, next, true};
        ++size;
        uint32_t code = next++;
        if (size * 2 > entries.size())
          resize(entries.size() * 2);
        return code;
      }
      if (entry.key == key)
        return entry.code;
      slot = (slot + 1) & mask;
    }
  }

  /// Keys encoded so far.
  uint64_t getSize() const { return size; }

  /// The keys in the order of their codes (the first one's code first).
  std::vector<uint64_t> getKeysByCode() const {
    std::vector<uint64_t> keys(size);
    uint32_t first = next - static_cast<uint32_t>(size);
    for (const Entry &entry : entries)
      if (entry.used)
        keys[entry.code - first] = entry.key;
    return keys;
  }

  static uint64_t bitsOf(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits;
  }

private:
  struct Entry {
    uint64_t key = 0;
    uint32_t code = 0;
    bool used = false;
  };

  uint64_t hash(uint64_t key) const {
    return ((key ^ (key >> 29)) * 0x9E3779B97F4A7C15ull) >> shift;
  }

  void resize(uint64_t capacity) {
    std::vector<Entry> old = std::move(entries);
    entries.assign(capacity, Entry());
    mask = capacity - 1;
    shift = 64 - __builtin_ctzll(capacity);
    for (const Entry &entry : old) {
      if (!entry.used)
        continue;
      uint64_t slot = hash(entry.key);
      while (entries[slot].used)
        slot = (slot + 1) & mask;
      entries[slot] = entry;
    }
  }

  std::vector<Entry> entries;
  uint64_t mask = 0;
  int shift = 0;
  uint64_t size = 0;
  uint32_t next;
};

} // namespace amls::runtime::compressed

#endif // AMLS_LIB_RUNTIME_COMPRESSED_CODETABLE_H
