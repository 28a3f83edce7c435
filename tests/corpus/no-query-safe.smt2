; expect: sat
; No query clause at all: trivially safe.
(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (> x 0) (p x))))
(check-sat)
