//===- CSRFused.cpp - Fused operators over a CSR main input ---------------===//
//
// Fused operators whose main input is CSR and whose body is zero where the
// main input is (CSRKernelInterface) run as parallel loops over the rows of
// the main input and, inside, over its stored values only:
// - cell and magg: the body at each stored cell, reading the other inputs'
//   cells (broadcasting vectors); element-wise results keep the pattern,
//   aggregates collect one partial per row (min and max start from 0 in
//   rows with implicit zeros), column aggregates one partial row per
//   thread (min and max count the stored entries of each column);
// - outer: sum(X * f(U %*% t(V))) and X * f(U %*% t(V)), the dot product of
//   row i of U and row j of V for each stored (i, j) only, so the product
//   U %*% t(V) is never built and the work is nnz(X) x rank instead of
//   rows x cols x rank.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
#include "CSRLowering.h"
#include "Reductions.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

/// amls_rt_values_reduce's kind (an AmlsAggKind) that combines partial
/// results of `kind`: partial sums of squares add up.
int32_t valuesReduceKind(AggKind kind) {
  switch (kind) {
  case AggKind::Min:
    return AMLS_AGG_MIN;
  case AggKind::Max:
    return AMLS_AGG_MAX;
  default:
    return AMLS_AGG_SUM;
  }
}

/// The loops over the stored values of `x`, rows in parallel. `cells`
/// computes the body's values at entry `k` (row `i`, column `j`). A result
/// without an aggregate kind is stored at `k` of a fresh values array (the
/// pattern's); one with a kind is combined into an accumulator per row,
/// stored at `i` of a rows-long array, which starts from 0 for min and max
/// where the row has implicit zeros (the body is 0 there).
SmallVector<Value>
emitStoredValueLoops(OpBuilder &rewriter, Location loc, const CSRMatrix &x,
                     ArrayRef<std::optional<AggKind>> kinds,
                     function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                     Value i, Value k, Value j)>
                         cells) {
  Type f64 = rewriter.getF64Type();
  Value rows = x.rows(rewriter, loc);
  Value rowptr = runtimeVectorOf(rewriter, loc, x.rowptr);
  Value colidx = runtimeVectorOf(rewriter, loc, x.colidx);
  Value nnz = x.nnz(rewriter, loc);
  SmallVector<Value> outputs;
  SmallVector<Reduction> reductions;
  for (std::optional<AggKind> kind : kinds) {
    outputs.push_back(allocVector(rewriter, loc, f64, kind ? rows : nnz));
    reductions.push_back(reductionFor(kind.value_or(AggKind::Sum)));
  }
  Value zeroIndex = indexConstant(rewriter, loc, 0);
  Value one = indexConstant(rewriter, loc, 1);
  Value zero = floatConstant(rewriter, loc, f64, 0.0);
  Value cols =
      arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), x.cols);

  scf::ParallelOp::create(
      rewriter, loc, ValueRange{zeroIndex}, ValueRange{rows}, ValueRange{one},
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        Value i = ivs[0];
        Value begin = memref::LoadOp::create(b, l, rowptr, i);
        Value end = memref::LoadOp::create(
            b, l, rowptr, arith::AddIOp::create(b, l, i, one).getResult());
        Value full = arith::CmpIOp::create(
            b, l, arith::CmpIPredicate::eq,
            arith::SubIOp::create(b, l, end, begin), cols);
        SmallVector<Value> inits;
        for (auto [kind, reduction] : llvm::zip(kinds, reductions)) {
          if (!kind)
            continue;
          Value identity = floatConstant(b, l, f64, reduction.init);
          bool min = *kind == AggKind::Min, max = *kind == AggKind::Max;
          inits.push_back(
              min || max ? arith::SelectOp::create(b, l, full, identity, zero)
                               .getResult()
                         : identity);
        }
        auto toIndex = [&](Value v) -> Value {
          return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
        };
        auto entries = scf::ForOp::create(
            b, l, toIndex(begin), toIndex(end), one, inits,
            [&](OpBuilder &fb, Location fl, Value k, ValueRange acc) {
              Value j = arith::IndexCastOp::create(
                  fb, fl, fb.getIndexType(),
                  memref::LoadOp::create(fb, fl, colidx, k).getResult());
              SmallVector<Value> values = cells(fb, fl, i, k, j);
              SmallVector<Value> next;
              for (auto [r, kind] : llvm::enumerate(kinds)) {
                if (kind)
                  next.push_back(reductions[r].combine(fb, fl, values[r],
                                                       acc[next.size()]));
                else
                  memref::StoreOp::create(fb, fl, values[r], outputs[r], k);
              }
              scf::YieldOp::create(fb, fl, next);
            });
        unsigned reduced = 0;
        for (auto [r, kind] : llvm::enumerate(kinds))
          if (kind)
            memref::StoreOp::create(b, l, entries.getResult(reduced++),
                                    outputs[r], i);
      });
  return outputs;
}

