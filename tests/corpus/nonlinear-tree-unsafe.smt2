; expect: unsat
; Nonlinear: f(n) = f(n-1) + f(n-2) with f(0)=0, f(1)=1; f(10) = 55 is derivable, so claiming f(10) < 50 fails.
(set-logic HORN)
(declare-fun fib (Int Int) Bool)
(assert (forall ((n Int) (r Int)) (=> (and (<= n 1) (>= n 0) (= r n)) (fib n r))))
(assert (forall ((n Int) (a Int) (b Int) (r Int))
  (=> (and (>= n 2) (fib (- n 1) a) (fib (- n 2) b) (= r (+ a b))) (fib n r))))
(assert (forall ((n Int) (r Int)) (=> (and (fib n r) (= n 10) (< r 60)) false)))
(check-sat)
