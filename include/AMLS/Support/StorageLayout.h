//===- StorageLayout.h - The fields of each matrix storage layout -*- C++
//-*-===//
//
// StorageLayouts.def as constexpr tables: the compiler asks how many values a
// matrix of a format lowers to and of what types, the session how many words
// a returned matrix occupies and where each field starts. Both read the same
// rows, so a layout is described once.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_SUPPORT_STORAGELAYOUT_H
#define AMLS_SUPPORT_STORAGELAYOUT_H

#include "AMLS/Runtime/ABI.h"

#include <cstddef>
#include <cstdint>

namespace amls::layout {

/// A field's type at the boundary (StorageLayouts.def's Type column).
enum class FieldType { MatrixF64, VectorI64, VectorI32, VectorF64, I64 };
/// How many elements an array field has (the Extent column).
enum class Extent { Shape, RowsPlusOne, Stored, Number };

/// Every field of every layout, as a name: `CSR_Values`.
enum class StorageField : unsigned {
#define AMLS_STORAGE_FIELD(Format, Field, Type, Extent) Format##_##Field,
#include "AMLS/Runtime/StorageLayouts.def"
};

struct FieldInfo {
  AmlsMatrixFormat format;
  const char *name;
  FieldType type;
  Extent extent;
};

inline constexpr FieldInfo kFields[] = {
#define AMLS_STORAGE_FIELD(Format, Field, Type, Size)                          \
  {AMLS_MATRIX_##Format, #Field, FieldType::Type, Extent::Size},
#include "AMLS/Runtime/StorageLayouts.def"
};
inline constexpr unsigned kNumFields = sizeof(kFields) / sizeof(kFields[0]);

/// The fields of one layout: kFields[first, first + size).
struct Layout {
  unsigned first = 0;
  unsigned size = 0;
  constexpr const FieldInfo *begin() const { return kFields + first; }
  constexpr const FieldInfo *end() const { return kFields + first + size; }
  constexpr const FieldInfo &operator[](unsigned i) const {
    return kFields[first + i];
  }
};

constexpr Layout getLayout(AmlsMatrixFormat format) {
  Layout layout;
  unsigned i = 0;
  while (i < kNumFields && kFields[i].format != format)
    ++i;
  layout.first = i;
  while (i < kNumFields && kFields[i].format == format)
    ++i;
  layout.size = i - layout.first;
  return layout;
}

/// The position of `field` among its layout's fields.
constexpr unsigned getFieldIndex(StorageField field) {
  unsigned at = static_cast<unsigned>(field);
  return at - getLayout(kFields[at].format).first;
}

/// The 8-byte words a field occupies in a struct of returned values: a
/// memref descriptor is 3 + 2 x rank words, a number one.
constexpr size_t getWords(FieldType type) {
  switch (type) {
  case FieldType::MatrixF64:
    return 7;
  case FieldType::VectorI64:
  case FieldType::VectorI32:
  case FieldType::VectorF64:
    return 5;
  case FieldType::I64:
    return 1;
  }
  return 0;
}

/// The words of all of a layout's fields, and where field `i` starts.
constexpr size_t getWords(Layout layout) {
  size_t words = 0;
  for (const FieldInfo &field : layout)
    words += getWords(field.type);
  return words;
}
constexpr size_t getWordOffset(StorageField field) {
  unsigned at = static_cast<unsigned>(field);
  size_t words = 0;
  for (unsigned i = getLayout(kFields[at].format).first; i < at; ++i)
    words += getWords(kFields[i].type);
  return words;
}

/// Whether every format's rows are consecutive (getLayout finds them all).
constexpr bool formatsAreConsecutive() {
  for (unsigned i = 0; i < kNumFields; ++i) {
    Layout layout = getLayout(kFields[i].format);
    if (i < layout.first || i >= layout.first + layout.size)
      return false;
  }
  return true;
}
static_assert(formatsAreConsecutive(),
              "StorageLayouts.def: a format's rows must be consecutive");
static_assert(sizeof(AmlsMatrixF64) == 7 * sizeof(int64_t) &&
                  sizeof(AmlsVectorI64) == 5 * sizeof(int64_t) &&
                  sizeof(AmlsVectorI32) == 5 * sizeof(int64_t) &&
                  sizeof(AmlsVectorF64) == 5 * sizeof(int64_t),
              "a memref descriptor is 3 + 2 x rank words");

} // namespace amls::layout

#endif // AMLS_SUPPORT_STORAGELAYOUT_H
