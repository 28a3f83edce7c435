; expect: unsat
; A thread-modular encoding in the style of Ultimate's (CHC-COMP LIA-Arrays
; 05_tas_simplified): one predicate Inv(lock, count, pc1, pc2) over the shared state and two
; explicit thread slots, a swap rule for symmetry, and an interference rule with three Inv
; atoms (a third thread entering the critical section). The lock acquisition forgets to test
; the lock, so two threads enter together and count reaches 2. The bug needs only the linear
; rules (linear-bmc's under-approximation); the interference clause comes first, so its
; derivation's clause indices must be mapped back.
(set-logic HORN)
(declare-fun Inv (Int Int Int Int) Bool)
(assert (forall ((l Int) (c Int) (p Int) (q Int) (r Int) (s Int))
  (=> (and (Inv l c p q) (Inv l c r q) (Inv l c p s) (= r 1)) (Inv l (+ c 1) p q))))
(assert (forall ((l Int) (c Int) (p Int) (q Int))
  (=> (and (= l 0) (= c 0) (= p 0) (= q 0)) (Inv l c p q))))
(assert (forall ((l Int) (c Int) (p Int) (q Int)) (=> (Inv l c p q) (Inv l c q p))))
(assert (forall ((l Int) (c Int) (p Int) (q Int)) (=> (and (Inv l c p q) (= p 0)) (Inv 1 c 1 q))))
(assert (forall ((l Int) (c Int) (p Int) (q Int)) (=> (and (Inv l c p q) (= p 1)) (Inv l (+ c 1) 2 q))))
(assert (forall ((l Int) (c Int) (p Int) (q Int))
  (=> (and (Inv l c p q) (= p 2) (= c 1)) (Inv 0 (- c 1) 0 q))))
(assert (forall ((l Int) (c Int) (p Int) (q Int))
  (=> (and (Inv l c p q) (= p 2) (not (= c 1))) (Inv l c 9 q))))
(assert (forall ((l Int) (c Int) (p Int) (q Int)) (=> (and (Inv l c p q) (= p 9)) false)))
(check-sat)
