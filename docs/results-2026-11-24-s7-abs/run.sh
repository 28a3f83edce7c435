#!/bin/bash
# Issue 14 table: per file, z3 then Spacer and the three spacer-abs variants, 20 s each, one at a time.
cd /work/s7/abs
OUT=table.tsv; : > $OUT
CONFS=("spacer:engine=spacer" "pba:engine=spacer-abs variant=pba" "concretize:engine=spacer-abs variant=concretize" "cegar:engine=spacer-abs variant=cegar")
while IFS=$'\t' read f exp; do
  p=/work/shared/bench/$f
  s=$(date +%s.%N); r=$(timeout 21 z3 -T:20 $p 2>/dev/null | head -1); e=$(date +%s.%N)
  [ -z "$r" ] && r=timeout
  printf "%s\t%s\tz3\t%s\t%.2f\t-\t-\t-\n" "$f" "$exp" "$r" $(echo "$e - $s" | bc) >> $OUT
  for c in "${CONFS[@]}"; do
    name=${c%%:*}; opts=${c#*:}
    s=$(date +%s.%N); r=$(timeout 25 ./engine_opts $p 20 $opts 2>stats.txt | head -1); e=$(date +%s.%N)
    [ -z "$r" ] && r=timeout
    fp=$(grep '^abs-final-pct' stats.txt | cut -d' ' -f2); mp=$(grep '^abs-max-pct' stats.txt | cut -d' ' -f2); rf=$(grep '^abs-refinements' stats.txt | cut -d' ' -f2)
    printf "%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\n" "$f" "$exp" "$name" "$r" $(echo "$e - $s" | bc) "${fp:--}" "${mp:--}" "${rf:--}" >> $OUT
  done
done < list.tsv
