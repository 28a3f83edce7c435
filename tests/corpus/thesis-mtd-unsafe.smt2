; expect: unsat
; Thesis Fig. 2.3, our encoding with one clause per path:
;   M(m){T(m); D(m); D(m);}   T(t){if(t>0){t:=t-2; T(t); t:=t+1;}}   D(d){d:=d-1;}
; Relations relate input and output values. Property of M: m_in >= 2*m_out + 5, which fails for m_in = 0.
(set-logic HORN)
(declare-fun T (Int Int) Bool)
(declare-fun D (Int Int) Bool)
(declare-fun M (Int Int) Bool)
(assert (forall ((a Int) (b Int)) (=> (and (<= a 0) (= b a)) (T a b))))
(assert (forall ((a Int) (b Int) (c Int) (r Int))
  (=> (and (> a 0) (T (- a 2) c) (= r (+ c 1))) (T a r))))
(assert (forall ((a Int)) (D a (- a 1))))
(assert (forall ((a Int) (b Int) (c Int) (r Int)) (=> (and (T a b) (D b c) (D c r)) (M a r))))
(assert (forall ((a Int) (r Int)) (=> (and (M a r) (< a (+ (* 2 r) 5))) false)))
(check-sat)
