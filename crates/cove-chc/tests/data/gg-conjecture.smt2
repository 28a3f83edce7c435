; Two phases: i counts to 20, then j grows by 2. Lemma clusters here differ in the constant
; of one literal, the conjecture rule's case: the query is retried without that literal.
; expect: sat
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((i Int) (j Int)) (=> (and (= i 0) (= j 0)) (inv i j))))
(assert (forall ((i Int) (j Int) (i1 Int) (j1 Int))
  (=> (and (inv i j) (< i 20) (= i1 (+ i 1)) (= j1 j)) (inv i1 j1))))
(assert (forall ((i Int) (j Int) (i1 Int) (j1 Int))
  (=> (and (inv i j) (>= i 20) (= i1 i) (= j1 (+ j 2))) (inv i1 j1))))
(assert (forall ((i Int) (j Int)) (=> (and (inv i j) (< i 20) (> j 0)) false)))
(assert (forall ((i Int) (j Int)) (=> (and (inv i j) (= j 3)) false)))
