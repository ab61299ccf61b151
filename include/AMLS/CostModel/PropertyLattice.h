//===- PropertyLattice.h - Size and sparsity lattice ------------*- C++ -*-===//
//
// Matrix sizes and sparsity estimates form a flat lattice per property: a
// known value is more precise than "unknown", and two different known values
// join to unknown. Joins happen where control flow merges (scf.if results,
// loop-carried values); loops reach a fixpoint because every chain has
// height two.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_COSTMODEL_PROPERTYLATTICE_H
#define AMLS_COSTMODEL_PROPERTYLATTICE_H

#include <cstdint>
#include <limits>
#include <optional>

namespace mlir::amls {

/// An unknown size; equal to `ShapedType::kDynamic`.
inline constexpr int64_t kUnknownSize = std::numeric_limits<int64_t>::min();

inline bool isKnownSize(int64_t size) { return size != kUnknownSize; }

/// Join of two sizes of the same value: equal sizes stay, others are unknown.
int64_t joinSize(int64_t lhs, int64_t rhs);

/// `sparsity` rounded to two significant digits: inputs of the same shape
/// and nearly the same density share compiled code, and estimates carry
/// no more digits than they mean.
double roundSparsity(double sparsity);

/// Join of two sparsity estimates: equal estimates (up to rounding) stay,
/// others become unknown.
std::optional<double> joinSparsity(std::optional<double> lhs,
                                   std::optional<double> rhs);

/// The more precise of two sizes that describe the same value; nullopt if
/// both are known and disagree.
std::optional<int64_t> meetSize(int64_t lhs, int64_t rhs);

/// Product of two sizes, unknown if either is (or on overflow).
int64_t multiplySizes(int64_t lhs, int64_t rhs);
/// Sum of two sizes, unknown if either is (or on overflow).
int64_t addSizes(int64_t lhs, int64_t rhs);

} // namespace mlir::amls

#endif // AMLS_COSTMODEL_PROPERTYLATTICE_H
