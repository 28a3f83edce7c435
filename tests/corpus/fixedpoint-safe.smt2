; expect: sat
; Z3 fixedpoint format: i from 0 to n in steps of 1, sum s = 2i stays even and s >= 0.
(declare-rel loop (Int Int Int))
(declare-rel err ())
(declare-var i Int)
(declare-var s Int)
(declare-var n Int)
(rule (=> (and (= i 0) (= s 0) (>= n 0)) (loop i s n)))
(rule (=> (and (loop i s n) (< i n)) (loop (+ i 1) (+ s 2) n)))
(rule (=> (and (loop i s n) (< s 0)) err))
(query err)
