; expect: sat
; Phase 1 counts x up to an even n; phase 2 steps x by 2. x is never odd in phase 2, but
; the proof needs "n even" in phase 1, while the queries arrive stating the parity of x
; (blocked only after restating it through x = n - 1: spacer/divisibility.rs).
(set-logic HORN)
(declare-fun up (Int Int) Bool)
(declare-fun twice (Int Int) Bool)
(assert (forall ((x Int) (n Int) (k Int))
  (=> (and (= x 0) (= n (* 2 k)) (> n 0)) (up x n))))
(assert (forall ((x Int) (n Int) (x1 Int))
  (=> (and (up x n) (< x n) (= x1 (+ x 1))) (up x1 n))))
(assert (forall ((x Int) (n Int))
  (=> (and (up x n) (>= x n)) (twice x n))))
(assert (forall ((x Int) (n Int) (x1 Int))
  (=> (and (twice x n) (< x 1000) (= x1 (+ x 2))) (twice x1 n))))
(assert (forall ((x Int) (n Int))
  (=> (and (twice x n) (= (mod x 2) 1)) false)))
(check-sat)
