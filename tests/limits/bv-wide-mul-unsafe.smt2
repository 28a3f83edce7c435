; x starts at 1 and is multiplied by any z each step (2048-bit): x = 12 is reached at step 1: unsat. The blaster, the
; Tseitin encoding of its 4M-gate cone, the AIG reduction and the solvers' drop must poll the limit.
(set-logic HORN)
(declare-fun inv ((_ BitVec 2048)) Bool)
(assert (forall ((x (_ BitVec 2048))) (=> (= x (_ bv1 2048)) (inv x))))
(assert (forall ((x (_ BitVec 2048)) (y (_ BitVec 2048)) (z (_ BitVec 2048))) (=> (and (inv x) (= y (bvmul x z))) (inv y))))
(assert (forall ((x (_ BitVec 2048))) (=> (and (inv x) (= x (_ bv12 2048))) false)))
(check-sat)