/// The same loops for column aggregates (every result aggregated): the rows
/// split into one range per thread, each accumulating into its own
/// cols-long partial results (no two threads write the same cell), merged
/// column by column afterwards. Min and max also count each column's stored
/// entries per thread: a column with fewer entries than rows has implicit
/// zeros, where the body is 0.
SmallVector<Value> emitStoredValueColumnLoops(
    OpBuilder &rewriter, Location loc, Operation *op, const CSRMatrix &x,
    ArrayRef<std::optional<AggKind>> kinds,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value i, Value k,
                                    Value j)>
        cells) {
  Type f64 = rewriter.getF64Type(), i64 = rewriter.getI64Type();
  Type index = rewriter.getIndexType();
  Value rows = x.rows(rewriter, loc), cols = x.cols;
  Value rowptr = runtimeVectorOf(rewriter, loc, x.rowptr);
  Value colidx = runtimeVectorOf(rewriter, loc, x.colidx);
  Value zeroIndex = indexConstant(rewriter, loc, 0);
  Value one = indexConstant(rewriter, loc, 1);
  Value chunks = threadRowRanges(rewriter, loc, op, rows);
  Value slots = arith::MulIOp::create(rewriter, loc, chunks, cols);
  SmallVector<Reduction> reductions;
  SmallVector<Value> partials;
  bool counted = false;
  for (std::optional<AggKind> kind : kinds) {
    reductions.push_back(reductionFor(*kind));
    partials.push_back(allocVector(rewriter, loc, f64, slots));
    counted |= *kind == AggKind::Min || *kind == AggKind::Max;
  }
  Value counts = counted ? allocVector(rewriter, loc, i64, slots) : Value();

  forEachRowRange(
      rewriter, loc, rows, chunks,
      [&](OpBuilder &b, Location l, Value chunk, Value lo, Value hi) {
        Value base = arith::MulIOp::create(b, l, chunk, cols);
        Value zeroCount = arith::ConstantIntOp::create(b, l, i64, 0);
        scf::ForOp::create(
            b, l, zeroIndex, cols, one, ValueRange{},
            [&](OpBuilder &fb, Location fl, Value c, ValueRange) {
              Value at = arith::AddIOp::create(fb, fl, base, c);
              for (auto [partial, reduction] : llvm::zip(partials, reductions))
                memref::StoreOp::create(
                    fb, fl, floatConstant(fb, fl, f64, reduction.init), partial,
                    at);
              if (counts)
                memref::StoreOp::create(fb, fl, zeroCount, counts, at);
              scf::YieldOp::create(fb, fl);
            });
        scf::ForOp::create(
            b, l, lo, hi, one, ValueRange{},
            [&](OpBuilder &rb, Location rl, Value i, ValueRange) {
              auto toIndex = [&](Value v) -> Value {
                return arith::IndexCastOp::create(rb, rl, index, v);
              };
              Value begin = memref::LoadOp::create(rb, rl, rowptr, i);
              Value end = memref::LoadOp::create(
                  rb, rl, rowptr,
                  arith::AddIOp::create(rb, rl, i, one).getResult());
              scf::ForOp::create(
                  rb, rl, toIndex(begin), toIndex(end), one, ValueRange{},
                  [&](OpBuilder &fb, Location fl, Value k, ValueRange) {
                    Value j = arith::IndexCastOp::create(
                        fb, fl, index,
                        memref::LoadOp::create(fb, fl, colidx, k).getResult());
                    Value at = arith::AddIOp::create(fb, fl, base, j);
                    SmallVector<Value> values = cells(fb, fl, i, k, j);
                    for (auto [r, partial] : llvm::enumerate(partials)) {
                      Value acc = memref::LoadOp::create(fb, fl, partial, at);
                      memref::StoreOp::create(
                          fb, fl, reductions[r].combine(fb, fl, values[r], acc),
                          partial, at);
                    }
                    if (counts) {
                      Value count = memref::LoadOp::create(fb, fl, counts, at);
                      memref::StoreOp::create(
                          fb, fl,
                          arith::AddIOp::create(
                              fb, fl, count,
                              arith::ConstantIntOp::create(fb, fl, i64, 1)),
                          counts, at);
                    }
                    scf::YieldOp::create(fb, fl);
                  });
              scf::YieldOp::create(rb, rl);
            });
      });

  SmallVector<Value> outputs;
  for (size_t r = 0; r < kinds.size(); ++r)
    outputs.push_back(allocVector(rewriter, loc, f64, cols));
  Value rows64 = arith::IndexCastOp::create(rewriter, loc, i64, rows);
  scf::ParallelOp::create(
      rewriter, loc, ValueRange{zeroIndex}, ValueRange{cols}, ValueRange{one},
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        Value c = ivs[0];
        SmallVector<Value> inits;
        for (const Reduction &reduction : reductions)
          inits.push_back(floatConstant(b, l, f64, reduction.init));
        if (counts)
          inits.push_back(arith::ConstantIntOp::create(b, l, i64, 0));
        auto merged = scf::ForOp::create(
            b, l, zeroIndex, chunks, one, inits,
            [&](OpBuilder &fb, Location fl, Value chunk, ValueRange acc) {
              Value at = arith::AddIOp::create(
                  fb, fl, arith::MulIOp::create(fb, fl, chunk, cols), c);
              SmallVector<Value> next;
              for (auto [r, partial] : llvm::enumerate(partials))
                next.push_back(reductions[r].merge(
                    fb, fl, memref::LoadOp::create(fb, fl, partial, at), acc[r],
                    *kinds[r] == AggKind::SumSq));
              if (counts)
                next.push_back(arith::AddIOp::create(
                    fb, fl, acc.back(),
                    memref::LoadOp::create(fb, fl, counts, at)));
              scf::YieldOp::create(fb, fl, next);
            });
        Value full =
            counts ? arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                           merged.getResults().back(), rows64)
                         .getResult()
                   : Value();
        Value zero = floatConstant(b, l, f64, 0.0);
        for (auto [r, output] : llvm::enumerate(outputs)) {
          Value value = merged.getResult(r);
          if (*kinds[r] == AggKind::Min || *kinds[r] == AggKind::Max)
            value = arith::SelectOp::create(
                b, l, full, value, reductions[r].combine(b, l, zero, value));
          memref::StoreOp::create(b, l, value, output, c);
        }
      });
  return outputs;
}

