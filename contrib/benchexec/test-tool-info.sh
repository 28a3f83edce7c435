#!/usr/bin/env bash
# Installs BenchExec from PyPI into a virtual environment, builds Cove, and checks the
# tool-info module contrib/benchexec/cove_benchexec/cove.py:
#   1. `python3 -m benchexec.test_tool_info` (BenchExec's own checker) with the tool
#      directory = repository root, a sample task definition and sample outputs;
#   2. check_tool_info.py (assertions on executable, version, command line, result mapping
#      and a real run).
# Needs python3 with venv and network access to PyPI (once; the venv is reused).
# Usage: contrib/benchexec/test-tool-info.sh [VENV_DIR]   (default target/benchexec-venv)
# BenchExec runs the tool in a container; where no overlay filesystem is available (as in
# many CI sandboxes) the root is mounted read-only instead. Override with
# BENCHEXEC_CONTAINER_ARGS, e.g. BENCHEXEC_CONTAINER_ARGS=--no-container.
# The tool directory is the repository root (the script changes into it), so the
# executable is found as target/release/cove.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${1:-$root/target/benchexec-venv}"

if [ ! -x "$venv/bin/python3" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python3" -m pip install -q --upgrade "benchexec>=3.3"
(cd "$root" && nice cargo build --release -q --bin cove)

export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
echo "== python3 -m benchexec.test_tool_info cove_benchexec.cove"
(cd "$root" && "$venv/bin/python3" -m benchexec.test_tool_info cove_benchexec.cove \
  --tool-directory . ${BENCHEXEC_CONTAINER_ARGS---read-only-dir / --hidden-dir /home} \
  --task-definition "$here/sample-task/counter.yml" \
  --tool-output "$here"/sample-output/*.log)
echo "== check_tool_info.py"
"$venv/bin/python3" "$here/check_tool_info.py" "$root"
