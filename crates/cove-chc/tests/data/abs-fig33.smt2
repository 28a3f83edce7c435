; expect: sat
; Thesis Fig. 3.3 (the program P_g of Fig. 3.1 as a transition system), our encoding:
; three alternatives for (x, y), lock-step updates of w and z, error x >= 4 and y <= 2.
(set-logic HORN)
(declare-fun lp (Int Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int) (w Int))
  (=> (and (= x 0) (= y 0) (= z 0) (= w 0)) (lp x y z w))))
(assert (forall ((x Int) (y Int) (z Int) (w Int) (x1 Int) (y1 Int) (z1 Int) (w1 Int))
  (=> (and (lp x y z w)
           (or (and (= x1 (+ x 1)) (= y1 (+ y 100)))
               (and (>= x 4) (= x1 (+ x 1)) (= y1 (+ y 1)))
               (and (> y (* 10 w)) (>= z (* 100 x)) (= y1 (- 0 y)) (= x1 x)))
           (= w1 (+ w 1))
           (= z1 (+ z 10)))
      (lp x1 y1 z1 w1))))
(assert (forall ((x Int) (y Int) (z Int) (w Int))
  (=> (and (lp x y z w) (>= x 4) (<= y 2)) false)))
(check-sat)
