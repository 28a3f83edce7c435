; expect: sat
; Arrays: copying cell 0 forward keeps the last written cell equal to cell 0.
(set-logic HORN)
(declare-fun Inv ((Array Int Int) Int Int) Bool)
(assert (forall ((a (Array Int Int)) (i Int) (n Int)) (=> (and (= i 0) (> n 0)) (Inv a i n))))
(assert (forall ((a (Array Int Int)) (i Int) (n Int)) (=> (and (Inv a i n) (< i n)) (Inv (store a i (select a 0)) (+ i 1) n))))
(assert (forall ((a (Array Int Int)) (i Int) (n Int)) (=> (and (Inv a i n) (>= i n) (not (= (select a 0) (select a (- n 1))))) false)))
(check-sat)
