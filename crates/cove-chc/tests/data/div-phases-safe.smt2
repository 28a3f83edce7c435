; expect: sat
; While f is set, x and y shrink by `div 10` together; then f drops. The invariant relates
; them through the fact's own term, x = y div 10 (with f = 0 -> y <= 9), which model-based
; projection never produces: its quotients are fresh variables projected away
; (engines/terms.rs proves it by Houdini over the clauses' terms).
(set-logic HORN)
(declare-fun Q (Int Int Int) Bool)
(assert (forall ((y Int)) (Q (div y 10) y 1)))
(assert (forall ((x Int) (y Int) (f Int))
  (=> (and (Q x y f) (not (= f 0)) (>= y 10)) (Q (div x 10) (div y 10) f))))
(assert (forall ((x Int) (y Int) (f Int))
  (=> (and (Q x y f) (not (= f 0)) (<= y 9)) (Q x y 0))))
(assert (forall ((x Int) (y Int))
  (=> (and (Q x y 0) (> x 0)) false)))
(check-sat)
