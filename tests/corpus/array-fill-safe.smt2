; expect: sat
; Arrays: a loop writes 1 into cells 0..9 of a zero array; cell 20 stays 0.
(set-logic HORN)
(declare-fun Inv ((Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int)) (i Int)) (=> (and (= a ((as const (Array Int Int)) 0)) (= i 0)) (Inv a i))))
(assert (forall ((a (Array Int Int)) (i Int)) (=> (and (Inv a i) (< i 10)) (Inv (store a i 1) (+ i 1)))))
(assert (forall ((a (Array Int Int)) (i Int)) (=> (and (Inv a i) (not (= (select a 20) 0))) false)))
(check-sat)
