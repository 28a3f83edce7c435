; expect: sat
; A Boolean flag toggles each step while a counter alternates between 0 and 1.
(set-logic HORN)
(declare-fun st (Bool Int) Bool)
(assert (forall ((b Bool) (c Int)) (=> (and (not b) (= c 0)) (st b c))))
(assert (forall ((b Bool) (c Int) (b1 Bool) (c1 Int))
  (=> (and (st b c) (= b1 (not b)) (= c1 (ite b 0 1))) (st b1 c1))))
(assert (forall ((b Bool) (c Int)) (=> (and (st b c) (or (and b (not (= c 1))) (> c 1))) false)))
(check-sat)
