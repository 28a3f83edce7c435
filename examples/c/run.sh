#!/usr/bin/env bash
# Builds Cove's C library, compiles examples/c/solve.c with the system C compiler against
# it (and examples/c/solve.cpp with the C++ compiler, when there is one), runs them and
# checks their output. Needs a C compiler (cc) besides the Rust toolchain.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cargo build --release -q -p cove-capi
target="${CARGO_TARGET_DIR:-$root/target}"
out="$target/c-example"
mkdir -p "$out"
inc="$root/crates/cove-capi/include"
lib="$target/release"

# Against the shared library (rpath so it runs without installing it) ...
cc -std=c99 -Wall -Wextra -Werror -I"$inc" examples/c/solve.c -L"$lib" -lcove_capi \
  -Wl,-rpath,"$lib" -o "$out/solve"
# ... and against the static one.
cc -std=c99 -Wall -Wextra -Werror -I"$inc" examples/c/solve.c "$lib/libcove_capi.a" \
  -lpthread -ldl -lm -o "$out/solve-static"

check() {
  local name="$1" file="$2"
  grep -qx "sat" "$file" || { echo "$name: no 'sat' line"; cat "$file"; exit 1; }
  grep -q "^(define-fun inv ((x0 Int)) Bool" "$file" \
    || { echo "$name: no invariant"; cat "$file"; exit 1; }
  grep -q "^invariant of inv over x0:Int: " "$file" \
    || { echo "$name: no walked invariant"; cat "$file"; exit 1; }
  grep -qx "unsat" "$file" || { echo "$name: no 'unsat' line"; cat "$file"; exit 1; }
  grep -q "inv(7) inv(6) inv(5) inv(4) inv(3) inv(2) inv(1) inv(0)$" "$file" \
    || { echo "$name: wrong counterexample"; cat "$file"; exit 1; }
  grep -q "^pop with no scope: status 3, \"pop(1) with 0 scope(s) open\"$" "$file" \
    || { echo "$name: wrong error report"; cat "$file"; exit 1; }
}

"$out/solve" > "$out/solve.out"
check "C (shared)" "$out/solve.out"
"$out/solve-static" > "$out/solve-static.out"
check "C (static)" "$out/solve-static.out"
cat "$out/solve.out"
passed=2

# Files of each language through cove_solve_file.
cc -std=c99 -Wall -Wextra -Werror -I"$inc" examples/c/solve_file.c -L"$lib" -lcove_capi \
  -Wl,-rpath,"$lib" -o "$out/solve_file"
data=crates/cove-aig/tests/data
"$out/solve_file" examples/counter.smt2 "$data/counter4_unsafe.aig" \
  "$data/btor2/counter_safe.btor2" > "$out/solve_file.out"
for line in "examples/counter.smt2: chc sat (safe), validation valid" \
  "$data/counter4_unsafe.aig: aiger unsafe (unsafe), validation valid" \
  "$data/btor2/counter_safe.btor2: btor2 safe (safe), validation valid"; do
  grep -qxF "$line" "$out/solve_file.out" \
    || { echo "solve_file: no line '$line'"; cat "$out/solve_file.out"; exit 1; }
done
cat "$out/solve_file.out"
passed=3

if command -v c++ > /dev/null; then
  c++ -std=c++17 -Wall -Wextra -Werror -I"$inc" examples/c/solve.cpp -L"$lib" -lcove_capi \
    -Wl,-rpath,"$lib" -o "$out/solve-cpp"
  "$out/solve-cpp" > "$out/solve-cpp.out"
  check "C++" "$out/solve-cpp.out"
  passed=4
fi
echo "c-examples: $passed passed, 0 failed"
