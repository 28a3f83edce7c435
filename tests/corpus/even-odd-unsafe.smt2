; expect: unsat
; Same program; the claim that odd(5) is false is wrong.
(set-logic HORN)
(declare-fun even (Int Bool) Bool)
(declare-fun odd (Int Bool) Bool)
(assert (forall ((n Int)) (=> (= n 0) (even n true))))
(assert (forall ((n Int)) (=> (= n 0) (odd n false))))
(assert (forall ((n Int) (b Bool)) (=> (and (> n 0) (odd (- n 1) b)) (even n b))))
(assert (forall ((n Int) (b Bool)) (=> (and (> n 0) (even (- n 1) b)) (odd n b))))
(assert (forall ((n Int) (b Bool)) (=> (and (odd n b) (= n 5) b) false)))
(check-sat)
