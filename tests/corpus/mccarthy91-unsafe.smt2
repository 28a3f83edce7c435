; expect: unsat
; McCarthy's 91 function: claiming the result is 91 also for n = 102 is wrong (it is 92).
(set-logic HORN)
(declare-fun mc (Int Int) Bool)
(assert (forall ((n Int) (r Int)) (=> (and (> n 100) (= r (- n 10))) (mc n r))))
(assert (forall ((n Int) (t Int) (r Int))
  (=> (and (<= n 100) (mc (+ n 11) t) (mc t r)) (mc n r))))
(assert (forall ((n Int) (r Int)) (=> (and (mc n r) (<= n 102) (not (= r 91))) false)))
(check-sat)
