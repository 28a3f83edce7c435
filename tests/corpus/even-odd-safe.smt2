; expect: sat
; Mutual recursion: even(n) and odd(n) computed by decrementing; even(2k) never says odd.
(set-logic HORN)
(declare-fun even (Int Bool) Bool)
(declare-fun odd (Int Bool) Bool)
(assert (forall ((n Int)) (=> (= n 0) (even n true))))
(assert (forall ((n Int)) (=> (= n 0) (odd n false))))
(assert (forall ((n Int) (b Bool)) (=> (and (> n 0) (odd (- n 1) b)) (even n b))))
(assert (forall ((n Int) (b Bool)) (=> (and (> n 0) (even (- n 1) b)) (odd n b))))
(assert (forall ((n Int) (b Bool)) (=> (and (even n b) (= n 6) (not b)) false)))
(check-sat)
