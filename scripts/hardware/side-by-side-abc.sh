#!/bin/bash
# Side by side per file: ABC pdr, cove ic3, cove portfolio, all started together (same load).
# Needs ABC on PATH as `berkeley-abc` (Debian: apt-get install berkeley-abc) and bc; reads the
# manifest aiger.tsv of ../shared/bench (beside the repository). Rows: path, expected, ABC's
# answer and seconds, `--engine ic3`'s, the portfolio's.
# usage: scripts/hardware/side-by-side-abc.sh COVEBIN SECS OUT.tsv
BIN=$(realpath "$1"); T=$2; OUT=$(realpath "$3")
cd "$(dirname "$0")/../../../shared/bench"
: > $OUT
while IFS=$'\t' read -r track path exp; do
  d=$(mktemp -d)
  ( s=$(date +%s.%N); timeout $((T+5)) berkeley-abc -c "read_aiger $path; fold; pdr -T $T" > $d/abc 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc > $d/abc.t ) &
  ( s=$(date +%s.%N); timeout $((T+5)) $BIN solve --engine ic3 --timeout $T $path > $d/ic3 2>$d/ic3.err; e=$(date +%s.%N); echo "$e - $s" | bc > $d/ic3.t ) &
  ( s=$(date +%s.%N); timeout $((T+5)) $BIN solve --engine portfolio --timeout $T $path > $d/pf 2>$d/pf.err; e=$(date +%s.%N); echo "$e - $s" | bc > $d/pf.t ) &
  wait
  if grep -q "Property proved" $d/abc; then a=unsat; elif grep -q "was asserted" $d/abc; then a=sat; else a=unknown; fi
  w() { case "$(head -1 $1)" in 1) echo sat;; 0) echo unsat;; 2) echo unknown;; *) echo error;; esac; }
  printf "%s\t%s\t%s\t%.2f\t%s\t%.2f\t%s\t%.2f\n" "$path" "$exp" "$a" "$(cat $d/abc.t)" "$(w $d/ic3)" "$(cat $d/ic3.t)" "$(w $d/pf)" "$(cat $d/pf.t)" >> $OUT
  rm -rf $d
done < aiger.tsv
