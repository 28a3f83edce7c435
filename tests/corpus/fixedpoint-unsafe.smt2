; expect: unsat
; Z3 fixedpoint format: s = 2i, so s = 10 is reachable when n >= 5.
(declare-rel loop (Int Int Int))
(declare-var i Int)
(declare-var s Int)
(declare-var n Int)
(rule (=> (and (= i 0) (= s 0) (>= n 0)) (loop i s n)))
(rule (=> (and (loop i s n) (< i n)) (loop (+ i 1) (+ s 2) n)))
(query (and (loop i s n) (= s 10)))