/// The whole-matrix aggregate of per-row partial results.
Value reduceRowPartials(OpBuilder &b, Location loc, Operation *op,
                        Value partials, AggKind kind) {
  return callRuntime(b, loc, op, RuntimeFunction::ValuesReduce,
                     {runtimeVector(b, loc, partials),
                      i32Constant(b, loc, valuesReduceKind(kind))});
}

/// Clones `body` with `arguments` for its block arguments and returns the
/// values it yields.
SmallVector<Value> cloneBody(OpBuilder &b, Block &body, ValueRange arguments) {
  IRMapping mapping;
  mapping.map(body.getArguments(), arguments);
  for (Operation &nested : body.without_terminator())
    b.clone(nested, mapping);
  return llvm::map_to_vector(body.getTerminator()->getOperands(),
                             [&](Value v) { return mapping.lookup(v); });
}

/// The kinds of the operator's results (none for element-wise results).
SmallVector<std::optional<AggKind>> aggregateKinds(FusedOp op) {
  SmallVector<std::optional<AggKind>> kinds(op.getNumResults());
  if (std::optional<ArrayAttr> aggregate = op.getAggregate())
    for (auto [kind, attr] : llvm::zip(kinds, *aggregate))
      kind = cast<AggKindAttr>(attr).getValue();
  return kinds;
}

