; expect: unsat
; A counterexample behind two guards: the abstraction loses both the increment and the
; guard, so CEGAR has to put constraints back before the real counterexample shows.
(set-logic HORN)
(declare-fun p (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (p x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (p x y) (< x 5) (= x1 (+ x 1)) (= y1 (+ y 2))) (p x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (p x y) (>= x 5) (>= y 10)) false)))
(check-sat)
