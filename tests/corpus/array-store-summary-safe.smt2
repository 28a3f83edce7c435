; expect: sat
; Arrays: a callee's state is the caller's map written at the sender (as Solidity's
; SMTChecker encodes a balance transfer). Queries on the callee must not pin its map to a
; model value (Spacer would enumerate map values): projection peels the write instead.
(set-logic HORN)
(declare-fun Pre ((Array Int Int) Int) Bool)
(declare-fun Callee ((Array Int Int) Int) Bool)
(declare-fun Post ((Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int)) (k Int)) (=> (>= (select a k) 0) (Pre a k))))
(assert (forall ((b (Array Int Int)) (k Int)) (=> (>= (select b k) 5) (Callee b k))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (k Int))
  (=> (and (Callee b k) (Pre a k) (= b (store a k (+ (select a k) 1)))) (Post b k))))
(assert (forall ((b (Array Int Int)) (k Int)) (=> (and (Post b k) (<= (select b k) 4)) false)))
(check-sat)
