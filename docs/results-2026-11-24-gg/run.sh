#!/bin/bash
# usage: run.sh BIN LIST OUT ; per file: z3, then cove configs, 20 s each, one at a time
BIN=$1; LIST=$2; OUT=$3
CONFS=("base:" "nosubsume:subsume=0" "concretize:concretize=1" "conjecture:conjecture=1")
: > $OUT
while read f exp; do
  p=/work/shared/bench/$f
  s=$(date +%s.%N); r=$(timeout 20 z3 $p 2>/dev/null | head -1); e=$(date +%s.%N)
  [ -z "$r" ] && r=timeout
  printf "%s\t%s\tz3\t%s\t%.2f\n" "$f" "$exp" "$r" $(echo "$e - $s" | bc) >> $OUT
  for c in "${CONFS[@]}"; do
    name=${c%%:*}; opts=${c#*:}
    s=$(date +%s.%N); r=$(timeout 25 $BIN $p 20 $opts 2>/tmp/gg/stats_${name}_$(basename $f).txt | head -1); e=$(date +%s.%N)
    [ -z "$r" ] && r=timeout
    printf "%s\t%s\t%s\t%s\t%.2f\n" "$f" "$exp" "$name" "$r" $(echo "$e - $s" | bc) >> $OUT
  done
done < $LIST
