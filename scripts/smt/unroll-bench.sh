#!/usr/bin/env bash
# Unrolling benchmark (issue 3, "Speed"): Cove's SMT core against z3 on QF_LIA/QF_LRA formulas
# that come from real CHC work.
#
# For every instance of a CHC manifest (`track<TAB>path<TAB>expected`, default
# ../shared/bench/chc.tsv) and every depth K, `cove unroll --depth K FILE` writes the bounded
# unrolling as an SMT-LIB2 script (satisfiable iff a counterexample of depth <= K exists).
# Instances whose unrolling fails (unsupported theory, parse error, too slow) are skipped and
# listed. Then `cove smt` and `z3` run on each script under the same wall-clock limit.
#
# Soundness checks (any hit is a bug and makes the script exit 1):
#   - both solvers answer and disagree;
#   - an unrolling of a system the manifest calls `sat` (safe) is satisfiable for either solver.
#
# Output: OUT/results.tsv (one row per formula), OUT/summary.txt (the table), both printed.
#
# Usage: scripts/smt/unroll-bench.sh [--limit N] [--depths "5 10 20"] [--timeout SECS]
#            [--manifest FILE] [--root DIR] [--out DIR] [--cove BIN] [--z3 BIN]
# --limit N picks N instances spread evenly over the manifest (every track is represented).
# Run it with `nice` on a shared machine; runs are sequential on purpose (timings stay comparable).
set -euo pipefail

here="$(cd "$(dirname "$0")/../.." && pwd)"
manifest="$here/../shared/bench/chc.tsv"
root=""
limit=0
depths="5 10 20"
tlimit=10
out="$here/bench-out/unroll"
cove="${COVE:-$here/target/release/cove}"
z3bin="${Z3:-}"
mem_kb=4000000   # 4 GB address-space limit per solver run

while [[ $# -gt 0 ]]; do
    case "$1" in
        --limit) limit="$2"; shift 2 ;;
        --depths) depths="$2"; shift 2 ;;
        --timeout) tlimit="$2"; shift 2 ;;
        --manifest) manifest="$2"; shift 2 ;;
        --root) root="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --cove) cove="$2"; shift 2 ;;
        --z3) z3bin="$2"; shift 2 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 1 ;;
    esac
