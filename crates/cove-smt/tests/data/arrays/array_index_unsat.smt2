; Arrays indexed by arrays (Solidity's bytes-keyed mappings): a read at an index equal to
; the written one sees the write, and reads at equal index arrays agree (congruence).
; Both unsat (z3: unsat).
(set-logic QF_ALIA)
(declare-const m (Array (Array Int Int) Int))
(declare-const k (Array Int Int))
(declare-const l (Array Int Int))
(declare-const x Int)
(push 1)
(assert (= k (store l 0 x)))
(assert (not (= (select (store m (store l 0 x) 5) k) 5)))
(check-sat)
(pop 1)
(assert (= k l))
(assert (not (= (select m k) (select m l))))
(check-sat)
