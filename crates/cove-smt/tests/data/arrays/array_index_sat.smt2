; Reads of an array-indexed array at two different index arrays can differ; the model
; must give m, k and l values that satisfy every assertion (z3: sat).
(set-logic QF_ALIA)
(declare-const m (Array (Array Int Int) Int))
(declare-const k (Array Int Int))
(declare-const l (Array Int Int))
(assert (= (select k 0) (select l 0)))
(assert (not (= (select m k) (select m l))))
(assert (= (select (store m k 3) l) 4))
(check-sat)
(get-model)
