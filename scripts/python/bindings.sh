#!/usr/bin/env bash
# Builds the Python bindings (crates/cove-py, module `cove`) into a virtual environment and
# runs their pytest tests. Needs python3 with venv, the Rust toolchain, and PyPI access the
# first time (maturin, pytest; the venv is reused).
# Usage: scripts/python/bindings.sh [VENV_DIR]   (default target/py-venv)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${1:-$root/target/py-venv}"
if [ ! -x "$venv/bin/python3" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python3" -m pip install -q "maturin>=1.5,<2" pytest
# `maturin develop` builds in the workspace's target/ (sharing compiled crates with cargo)
# and installs the module into the venv.
(cd "$root" && VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
  nice maturin develop --release --quiet)
"$venv/bin/python3" -m pytest -q "$root/crates/cove-py/tests"
