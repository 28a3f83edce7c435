; expect: sat
; McCarthy's 91 function (nonlinear recursion): for n <= 101 the result is 91.
(set-logic HORN)
(declare-fun mc (Int Int) Bool)
(assert (forall ((n Int) (r Int)) (=> (and (> n 100) (= r (- n 10))) (mc n r))))
(assert (forall ((n Int) (t Int) (r Int))
  (=> (and (<= n 100) (mc (+ n 11) t) (mc t r)) (mc n r))))
(assert (forall ((n Int) (r Int)) (=> (and (mc n r) (<= n 101) (not (= r 91))) false)))
(check-sat)
