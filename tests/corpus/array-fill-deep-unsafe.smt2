; expect: unsat
; Arrays: after the loop cell 5 holds 1 (an 11-step counterexample with array values: deep for BMC).
(set-logic HORN)
(declare-fun Inv ((Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int)) (i Int)) (=> (and (= a ((as const (Array Int Int)) 0)) (= i 0)) (Inv a i))))
(assert (forall ((a (Array Int Int)) (i Int)) (=> (and (Inv a i) (< i 10)) (Inv (store a i 1) (+ i 1)))))
(assert (forall ((a (Array Int Int)) (i Int)) (=> (and (Inv a i) (>= i 10) (= (select a 5) 1)) false)))
(check-sat)
