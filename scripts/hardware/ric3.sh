#!/bin/bash
# rIC3 (HWMCC'24/'25 bit-level winner) as a `cove bench --vs` reference: runs `rIC3 ARGS...`
# and prints its verdict in the hardware convention that cove bench reads on the first line:
# exit 10 (unsafe) -> `sat`, exit 20 (safe) -> `unsat`, anything else -> `unknown`. rIC3's own
# output goes to stderr. Install: `cargo +nightly install rIC3 --version 1.3.4 --locked`.
# usage: cove bench aiger.tsv --vs 'timeout 20 scripts/hardware/ric3.sh {}'  (path absolute)
rIC3 "$@" >&2
case $? in
  10) echo sat ;;
  20) echo unsat ;;
  *) echo unknown ;;
esac
