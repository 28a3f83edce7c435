; expect: sat
; Regression verification in the style of llreve (own encoding): program 1 counts i up to n
; and j along with it; program 2 counts m down from n and k up. Run in lockstep while both
; loops run, then each alone; at the end j = k. The invariant is relational
; (i = j, k + m = n, ...): blocking one counterexample value at a time never converges,
; Farkas-interpolant lemmas do.
(set-logic HORN)
(declare-fun inv (Int Int Int Int Int) Bool)
(assert (forall ((i Int) (j Int) (n Int) (m Int) (k Int))
  (=> (and (= i 0) (= j 0) (= k 0) (= m n)) (inv i j n m k))))
(assert (forall ((i Int) (j Int) (n Int) (m Int) (k Int))
  (=> (and (inv i j n m k) (<= i n) (>= m 0)) (inv (+ i 1) (+ j 1) n (- m 1) (+ k 1)))))
(assert (forall ((i Int) (j Int) (n Int) (m Int) (k Int))
  (=> (and (inv i j n m k) (<= i n) (< m 0)) (inv (+ i 1) (+ j 1) n m k))))
(assert (forall ((i Int) (j Int) (n Int) (m Int) (k Int))
  (=> (and (inv i j n m k) (> i n) (>= m 0)) (inv i j n (- m 1) (+ k 1)))))
(assert (forall ((i Int) (j Int) (n Int) (m Int) (k Int))
  (=> (and (inv i j n m k) (> i n) (< m 0) (not (= j k))) false)))
(check-sat)
