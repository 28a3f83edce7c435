#!/usr/bin/env bash
# Runs a benchmark manifest on a SLURM cluster: N array tasks, one shard each, then one
# merge job that combines the shards into OUT/merged (tables, results.csv/json, cactus and
# scatter plots), whatever the shards' exit codes.
#   contrib/slurm/submit.sh MANIFEST ROOT OUT N [extra sbatch options...]
# Example: TIMEOUT=300 VS='z3 {}' contrib/slurm/submit.sh ../shared/bench/chc.tsv \
#            ../shared/bench /scratch/cove-run 32 --partition=short
set -euo pipefail
manifest="$1" root="$2" out="$3" n="$4"
shift 4
here="$(cd "$(dirname "$0")" && pwd)"
cove="${COVE:-$(command -v cove || echo "$here/../../target/release/cove")}"
mkdir -p "$out"
export COVE="$cove"
array=$(sbatch --parsable --array="0-$((n - 1))" --output="$out/shard-%a.log" "$@" \
  "$here/cove-bench.sbatch" "$manifest" "$root" "$out")
merge_cmd=$(printf '%q ' "$cove" bench --merge)
for ((i = 0; i < n; i++)); do merge_cmd+=$(printf '%q ' "$out/shard-$i"); done
merge_cmd+=$(printf '%q ' --out "$out/merged")
merge=$(sbatch --parsable --dependency="afterany:$array" --job-name=cove-merge \
  --output="$out/merge.log" "$@" --wrap "$merge_cmd")
echo "submitted array job $array ($n shards) and merge job $merge; report: $out/merged/summary.txt"
