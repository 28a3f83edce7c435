; expect: unsat
; Nonlinear: fib(18) = 2584, so the claim "fib(n) < 2500 for all n <= 18" fails. The
; derivation tree has thousands of nodes but only 19 distinct (n, fib(n)) steps: a
; counterexample must be built (and checked) as a DAG with shared steps.
(set-logic HORN)
(declare-fun fib (Int Int) Bool)
(assert (forall ((n Int) (r Int)) (=> (and (<= n 1) (>= n 0) (= r n)) (fib n r))))
(assert (forall ((n Int) (a Int) (b Int) (r Int))
  (=> (and (>= n 2) (fib (- n 1) a) (fib (- n 2) b) (= r (+ a b))) (fib n r))))
(assert (forall ((n Int) (r Int)) (=> (and (fib n r) (<= n 18) (>= r 2500)) false)))
(check-sat)
