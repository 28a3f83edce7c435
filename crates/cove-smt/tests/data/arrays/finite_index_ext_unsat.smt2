; An array over a one-bit index whose two cells are 1 is the constant array 1 (z3: unsat).
(set-logic QF_ABV)
(declare-const a (Array (_ BitVec 1) (_ BitVec 4)))
(assert (= (select a #b0) #x1))
(assert (= (select a #b1) #x1))
(assert (not (= a ((as const (Array (_ BitVec 1) (_ BitVec 4))) #x1))))
(check-sat)
