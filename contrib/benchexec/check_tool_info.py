#!/usr/bin/env python3
"""Checks the tool-info module `cove_benchexec.cove` against BenchExec's API: executable
lookup, version, command line, and the result mapping of real Cove runs and of synthetic
outputs (exit codes, timeouts). Run by test-tool-info.sh inside the BenchExec venv.

    PYTHONPATH=contrib/benchexec python3 contrib/benchexec/check_tool_info.py REPO_ROOT
"""

import os
import subprocess
import sys

import benchexec.result as result
from benchexec import util
from benchexec.tooladapter import CURRENT_BASETOOL as Base

from cove_benchexec.cove import Tool

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
tool = Tool()
exe = tool.executable(Base.ToolLocator(tool_directory=root))
assert os.path.basename(exe) == "cove", exe
version = tool.version(exe)
assert version and version[0].isdigit(), version

task = Base.Task.with_files([os.path.join(root, "examples/counter.smt2")],
                            property_file=None, options=None)
limits = Base.ResourceLimits(cputime=20)
cmd = tool.cmdline(exe, ["--engine", "spacer"], task, limits)
assert cmd == [exe, "solve", "--timeout", "19", "--engine", "spacer",
               task.single_input_file], cmd
cmd2 = tool.cmdline(exe, ["--timeout", "5"], task, limits)
assert cmd2.count("--timeout") == 1, cmd2
# Two cores: the portfolio may burn CPU time twice as fast as wall-clock time.
cmd3 = tool.cmdline(exe, [], task, Base.ResourceLimits(cputime=20, walltime=60, cpu_cores=2))
assert cmd3[2:4] == ["--timeout", "9"], cmd3


def run_of(lines, code=0, signal=None, termination=None):
    exit_code = util.ProcessExitCode.create(value=code, signal=signal) if signal is None \
        else util.ProcessExitCode.create(signal=signal)
    return Base.Run(cmd, exit_code, Base.RunOutput(lines), termination)


def analyze(lines, **kw):
    return tool.determine_result(run_of(lines, **kw))


cases = [
    (["sat", "(define-fun inv ((x0 Int)) Bool (>= x0 0))"], {}, result.RESULT_TRUE_PROP),
    (["unsat"], {}, result.RESULT_FALSE_PROP),
    (["warning: could not be validated in time", "unknown"], {}, result.RESULT_UNKNOWN),
    (["f.smt2:3:1: error: unsupported sort"], {"code": 2}, "ERROR (bad input)"),
    (["error: the sat certificate failed validation", "unknown"], {"code": 3},
     "ERROR (invalid certificate)"),
    (["thread 'main' panicked"], {"code": 4}, "ERROR (internal)"),
    ([], {"signal": 9, "termination": "cputime"}, result.RESULT_TIMEOUT),
    ([], {"signal": 9}, result.RESULT_ERROR),
]
for lines, kw, want in cases:
    got = analyze(lines, **kw)
    assert got == want, (lines, kw, got, want)
    assert result.get_result_classification(got) in (
        result.RESULT_CLASS_TRUE, result.RESULT_CLASS_FALSE, result.RESULT_CLASS_OTHER)

# A real run: the bundled counter example is safe.
out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
real = analyze((out.stdout + out.stderr).splitlines(), code=out.returncode)
assert real == result.RESULT_TRUE_PROP, (out.stdout, out.stderr, real)

print(f"tool-info checks passed: Cove {version} at {exe}, {len(cases)} synthetic "
      f"outputs and one real run mapped as expected")