/// Replaces `op`'s results: CSR matrices with the main input's pattern for
/// element-wise results, reductions of the per-row partials for full
/// aggregates, rows x 1 matrices for row aggregates.
void replaceResults(ConversionPatternRewriter &rewriter, FusedOp op,
                    const CSRMatrix &x, ArrayRef<Value> outputs,
                    const TypeConverter &converter) {
  Location loc = op.getLoc();
  SmallVector<std::optional<AggKind>> kinds = aggregateKinds(op);
  AggAxis axis = op.getAxis().value_or(AggAxis::All);
  SmallVector<SmallVector<Value>> replacements;
  for (auto [result, kind, output] :
       llvm::zip(op.getResults(), kinds, outputs)) {
    if (!kind) {
      CSRMatrix csr = withValues(x, vectorTensor(rewriter, loc, output));
      SmallVector<Type> types;
      getCSRTypes(cast<MatrixType>(result.getType()), types);
      csr.rowptr = castTo(rewriter, loc, csr.rowptr, types[0]);
      csr.colidx = castTo(rewriter, loc, csr.colidx, types[1]);
      csr.values = castTo(rewriter, loc, csr.values, types[2]);
      int64_t cols = cast<MatrixType>(result.getType()).getCols();
      if (isKnownSize(cols))
        csr.cols = indexConstant(rewriter, loc, cols);
      replacements.push_back(csr.asRange());
    } else if (axis == AggAxis::All) {
      replacements.push_back(
          {reduceRowPartials(rewriter, loc, op, output, *kind)});
    } else if (axis == AggAxis::Col) {
      auto type =
          cast<RankedTensorType>(converter.convertType(result.getType()));
      // The per-column values as a 1 x cols matrix.
      Value tensor = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({1, ShapedType::kDynamic},
                                rewriter.getF64Type()),
          vectorTensor(rewriter, loc, output),
          ArrayRef<ReassociationIndices>{{0, 1}},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1), x.cols});
      replacements.push_back({castTo(rewriter, loc, tensor, type)});
    } else {
      Value rows = x.rows(rewriter, loc);
      auto type =
          cast<RankedTensorType>(converter.convertType(result.getType()));
      // The per-row values as a rows x 1 matrix.
      Value tensor = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({ShapedType::kDynamic, 1},
                                rewriter.getF64Type()),
          vectorTensor(rewriter, loc, output),
          ArrayRef<ReassociationIndices>{{0, 1}},
          ArrayRef<OpFoldResult>{rows, rewriter.getIndexAttr(1)});
      replacements.push_back({castTo(rewriter, loc, tensor, type)});
    }
  }
  rewriter.replaceOpWithMultiple(op, std::move(replacements));
}

