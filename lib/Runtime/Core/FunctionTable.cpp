//===- FunctionTable.cpp - The runtime's prototypes against the table -----===//
//
// Every row of include/AMLS/Runtime/RuntimeFunctions.def is checked against
// the C prototype in the runtime's headers: the same symbol, and parameter
// and result types that carry what the compiler passes. A prototype that
// drifts from the row the compiler calls through stops the build here
// instead of corrupting a call at run time. Nothing in this file runs.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/DeviceKernels.h"
#include "AMLS/Runtime/Distributed.h"
#include "AMLS/Runtime/Runtime.h"

#include <cstdint>
#include <type_traits>

namespace {

// The table's type names.
struct Void {};
struct I32 {};
struct I64 {};
struct F64 {};
struct Ptr {};
struct MatrixF64 {};
struct MatrixF32 {};
struct VectorI64 {};
struct VectorI32 {};
struct VectorF64 {};
struct BufferI64 {};
struct BufferI32 {};
struct BufferF64 {};
struct CSR {};

template <typename T>
constexpr bool isDescriptor =
    std::is_same_v<T, AmlsMatrixF64> || std::is_same_v<T, AmlsMatrixF32> ||
    std::is_same_v<T, AmlsVectorI64> || std::is_same_v<T, AmlsVectorI32> ||
    std::is_same_v<T, AmlsVectorF64>;

/// Whether the C type `T` carries the table's `Tag`. An I64 is any 64-bit
/// integer (seeds are unsigned); a Ptr any pointer but a descriptor's.
template <typename Tag, typename T> constexpr bool carries = false;
template <> constexpr bool carries<Void, void> = true;
template <> constexpr bool carries<I32, int32_t> = true;
template <> constexpr bool carries<I64, int64_t> = true;
template <> constexpr bool carries<I64, uint64_t> = true;
template <> constexpr bool carries<F64, double> = true;
template <typename T>
constexpr bool carries<Ptr, T *> = !isDescriptor<std::remove_cv_t<T>>;
template <> constexpr bool carries<MatrixF64, AmlsMatrixF64 *> = true;
template <> constexpr bool carries<MatrixF32, AmlsMatrixF32 *> = true;
template <> constexpr bool carries<VectorI64, AmlsVectorI64 *> = true;
template <> constexpr bool carries<VectorI32, AmlsVectorI32 *> = true;
template <> constexpr bool carries<VectorF64, AmlsVectorF64 *> = true;
// A buffer result comes back through the first parameter.
template <> constexpr bool carries<BufferI64, AmlsVectorI64 *> = true;
template <> constexpr bool carries<BufferI32, AmlsVectorI32 *> = true;
template <> constexpr bool carries<BufferF64, AmlsVectorF64 *> = true;

template <typename... Types> struct List {};

/// The C parameters a table type stands for: a CSR matrix is its fields in
/// StorageLayouts.def.
template <typename Tag> struct Expand { using type = List<Tag>; };
template <typename List> struct DropFirst;
template <typename First, typename... Rest>
struct DropFirst<List<First, Rest...>> {
  using type = List<Rest...>;
};
template <> struct Expand<CSR> {
  using type = typename DropFirst<List<void
#define AMLS_STORAGE_FIELD(Format, Field, Type, Extent)                        \
  AMLS_STORAGE_FIELD_##Format(Type)
#define AMLS_STORAGE_FIELD_DENSE(Type)
#define AMLS_STORAGE_FIELD_CSR(Type) , Type
#define AMLS_STORAGE_FIELD_COMPRESSED(Type)
#include "AMLS/Runtime/StorageLayouts.def"
#undef AMLS_STORAGE_FIELD_DENSE
#undef AMLS_STORAGE_FIELD_CSR
#undef AMLS_STORAGE_FIELD_COMPRESSED
                                       >>::type;
};

template <typename... Lists> struct Concat;
template <> struct Concat<> { using type = List<>; };
template <typename... A> struct Concat<List<A...>> { using type = List<A...>; };
template <typename... A, typename... B, typename... Rest>
struct Concat<List<A...>, List<B...>, Rest...> {
  using type = typename Concat<List<A..., B...>, Rest...>::type;
};

/// Under the `_mlir_ciface_` ABI a memref result is returned through a
/// leading pointer parameter and the function returns void.
template <typename Result> struct ResultPassing {
  using returns = Result;
  using leading = List<>;
};
template <typename Buffer> struct BufferPassing {
  using returns = Void;
  using leading = List<Buffer>;
};
template <> struct ResultPassing<BufferI64> : BufferPassing<BufferI64> {};
template <> struct ResultPassing<BufferI32> : BufferPassing<BufferI32> {};
template <> struct ResultPassing<BufferF64> : BufferPassing<BufferF64> {};

template <bool SameLength, typename Tags, typename Params> struct AllCarryImpl {
  static constexpr bool value = false;
};
template <typename... Tags, typename... Params>
struct AllCarryImpl<true, List<Tags...>, List<Params...>> {
  static constexpr bool value = (true && ... && carries<Tags, Params>);
};
template <typename Tags, typename Params> struct AllCarry;
template <typename... Tags, typename... Params>
struct AllCarry<List<Tags...>, List<Params...>>
    : AllCarryImpl<sizeof...(Tags) == sizeof...(Params), List<Tags...>,
                   List<Params...>> {};

/// Whether the C function type `Function` is the row (Result, Inputs).
template <typename Function, typename Result, typename Inputs>
struct Implements {
  static constexpr bool value = false;
};
template <typename R, typename... Params, typename Result, typename... Inputs>
struct Implements<R (*)(Params...), Result, List<Inputs...>> {
  using Passing = ResultPassing<Result>;
  using Expected = typename Concat<typename Passing::leading,
                                   typename Expand<Inputs>::type...>::type;
  static constexpr bool value = carries<typename Passing::returns, R> &&
                                AllCarry<Expected, List<Params...>>::value;
};

} // namespace

#define AMLS_C_SYMBOL_C(symbol) symbol
#define AMLS_C_SYMBOL_CInterface(symbol) _mlir_ciface_##symbol
#define AMLS_UNPAREN(...) __VA_ARGS__
#define AMLS_RUNTIME_FUNCTION(Name, Symbol, Interface, Result, Inputs, ...)    \
  static_assert(Implements<decltype(&AMLS_C_SYMBOL_##Interface(Symbol)),       \
                           Result, List<AMLS_UNPAREN Inputs>>::value,          \
                "the C prototype of " #Symbol " differs from its row in "      \
                "RuntimeFunctions.def");
#include "AMLS/Runtime/RuntimeFunctions.def"
