// Programs with functions, as the DML frontend emits them (private
// functions on ?x? matrices, called through func.call), against NumPy:
// one function called with two shapes (two specializations), constant
// scalar arguments, a call in a loop whose carried matrix grows, nested
// calls, a teleport-style chain inside a function (ordered once --amls-ipa
// gives it sizes) and a recursive function (left to run as written).
// Every configuration of the oracle runs, --rewrites=ipa alone included.
// RUN: %oracle %s --input X="rng.random((40, 6))" --input Y="rng.random((9, 30))" --input e="np.ones((200, 1))" --input u="np.full((1, 200), 1 / 200)" --input p="rng.random((200, 1))" --expect "X.T @ X" --expect "Y.T @ Y" --expect "X * 0.5 ** 3" --expect "np.vstack([X] * 8)" --expect "(X.T @ X) @ (X.T @ X)" --expect "0.85 * (e @ u @ p) + 0.15 * p" --expect "X * 2 ** 3" -- --threads 1
// RUN: %oracle %s --input X="rng.random((7, 13))" --input Y="rng.random((50, 2))" --input e="np.ones((31, 1))" --input u="rng.random((1, 31))" --input p="rng.random((31, 1))" --expect "X.T @ X" --expect "Y.T @ Y" --expect "X * 0.5 ** 3" --expect "np.vstack([X] * 8)" --expect "(X.T @ X) @ (X.T @ X)" --expect "0.85 * (e @ u @ p) + 0.15 * p" --expect "X * 2 ** 3" -- --threads 2

func.func private @gram(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %g = amls.matmul %t, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %g : !amls.matrix<?x?xf64>
}

func.func private @scale_times(%X: !amls.matrix<?x?xf64>, %n: index, %s: f64) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %X) -> !amls.matrix<?x?xf64> {
    %m = amls.mul %acc, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
    scf.yield %m : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}

func.func private @double_rows(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  %r = amls.rbind %X, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %r : !amls.matrix<?x?xf64>
}

func.func private @gram_squared(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  %g = call @gram(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  %s = amls.matmul %g, %g : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %s : !amls.matrix<?x?xf64>
}

func.func private @teleport(%e: !amls.matrix<?x?xf64>, %u: !amls.matrix<?x?xf64>,
                            %p: !amls.matrix<?x?xf64>, %alpha: f64) -> !amls.matrix<?x?xf64> {
  %one = arith.constant 1.0 : f64
  %eu = amls.matmul %e, %u : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %eup = amls.matmul %eu, %p : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %a = amls.mul %alpha, %eup : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %beta = arith.subf %one, %alpha : f64
  %b = amls.mul %beta, %p : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r = amls.add %a, %b : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %r : !amls.matrix<?x?xf64>
}

// X * 2^n by recursion: IPA leaves it alone.
func.func private @doubled(%X: !amls.matrix<?x?xf64>, %n: index) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> !amls.matrix<?x?xf64> {
    scf.yield %X : !amls.matrix<?x?xf64>
  } else {
    %m = arith.subi %n, %c1 : index
    %d = amls.add %X, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %s = func.call @doubled(%d, %m) : (!amls.matrix<?x?xf64>, index) -> !amls.matrix<?x?xf64>
    scf.yield %s : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"},
                %e: !amls.matrix<?x?xf64> {amls.name = "e"},
                %u: !amls.matrix<?x?xf64> {amls.name = "u"},
                %p: !amls.matrix<?x?xf64> {amls.name = "p"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %half = arith.constant 0.5 : f64
  %alpha = arith.constant 0.85 : f64
  %gx = call @gram(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  %gy = call @gram(%Y) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  %scaled = call @scale_times(%X, %c3, %half) : (!amls.matrix<?x?xf64>, index, f64) -> !amls.matrix<?x?xf64>
  %grown = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %X) -> !amls.matrix<?x?xf64> {
    %d = func.call @double_rows(%acc) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
    scf.yield %d : !amls.matrix<?x?xf64>
  }
  %g2 = call @gram_squared(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  %t = call @teleport(%e, %u, %p, %alpha) : (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64) -> !amls.matrix<?x?xf64>
  %dbl = call @doubled(%X, %c3) : (!amls.matrix<?x?xf64>, index) -> !amls.matrix<?x?xf64>
  return %gx, %gy, %scaled, %grown, %g2, %t, %dbl
      : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>
}
