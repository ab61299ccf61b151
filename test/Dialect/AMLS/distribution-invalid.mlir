// RUN: amls-opt %s -split-input-file -verify-diagnostics

// The verifier of amls.distribution: the parameters each distribution
// takes, constant parameters and probabilities.

func.func @count(%x: f64) -> f64 {
  // expected-error @+1 {{'amls.distribution' op distribution 'f' takes 2 parameter(s), found 1}}
  %p = amls.distribution f %x(%x)
  return %p : f64
}

// -----

func.func @sd(%x: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  // expected-error @+1 {{'amls.distribution' op sd must be positive and finite, found 0}}
  %p = amls.distribution normal %x(%x, %zero)
  return %p : f64
}

// -----

func.func @df(%x: f64) -> f64 {
  %neg = arith.constant -2.0 : f64
  // expected-error @+1 {{'amls.distribution' op df1 and df2 must be positive, found -2}}
  %p = amls.distribution f %x(%x, %neg)
  return %p : f64
}

// -----

func.func @probability() -> f64 {
  %p = arith.constant 1.5 : f64
  %rate = arith.constant 2.0 : f64
  // expected-error @+1 {{'amls.distribution' op expects a probability in [0, 1], found 1.5}}
  %q = amls.distribution exp %p(%rate) inverse
  return %q : f64
}
