; Counting loop x, y to 30: lemma clusters differ in constants; the subsume rule projects them.
; expect: sat
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (< x 30) (= x1 (+ x 1)) (= y1 (+ y 1))) (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (>= x 30) (< y 30)) false)))
