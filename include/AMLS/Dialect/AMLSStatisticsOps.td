//===- AMLSStatisticsOps.td - Probability distributions ----*- tablegen -*-===//
//
// The cumulative distribution functions of DML's cdf/icdf family on
// numbers. (DML's other statistics builtins are compositions of the other
// ops: lib/Frontend/DML/BuiltinsStatistics.cpp.)
//
// Included from AMLSOps.td, which defines the base classes and type
// constraints used here.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSSTATISTICSOPS_TD
#define AMLS_DIALECT_AMLSSTATISTICSOPS_TD

def AMLS_DistributionOp : AMLS_Op<"distribution", [Pure]> {
  let summary = "cumulative distribution function or its inverse "
                "[cdf, icdf, pnorm, qnorm, pt, qt, pf, qf, pchisq, qchisq, "
                "pexp, qexp]";
  let description = [{
    P[X <= target] for a random variable X of distribution `dist` (with
    `upper_tail`: P[X > target]); with `inverse`, the quantile q with
    P[X <= q] = target (P[X > q] = target). The parameters are those of the
    distribution, in this order: `normal` (mean, sd), `exp` (rate), `chisq`
    (df), `f` (df1, df2), `t` (df). sd, rate and the degrees of freedom must
    be positive and the probability of `inverse` in [0, 1]: the verifier
    checks constants, the runtime (Boost.Math) the rest and stops the
    program with the op's position. A NaN target gives NaN.

    ```mlir
    %p = amls.distribution normal %q(%mean, %sd) upper_tail
    %q = amls.distribution t %p(%df) inverse
    ```
  }];
  let arguments = (ins F64:$target, Variadic<F64>:$parameters,
                       AMLS_Distribution:$dist, UnitAttr:$inverse,
                       UnitAttr:$upper_tail);
  let results = (outs F64:$result);
  let assemblyFormat = [{
    $dist $target `(` $parameters `)` (`inverse` $inverse^)?
    (`upper_tail` $upper_tail^)? attr-dict
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// How many parameters distribution `dist` takes.
    static unsigned getNumParameters(::mlir::amls::Distribution dist);
  }];
}

#endif // AMLS_DIALECT_AMLSSTATISTICSOPS_TD
