; expect: sat
; x starts at 0 and grows by 2: it is never odd (needs a divisibility invariant).
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 2))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (= (mod x 2) 1)) false)))
(check-sat)
