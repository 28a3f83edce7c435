; expect: sat
; Thesis Appendix 2.A (GPDR divergence), our encoding. Loop(cx, cy, k, n) counts cx, cy and k
; up together from 0; Inc(u, v) is v = u + 1; Main(a, b) calls Loop to k = n and then Inc.
; Property of Main: a <= b.
(set-logic HORN)
(declare-fun Loop (Int Int Int Int) Bool)
(declare-fun Inc (Int Int) Bool)
(declare-fun Main (Int Int) Bool)
(assert (forall ((cx Int) (cy Int) (k Int) (n Int))
  (=> (and (= cx 0) (= cy 0) (= k 0)) (Loop cx cy k n))))
(assert (forall ((cx Int) (cy Int) (k Int) (n Int))
  (=> (and (Loop cx cy k n) (> (+ k 1) 0)) (Loop (+ cx 1) (+ cy 1) (+ k 1) n))))
(assert (forall ((u Int) (v Int)) (=> (= v (+ u 1)) (Inc u v))))
(assert (forall ((cx Int) (a Int) (n Int) (b Int))
  (=> (and (Loop cx a n n) (Inc cx b) (> n 0)) (Main a b))))
(assert (forall ((a Int) (b Int)) (=> (and (Main a b) (> a b)) false)))
(check-sat)
