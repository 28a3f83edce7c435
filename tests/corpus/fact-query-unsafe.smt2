; expect: unsat
; The query holds of an initial state directly (depth 0).
(set-logic HORN)
(declare-fun p (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 3) (= y (* 2 x))) (p x y))))
(assert (forall ((x Int) (y Int)) (=> (and (p x y) (= y 6)) false)))
(check-sat)
