#!/usr/bin/env bash
# Benchmark cove-sat against MiniSat on generated instances (random 3-SAT at ratio 4.26,
# pigeonhole, adder/multiplier miters, graph coloring). Not a test: it takes minutes.
# Times are CPU seconds (user + system) measured with /usr/bin/time for both solvers.
# Needs `minisat` on PATH for the comparison column (Debian: apt-get install -y minisat).
# Extra arguments are passed on, e.g. `scripts/sat/vs-minisat.sh --quick` or `--timeout 30 --filter php`.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p cove-sat --example bench --example dimacs
exec cargo run --release -q -p cove-sat --example bench -- "$@"
