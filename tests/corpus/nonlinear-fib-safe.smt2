; expect: sat
; Nonlinear: fib(n) >= 0 for every n >= 0.
(set-logic HORN)
(declare-fun fib (Int Int) Bool)
(assert (forall ((n Int) (r Int)) (=> (and (<= n 1) (>= n 0) (= r n)) (fib n r))))
(assert (forall ((n Int) (a Int) (b Int) (r Int))
  (=> (and (>= n 2) (fib (- n 1) a) (fib (- n 2) b) (= r (+ a b))) (fib n r))))
(assert (forall ((n Int) (r Int)) (=> (and (fib n r) (< r 0)) false)))
(check-sat)
