; The aeval multi-phase shape (s_split) in small: x moves by y, y flips at ±4; lemma
; clusters vary in the coefficient of y (x + k·y ≤ c), which is the concretize rule's case.
; expect: sat
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 1)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (= x1 (+ x y)) (= y1 (ite (and (> x1 (- 4)) (< x1 4)) y (- y)))) (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (or (> x 4) (< x (- 4)))) false)))
