; expect: sat
; x walks between -100 and 100 in steps of y; y flips sign at the ends. Safe: the invariant
; -100 <= x + y <= 100, -100 <= x <= 100 needs -1 <= y <= 1, which no counterexample mentions
; (CHC-COMP's aeval multi-phase s_split family has this shape).
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 1)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (= x1 (+ x y))
           (= y1 (ite (and (> x1 (- 100)) (< x1 100)) y (- y))))
      (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (or (> x 100) (< x (- 100)))) false)))
(check-sat)
