//===- CSRFused.cpp - Outer-template operators over a CSR main input ------===//
//
// sum(X * f(U %*% t(V))) and X * f(U %*% t(V)) with a CSR X: parallel loops
// over the rows of X and, inside, over its stored values only, each with
// the dot product of row i of U and row j of V and the fused body. The
// product U %*% t(V) is never built and the work is nnz(X) x rank instead
// of rows x cols x rank. A sum collects one partial per row; an element-wise
// result keeps X's pattern.
//
//===----------------------------------------------------------------------===//

#include "CSRLowering.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

Value denseView(OpBuilder &b, Location loc, Value tensor) {
  tensor = convertElementType(b, loc, tensor, b.getF64Type());
  int64_t dyn = ShapedType::kDynamic;
  return bufferization::ToBufferOp::create(
      b, loc, getRuntimeMatrixType(b.getF64Type()),
      castTo(b, loc, tensor, RankedTensorType::get({dyn, dyn}, b.getF64Type())),
      /*read_only=*/true);
}

struct LowerCSROuter : public CSRPattern<FusedOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(FusedOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    if (op.getKind() != FusedTemplate::Outer)
      return rewriter.notifyMatchFailure(op, "only the outer template");
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    Value u = operands[1].front(), v = operands[2].front();
    SmallVector<Value> scalars;
    for (ValueRange scalar : operands.drop_front(3))
      scalars.push_back(scalar.front());
    Value rows = x.rows(rewriter, loc);
    Value rank = dimOf(rewriter, loc, u, 1);
    checkEqual(rewriter, loc, dimOf(rewriter, loc, u, 0), rows, op,
               "factor U differs in rows from the main input");
    checkEqual(rewriter, loc, dimOf(rewriter, loc, v, 0), x.cols, op,
               "factor V differs in rows from the main input's columns");
    checkEqual(rewriter, loc, dimOf(rewriter, loc, v, 1), rank, op,
               "factors U and V differ in columns");

    bool aggregated = op.getAggregate().has_value();
    Type f64 = rewriter.getF64Type();
    Value uBuffer = denseView(rewriter, loc, u);
    Value vBuffer = denseView(rewriter, loc, v);
    Value rowptr = runtimeVectorOf(rewriter, loc, x.rowptr);
    Value colidx = runtimeVectorOf(rewriter, loc, x.colidx);
    Value values = runtimeVectorOf(rewriter, loc, x.values);
    Value out = aggregated
                    ? allocVector(rewriter, loc, f64, rows)
                    : allocVector(rewriter, loc, f64, x.nnz(rewriter, loc));
    Value zeroIndex = indexConstant(rewriter, loc, 0);
    Value one = indexConstant(rewriter, loc, 1);
    Value zero = floatConstant(rewriter, loc, f64, 0.0);
    Block &body = op.getBody().front();

    scf::ParallelOp::create(
        rewriter, loc, ValueRange{zeroIndex}, ValueRange{rows}, ValueRange{one},
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value i = ivs[0];
          auto loadIndex = [&](OpBuilder &ib, Value buffer, Value at) -> Value {
            Value loaded = memref::LoadOp::create(ib, l, buffer, at);
            return arith::IndexCastOp::create(ib, l, ib.getIndexType(), loaded);
          };
          Value begin = loadIndex(b, rowptr, i);
          Value end = loadIndex(
              b, rowptr, arith::AddIOp::create(b, l, i, one).getResult());
          auto entries = scf::ForOp::create(
              b, l, begin, end, one, ValueRange{zero},
              [&](OpBuilder &fb, Location fl, Value k, ValueRange acc) {
                Value j = loadIndex(fb, colidx, k);
                auto dot = scf::ForOp::create(
                    fb, fl, zeroIndex, rank, one, ValueRange{zero},
                    [&](OpBuilder &db, Location dl, Value r, ValueRange sum) {
                      Value uir = memref::LoadOp::create(db, dl, uBuffer,
                                                         ValueRange{i, r});
                      Value vjr = memref::LoadOp::create(db, dl, vBuffer,
                                                         ValueRange{j, r});
                      Value product = arith::MulFOp::create(db, dl, uir, vjr);
                      scf::YieldOp::create(db, dl,
                                           ValueRange{arith::AddFOp::create(
                                               db, dl, sum[0], product)});
                    });
                IRMapping mapping;
                mapping.map(
                    body.getArgument(0),
                    memref::LoadOp::create(fb, fl, values, k).getResult());
                mapping.map(body.getArgument(1), dot.getResult(0));
                for (auto [arg, scalar] :
                     llvm::zip(body.getArguments().drop_front(2), scalars))
                  mapping.map(arg, scalar);
                for (Operation &bodyOp : body.without_terminator())
                  fb.clone(bodyOp, mapping);
                Value cell =
                    mapping.lookup(body.getTerminator()->getOperand(0));
                if (aggregated) {
                  scf::YieldOp::create(
                      fb, fl,
                      ValueRange{arith::AddFOp::create(fb, fl, acc[0], cell)});
                } else {
                  memref::StoreOp::create(fb, fl, cell, out, k);
                  scf::YieldOp::create(fb, fl, acc);
                }
              });
          if (aggregated)
            memref::StoreOp::create(b, l, entries.getResult(0), out, i);
        });
    if (aggregated) {
      Value sum = callRuntime(
          rewriter, loc, op, RuntimeFunction::ValuesReduce,
          {runtimeVector(rewriter, loc, out), i32Constant(rewriter, loc, 0)});
      rewriter.replaceOp(op, sum);
      return success();
    }
    replaceWithCSR(rewriter, op,
                   withValues(x, vectorTensor(rewriter, loc, out)));
    return success();
  }
};

} // namespace

void mlir::amls::lowering::populateCSRFusedPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerCSROuter>(patterns, converter, schedule);
}
