; expect: unsat
; Reals: x grows by 1/3 from 0 while y grows by 1; x = 1 is reached when y = 3.
(set-logic HORN)
(declare-fun inv (Real Real) Bool)
(assert (forall ((x Real) (y Real)) (=> (and (= x 0.0) (= y 0.0)) (inv x y))))
(assert (forall ((x Real) (y Real) (x1 Real) (y1 Real))
  (=> (and (inv x y) (= x1 (+ x (/ 1.0 3.0))) (= y1 (+ y 1.0))) (inv x1 y1))))
(assert (forall ((x Real) (y Real)) (=> (and (inv x y) (>= x 1.0) (>= y 3.0)) false)))
(check-sat)
