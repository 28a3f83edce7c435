#!/usr/bin/env bash
# BMC on the unsafe instances (issue 3, "Done when"): run
#   cove solve --engine bmc --timeout SECS --cex --stats FILE
# on every `unsat` entry of a CHC manifest (default ../shared/bench/chc.tsv) and validate each
# printed counterexample independently with `cove check FILE --witness W`.
#
# Reports how many counterexamples were found, at which depth (`bmc-depth` from --stats: the
# unrolling depth at which the query became satisfiable), how many of them are at depth <= 20,
# and that every witness validated. Instances without an answer are listed with the depth BMC
# had reached when the limit hit.
#
# Bugs (exit 1): BMC answers `sat` (it cannot prove safety, and the manifest says unsafe), or a
# printed witness fails `cove check`.
#
# Output: OUT/results.tsv, OUT/summary.txt and the witnesses in OUT/witnesses/.
# Usage: scripts/chc/bmc-bench.sh [--timeout SECS] [--limit N] [--manifest FILE] [--root DIR]
#            [--out DIR] [--cove BIN]
set -euo pipefail

here="$(cd "$(dirname "$0")/../.." && pwd)"
manifest="$here/../shared/bench/chc.tsv"
root=""
limit=0
tlimit=10
out="$here/bench-out/bmc"
cove="${COVE:-$here/target/release/cove}"
mem_kb=4000000

while [[ $# -gt 0 ]]; do
    case "$1" in
        --timeout) tlimit="$2"; shift 2 ;;
        --limit) limit="$2"; shift 2 ;;
        --manifest) manifest="$2"; shift 2 ;;
        --root) root="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --cove) cove="$2"; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 1 ;;
    esac
done
[[ -n "$root" ]] || root="$(dirname "$manifest")"
[[ -x "$cove" ]] || { echo "cove binary not found: $cove (build with cargo build --release -p cove)" >&2; exit 1; }

mkdir -p "$out/witnesses"
res="$out/results.tsv"
mapfile -t entries < <(awk -F'\t' '$3 == "unsat"' "$manifest")
if [[ "$limit" -gt 0 && "$limit" -lt ${#entries[@]} ]]; then entries=("${entries[@]:0:$limit}"); fi

printf 'file\ttrack\tanswer\tbmc_depth\twall_s\tcheck\n' >"$res"
bugs=0
i=0
for entry in "${entries[@]}"; do
    IFS=$'\t' read -r track path _ <<<"$entry"
    src="$root/$path"
    base=$(echo "$path" | sed 's#^chc/##; s#/#__#g; s#\.smt2$##')
    w="$out/witnesses/$base.cex"
    st="$out/witnesses/$base.stats"
    t0=$(date +%s%N)
    rc=0
    # The outer timeout only guards against an engine that ignores --timeout.
    (ulimit -v "$mem_kb"; timeout $((tlimit + 30)) "$cove" solve --engine bmc --timeout "$tlimit" --cex --stats "$src") \
        >"$w" 2>"$st" || rc=$?
    t1=$(date +%s%N)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    ans=$(head -n1 "$w")
    case "$ans" in sat|unsat|unknown) ;; *) ans="error(rc=$rc)" ;; esac
    depth=$(awk -F': *' '$1 == "bmc-depth" { print $2 }' "$st")
    check=-
    if [[ "$ans" == unsat ]]; then
        if timeout 120 "$cove" check "$src" --witness "$w" >"$w.check" 2>&1; then
            check=valid
        else
            check=INVALID
            echo "BUG: witness does not validate: $path ($w)" >&2
            bugs=$((bugs + 1))
        fi
    elif [[ "$ans" == sat ]]; then
        echo "BUG: bmc answered sat on an unsafe instance: $path" >&2
        bugs=$((bugs + 1))
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$path" "$track" "$ans" "${depth:--}" "$secs" "$check" >>"$res"
    i=$((i + 1))
    printf '\r%d / %d' "$i" "${#entries[@]}" >&2
done
echo >&2

{
    echo "BMC benchmark: $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
    echo "unsat instances: ${#entries[@]}, limit: cove solve --engine bmc --timeout ${tlimit} (wall clock)"
    awk -F'\t' '
        NR == 1 { next }
        {
            n++; tr[$2]++
            if ($3 == "unsat") {
                found++; ftr[$2]++; ft += $5
                if ($6 == "valid") valid++
                if ($4 + 0 <= 20) shallow++
                if ($4 + 0 > maxd) maxd = $4 + 0
                hist[$4 + 0]++
            } else other[$3]++
        }
        END {
            printf "\ncounterexamples found: %d / %d (depth <= 20: %d, deepest: %d), validated by cove check: %d / %d\n", found, n, shallow, maxd, valid, found
            printf "time on found instances: %.1f s in total\n", ft
            printf "\n| track | unsat instances | cex found |\n|---|---|---|\n"
            for (t in tr) printf "| %s | %d | %d |\n", t, tr[t], ftr[t]
            printf "\ncex depth histogram (bmc-depth: count):"
            for (d = 0; d <= maxd; d++) if (hist[d]) printf " %d:%d", d, hist[d]
            printf "\nnot found:"
            for (a in other) printf " %s %d", a, other[a]
            printf "\n"
        }' "$res"
    echo
    echo "instances without a counterexample (answer, depth reached when the limit hit):"
    awk -F'\t' 'NR > 1 && $3 != "unsat" { printf "  %s  %s  depth %s\n", $1, $3, $4 }' "$res"
    echo "soundness: $bugs bug(s)"
} | tee "$out/summary.txt"
[[ $bugs -eq 0 ]] || exit 1
