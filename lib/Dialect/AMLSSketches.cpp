//===- AMLSSketches.cpp - MNC sketch propagation models -------------------===//
//
// The external models of MNCSketchInterface: which MNCSketch propagation
// (lib/CostModel/MNCSketch.h) each AMLS op's result follows. Element-wise
// ops are classified by their cell function on zero, as the metadata rules
// in AMLSInference.cpp are; like the MNC paper, no model assumes that
// non-zeros cancel.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::amls;

static MNCSketchRef share(MNCSketch sketch) {
  return std::make_shared<const MNCSketch>(std::move(sketch));
}

static MNCSketchRef fullLike(const MNCSketch &sketch) {
  return share(MNCSketch::uniform(sketch.rows(), sketch.cols(), true));
}

static std::optional<double> constantFloat(Attribute attr) {
  if (auto f = dyn_cast_or_null<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast_or_null<IntegerAttr>(attr))
    return static_cast<double>(i.getValue().getSExtValue());
  return std::nullopt;
}

static std::optional<int64_t> constantInt(Attribute attr) {
  if (auto i = dyn_cast_or_null<IntegerAttr>(attr))
    return i.getValue().getSExtValue();
  return std::nullopt;
}

namespace {

/// Whether an op class has BinarySparsity `kSparsity` (element-wise binary).
template <typename OpTy, typename = void>
struct IsBinary : std::false_type {};
template <typename OpTy>
struct IsBinary<OpTy, std::void_t<decltype(OpTy::kSparsity)>>
    : std::true_type {};

/// Whether an op class has a unary `applyScalar(double)`.
template <typename OpTy, typename = void>
struct IsUnary : std::false_type {};
template <typename OpTy>
struct IsUnary<OpTy, std::void_t<decltype(OpTy::applyScalar(0.0))>>
    : std::true_type {};

template <typename OpTy>
struct BinarySketch
    : MNCSketchInterface::ExternalModel<BinarySketch<OpTy>, OpTy> {
  MNCSketchRef propagateSketch(Operation *op, ArrayRef<MNCSketchRef> sketches,
                               ArrayRef<Attribute> constants) const {
    const MNCSketchRef &lhs = sketches[0], &rhs = sketches[1];
    if (lhs && rhs) {
      // Two matrices of one shape (a broadcast vector has no model).
      if (lhs->rows() != rhs->rows() || lhs->cols() != rhs->cols())
        return nullptr;
      switch (OpTy::kSparsity) {
      case BinarySparsity::Union:
        return share(propagateUnion(*lhs, *rhs));
      case BinarySparsity::Intersection:
        return share(propagateIntersection(*lhs, *rhs));
      default:
        return nullptr;
      }
    }
    // A matrix and a constant scalar: zeros stay zero where f(0, s) = 0.
    bool matrixLeft = static_cast<bool>(lhs);
    const MNCSketchRef &matrix = matrixLeft ? lhs : rhs;
    if (!matrix)
      return nullptr;
    unsigned other = matrixLeft ? 1 : 0;
    std::optional<double> scalar = constantFloat(constants[other]);
    if (!scalar || isa<MatrixType>(op->getOperand(other).getType()))
      return nullptr;
    double atZero = matrixLeft ? OpTy::applyScalar(0.0, *scalar)
                               : OpTy::applyScalar(*scalar, 0.0);
    if (atZero == 0.0)
      return matrix;
    // X == 0 holds exactly where X is zero.
    if (std::is_same_v<OpTy, EqOp> && *scalar == 0.0)
      return share(propagateEqualZero(*matrix));
    return fullLike(*matrix);
  }
};

template <typename OpTy>
struct UnarySketch
    : MNCSketchInterface::ExternalModel<UnarySketch<OpTy>, OpTy> {
  MNCSketchRef propagateSketch(Operation *, ArrayRef<MNCSketchRef> sketches,
                               ArrayRef<Attribute>) const {
    if (!sketches[0])
      return nullptr;
    return OpTy::applyScalar(0.0) == 0.0 ? sketches[0] : fullLike(*sketches[0]);
  }
};

/// Ops whose result holds the input's cells as they are (a cast, a
/// format conversion).
template <typename OpTy>
struct SameSketch : MNCSketchInterface::ExternalModel<SameSketch<OpTy>, OpTy> {
  MNCSketchRef propagateSketch(Operation *, ArrayRef<MNCSketchRef> sketches,
                               ArrayRef<Attribute>) const {
    return sketches[0];
  }
};

struct MatmulSketch
    : MNCSketchInterface::ExternalModel<MatmulSketch, MatmulOp> {
  MNCSketchRef propagateSketch(Operation *, ArrayRef<MNCSketchRef> sketches,
                               ArrayRef<Attribute>) const {
    const MNCSketchRef &lhs = sketches[0], &rhs = sketches[1];
    if (!lhs || !rhs || lhs->cols() != rhs->rows())
      return nullptr;
    return share(propagateProduct(*lhs, *rhs, estimateProductNnz(*lhs, *rhs)));
  }
};

struct TsmmSketch : MNCSketchInterface::ExternalModel<TsmmSketch, TsmmOp> {
  MNCSketchRef propagateSketch(Operation *op, ArrayRef<MNCSketchRef> sketches,
                               ArrayRef<Attribute>) const {
    if (!sketches[0])
      return nullptr;
    const MNCSketch &x = *sketches[0];
    MNCSketch tx = propagateTranspose(x);
    bool left = cast<TsmmOp>(op).getSide() == TsmmSide::Left;
    const MNCSketch &lhs = left ? tx : x, &rhs = left ? x : tx;
    return share(propagateProduct(lhs, rhs, estimateProductNnz(lhs, rhs)));
  }
};

struct TransposeSketch
    : MNCSketchInterface::ExternalModel<TransposeSketch, TransposeOp> {
  MNCSketchRef propagateSketch(Operation *, ArrayRef<MNCSketchRef> sketches,
                               ArrayRef<Attribute>) const {
    return sketches[0] ? share(propagateTranspose(*sketches[0])) : nullptr;
  }
};

template <typename OpTy, bool rows>
struct ConcatSketch
    : MNCSketchInterface::ExternalModel<ConcatSketch<OpTy, rows>, OpTy> {
  MNCSketchRef propagateSketch(Operation *, ArrayRef<MNCSketchRef> sketches,
                               ArrayRef<Attribute>) const {
    if (sketches.empty() || !sketches[0])
      return nullptr;
    MNCSketch result = *sketches[0];
    for (const MNCSketchRef &next : sketches.drop_front()) {
      if (!next || (rows ? next->cols() != result.cols()
                         : next->rows() != result.rows()))
        return nullptr;
      result = rows ? propagateRbind(result, *next)
                    : propagateCbind(result, *next);
    }
    return share(std::move(result));
  }
};

struct SliceSketch : MNCSketchInterface::ExternalModel<SliceSketch, SliceOp> {
  MNCSketchRef propagateSketch(Operation *, ArrayRef<MNCSketchRef> sketches,
                               ArrayRef<Attribute> constants) const {
    if (!sketches[0])
      return nullptr;
    std::optional<int64_t> bounds[4];
    for (int k = 0; k < 4; ++k)
      if (!(bounds[k] = constantInt(constants[k + 1])))
        return nullptr;
    const MNCSketch &x = *sketches[0];
    if (!(0 <= *bounds[0] && *bounds[0] <= *bounds[1] &&
          *bounds[1] <= x.rows() && 0 <= *bounds[2] &&
          *bounds[2] <= *bounds[3] && *bounds[3] <= x.cols()))
      return nullptr; // the verifier or the run reports the bounds
    return share(
        propagateSlice(x, *bounds[0], *bounds[1], *bounds[2], *bounds[3]));
  }
};

struct DiagSketch : MNCSketchInterface::ExternalModel<DiagSketch, DiagOp> {
  MNCSketchRef propagateSketch(Operation *, ArrayRef<MNCSketchRef> sketches,
                               ArrayRef<Attribute>) const {
    const MNCSketchRef &x = sketches[0];
    if (!x || (x->cols() != 1 && x->rows() != x->cols()))
      return nullptr;
    return share(propagateDiag(*x));
  }
};

template <typename... OpTys>
void attachElementwiseSketches(MLIRContext &context) {
  (
      [&] {
        if constexpr (OpTys::template hasTrait<
                          ElementwiseOpInterface::Trait>()) {
          if constexpr (IsBinary<OpTys>::value)
            OpTys::template attachInterface<BinarySketch<OpTys>>(context);
          else if constexpr (IsUnary<OpTys>::value)
            OpTys::template attachInterface<UnarySketch<OpTys>>(context);
        }
      }(),
      ...);
}

} // namespace

void mlir::amls::registerMNCSketchModels(MLIRContext &context) {
  attachElementwiseSketches<
#define GET_OP_LIST
#include "AMLS/Dialect/AMLSOps.cpp.inc"
      >(context);
  MatmulOp::attachInterface<MatmulSketch>(context);
  TsmmOp::attachInterface<TsmmSketch>(context);
  TransposeOp::attachInterface<TransposeSketch>(context);
  CBindOp::attachInterface<ConcatSketch<CBindOp, false>>(context);
  RBindOp::attachInterface<ConcatSketch<RBindOp, true>>(context);
  SliceOp::attachInterface<SliceSketch>(context);
  DiagOp::attachInterface<DiagSketch>(context);
  CastOp::attachInterface<SameSketch<CastOp>>(context);
  ConvertOp::attachInterface<SameSketch<ConvertOp>>(context);
}
