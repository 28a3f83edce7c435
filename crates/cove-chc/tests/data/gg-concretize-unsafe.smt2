; As gg-concretize.smt2 with a reachable error (x reaches 4 after 4 steps).
; expect: unsat
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 1)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (= x1 (+ x y)) (= y1 (ite (and (> x1 (- 4)) (< x1 4)) y (- y)))) (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (>= x 4)) false)))