done
[[ -n "$root" ]] || root="$(dirname "$manifest")"
[[ -x "$cove" ]] || { echo "cove binary not found: $cove (build with cargo build --release -p cove)" >&2; exit 1; }
if [[ -z "$z3bin" ]]; then
    z3bin=$(command -v z3) || { echo "z3 not found (pip install z3-solver)" >&2; exit 1; }
    # A pyenv shim is a shell script that would add its start-up time to every z3 run.
    if [[ "$z3bin" == */shims/* ]] && command -v pyenv >/dev/null; then z3bin=$(pyenv which z3); fi
fi

mkdir -p "$out/formulas"
res="$out/results.tsv"
skipped="$out/skipped.txt"
: >"$skipped"

# Instance selection: all, or `limit` entries spread evenly over the manifest.
mapfile -t entries < <(grep -v '^\s*#' "$manifest" | grep -v '^\s*$')
n=${#entries[@]}
selected=()
if [[ "$limit" -gt 0 && "$limit" -lt "$n" ]]; then
    for ((i = 0; i < limit; i++)); do selected+=("${entries[$((i * n / limit))]}"); done
else
    selected=("${entries[@]}")
fi

# run_solver NAME FILE -> prints "answer<TAB>wall seconds<TAB>cpu seconds" (answer: sat, unsat,
# unknown, timeout or error). CPU time (user+sys of the solver process) is reported next to the
# wall time because on a loaded machine it is the more stable of the two; the limit is wall time.
run_solver() {
    local which="$1" file="$2" rc=0 ans tf of
    tf=$(mktemp) of=$(mktemp)
    local TIMEFORMAT='%R %U %S'
    if [[ "$which" == cove ]]; then
        { time (ulimit -v "$mem_kb"; timeout "$tlimit" "$cove" smt "$file" >"$of" 2>/dev/null); } 2>"$tf" || rc=$?
    else
        { time (ulimit -v "$mem_kb"; timeout "$tlimit" "$z3bin" "$file" >"$of" 2>/dev/null); } 2>"$tf" || rc=$?
    fi
    ans=$(head -n1 "$of")
    case "$ans" in
        sat|unsat|unknown) ;;
        *) if [[ $rc -eq 124 || $rc -eq 137 ]]; then ans=timeout; else ans=error; fi ;;
    esac
    awk -v a="$ans" '{ printf "%s\t%.3f\t%.3f\n", a, $1, $2 + $3 }' "$tf"
    rm -f "$tf" "$of"
}

printf 'file\ttrack\texpected\tdepth\tcove\tcove_wall_s\tcove_cpu_s\tz3\tz3_wall_s\tz3_cpu_s\n' >"$res"
bugs=0
count=0
for entry in "${selected[@]}"; do
    IFS=$'\t' read -r track path expected <<<"$entry"
    src="$root/$path"
    base=$(echo "$path" | sed 's#^chc/##; s#/#__#g; s#\.smt2$##')
    for k in $depths; do
        f="$out/formulas/$base-d$k.smt2"
        if ! (ulimit -v "$mem_kb"; timeout 60 "$cove" unroll --depth "$k" "$src") >"$f" 2>"$f.err"; then
            echo "$path depth $k: $(head -c 200 "$f.err" | tr '\n' ' ')" >>"$skipped"
            rm -f "$f" "$f.err"
            continue
        fi
        rm -f "$f.err"
        IFS=$'\t' read -r ca cs cc < <(run_solver cove "$f")
        IFS=$'\t' read -r za zs zc < <(run_solver z3 "$f")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$path" "$track" "$expected" "$k" "$ca" "$cs" "$cc" "$za" "$zs" "$zc" >>"$res"
        count=$((count + 1))
        if [[ ( "$ca" == sat && "$za" == unsat ) || ( "$ca" == unsat && "$za" == sat ) ]]; then
            echo "BUG: disagreement on $f: cove=$ca z3=$za" >&2
            bugs=$((bugs + 1))
        fi
        if [[ "$expected" == sat && ( "$ca" == sat || "$za" == sat ) ]]; then
            echo "BUG: unrolling of a safe system is satisfiable: $f (cove=$ca z3=$za)" >&2
            bugs=$((bugs + 1))
        fi
        printf '\r%d formulas' "$count" >&2
    done
done
echo >&2

summary() {
    echo "unrolling benchmark: $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
    echo "instances: ${#selected[@]} of $n, depths: $depths, limit: ${tlimit}s per formula, formulas: $count, skipped: $(wc -l <"$skipped")"
    echo "z3: $("$z3bin" --version)"
    awk -F'\t' '
        function sortn(arr, m,    i, j, t) {
            for (i = 2; i <= m; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
        }
        function median(arr, m) {
            if (m == 0) return 0
            sortn(arr, m)
            return (m % 2) ? arr[(m + 1) / 2] : (arr[m / 2] + arr[m / 2 + 1]) / 2
        }
        NR == 1 { next }
        {
            rows++
            cs = ($5 == "sat" || $5 == "unsat"); zs = ($8 == "sat" || $8 == "unsat")
            csolved += cs; zsolved += zs
            csat += ($5 == "sat"); cuns += ($5 == "unsat"); zsat += ($8 == "sat"); zuns += ($8 == "unsat")
            # Totals count a run without an answer at its real time (about the limit).
            cw += $6; cc += $7; zw += $9; zc += $10
            cwa[rows] = $6; cca[rows] = $7; zwa[rows] = $9; zca[rows] = $10
            if (cs && zs) { both++; bcw += $6; bcc += $7; bzw += $9; bzc += $10 }
            if (cs && !zs) conly++
            if (zs && !cs) zonly++
            d = $4; dn[d]++; dc[d] += cs; dz[d] += zs; dcw[d] += $6; dzw[d] += $9; dcc[d] += $7; dzc[d] += $10
        }
        END {
            printf "\n| solver | solved | sat | unsat | total wall (s) | median wall (s) | total CPU (s) | median CPU (s) |\n"
            printf "|---|---|---|---|---|---|---|---|\n"
            printf "| cove smt | %d / %d | %d | %d | %.1f | %.3f | %.1f | %.3f |\n", csolved, rows, csat, cuns, cw, median(cwa, rows), cc, median(cca, rows)
            printf "| z3 | %d / %d | %d | %d | %.1f | %.3f | %.1f | %.3f |\n", zsolved, rows, zsat, zuns, zw, median(zwa, rows), zc, median(zca, rows)
            printf "\nsolved by both: %d, only cove: %d, only z3: %d\n", both, conly, zonly
            printf "cove/z3 total ratio: wall %.2f, CPU %.2f; on the %d formulas both solved: wall %.1f vs %.1f s (%.2f), CPU %.1f vs %.1f s (%.2f)\n", \
                (zw > 0 ? cw / zw : 0), (zc > 0 ? cc / zc : 0), both, bcw, bzw, (bzw > 0 ? bcw / bzw : 0), bcc, bzc, (bzc > 0 ? bcc / bzc : 0)
            printf "\n| depth | formulas | cove solved | z3 solved | cove total wall / CPU (s) | z3 total wall / CPU (s) |\n|---|---|---|---|---|---|\n"
            for (d in dn) order[++nd] = d + 0
            sortn(order, nd)
            for (i = 1; i <= nd; i++) { d = order[i]; printf "| %d | %d | %d | %d | %.1f / %.1f | %.1f / %.1f |\n", d, dn[d], dc[d], dz[d], dcw[d], dcc[d], dzw[d], dzc[d] }
        }' "$res"
    echo "times per formula include process start-up; wall-clock limit ${tlimit}s; a run without an answer counts at its real time (~limit)."
    echo "soundness: $bugs disagreement(s)/wrong answer(s)"
}
summary | tee "$out/summary.txt"
if [[ -s "$skipped" ]]; then
    echo "skipped (unroll failed):"
    sed 's/^/  /' "$skipped"
fi
[[ $bugs -eq 0 ]] || exit 1