struct LowerCSRCell : public CSRPattern<FusedOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(FusedOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    if (op.getKind() != FusedTemplate::Cell &&
        op.getKind() != FusedTemplate::MAgg)
      return failure();
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    // The cells visited: the main input's, where sizes known only at run
    // time may make it (or another input) a vector that DML broadcasts.
    Type mainType = op.getInputs()[0].getType();
    Value rows = csrSize(rewriter, loc, mainType, x, 0);
    Value cols = csrSize(rewriter, loc, mainType, x, 1);
    for (unsigned n = 1; n < operands.size(); ++n)
      if (isa<MatrixType>(op.getInputs()[n].getType()))
        std::tie(rows, cols) =
            broadcastShapes(rewriter, loc, op, rows, cols,
                            dimOf(rewriter, loc, operands[n].front(), 0),
                            dimOf(rewriter, loc, operands[n].front(), 1));
    x = broadcastCSR(rewriter, loc, op,
                     MatrixType::get(ShapedType::kDynamic, ShapedType::kDynamic,
                                     rewriter.getF64Type(), std::nullopt,
                                     MatrixFormat::CSR),
                     mainType, x, rows, cols);
    // Other inputs: dense matrices (read at the cell, or broadcast along a
    // dimension of size 1, known statically or at run time) and scalars.
    struct Input {
      Value buffer;
      /// Whether the row (column) index is 0: a Value where known only at
      /// run time, or a bool.
      Value broadcastRows, broadcastCols;
      bool staticRows = false, staticCols = false;
    };
    SmallVector<Input> inputs(operands.size());
    SmallVector<Value> scalars(operands.size());
    for (unsigned n = 1; n < operands.size(); ++n) {
      Value operand = operands[n].front();
      auto type = dyn_cast<MatrixType>(op.getInputs()[n].getType());
      if (!type) {
        scalars[n] = operand;
        continue;
      }
      Input &input = inputs[n];
      auto broadcasts = [&](int64_t size, int64_t d, bool &known) -> Value {
        known = size == 1;
        if (!ShapedType::isDynamic(size))
          return Value();
        return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                     dimOf(rewriter, loc, operand, d),
                                     indexConstant(rewriter, loc, 1));
      };
      input.broadcastRows = broadcasts(type.getRows(), 0, input.staticRows);
      input.broadcastCols = broadcasts(type.getCols(), 1, input.staticCols);
      input.buffer = asRuntimeMatrix(rewriter, loc, operand);
    }
    Value values = runtimeVectorOf(rewriter, loc, x.values);
    Block &body = op.getBody().front();
    auto cells = [&](OpBuilder &b, Location l, Value i, Value k, Value j) {
      Value zero = indexConstant(b, l, 0);
      SmallVector<Value> arguments = {memref::LoadOp::create(b, l, values, k)};
      for (unsigned n = 1; n < operands.size(); ++n) {
        if (scalars[n]) {
          arguments.push_back(scalars[n]);
          continue;
        }
        const Input &input = inputs[n];
        auto at = [&](Value broadcast, bool known, Value index) -> Value {
          if (broadcast)
            return arith::SelectOp::create(b, l, broadcast, zero, index);
          return known ? zero : index;
        };
        arguments.push_back(memref::LoadOp::create(
            b, l, input.buffer,
            ValueRange{at(input.broadcastRows, input.staticRows, i),
                       at(input.broadcastCols, input.staticCols, j)}));
      }
      return cloneBody(b, body, arguments);
    };
    SmallVector<Value> outputs =
        op.getAxis() == AggAxis::Col
            ? emitStoredValueColumnLoops(rewriter, loc, op, x,
                                         aggregateKinds(op), cells)
            : emitStoredValueLoops(rewriter, loc, x, aggregateKinds(op), cells);
    replaceResults(rewriter, op, x, outputs, *getTypeConverter());
    return success();
  }
};

struct LowerCSROuter : public CSRPattern<FusedOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(FusedOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    if (op.getKind() != FusedTemplate::Outer)
      return failure();
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

    Value uBuffer = asRuntimeMatrix(rewriter, loc, u);
    Value vBuffer = asRuntimeMatrix(rewriter, loc, v);
    Value values = runtimeVectorOf(rewriter, loc, x.values);
    Block &body = op.getBody().front();
    SmallVector<Value> outputs = emitStoredValueLoops(
        rewriter, loc, x, aggregateKinds(op),
        [&](OpBuilder &b, Location l, Value i, Value k, Value j) {
          Value zeroIndex = indexConstant(b, l, 0);
          Value one = indexConstant(b, l, 1);
          Value zero = floatConstant(b, l, b.getF64Type(), 0.0);
          auto dot = scf::ForOp::create(
              b, l, zeroIndex, rank, one, ValueRange{zero},
              [&](OpBuilder &db, Location dl, Value r, ValueRange sum) {
                Value uir =
                    memref::LoadOp::create(db, dl, uBuffer, ValueRange{i, r});
                Value vjr =
                    memref::LoadOp::create(db, dl, vBuffer, ValueRange{j, r});
                Value product = arith::MulFOp::create(db, dl, uir, vjr);
                scf::YieldOp::create(
                    db, dl,
                    ValueRange{arith::AddFOp::create(db, dl, sum[0], product)});
              });
          SmallVector<Value> arguments = {
              memref::LoadOp::create(b, l, values, k), dot.getResult(0)};
          llvm::append_range(arguments, scalars);
          return cloneBody(b, body, arguments);
        });
    replaceResults(rewriter, op, x, outputs, *getTypeConverter());
    return success();
  }
};

} // namespace

void mlir::amls::lowering::populateCSRFusedPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerCSRCell, LowerCSROuter>(patterns, converter, schedule);
}
