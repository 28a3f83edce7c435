"""BenchExec tool-info module for Cove, a CHC solver (CHC-COMP conventions).

Use it with BenchExec as tool `cove_benchexec.cove`, with `contrib/benchexec` on
`PYTHONPATH` (see contrib/benchexec/README.md).

Result mapping (CHC-COMP): `sat` means the system is satisfiable, i.e. the program is safe,
and is reported as `true`; `unsat` means a counterexample exists and is reported as
`false`; `unknown` stays `unknown`. Cove's exit codes distinguish bad input (2), a
certificate that failed validation (3) and internal errors (4); each becomes a distinct
`ERROR (…)` result so that BenchExec tables show why a run produced no answer.
"""

import benchexec.result as result
import benchexec.tools.template

# Exit codes of `cove solve` (README "Exit codes").
_EXIT_ERRORS = {
    1: "ERROR (usage)",
    2: "ERROR (bad input)",
    3: "ERROR (invalid certificate)",
    4: "ERROR (internal)",
}

# Answers of `cove solve`, first matching line of the output.
_ANSWERS = {
    "sat": result.RESULT_TRUE_PROP,
    "unsat": result.RESULT_FALSE_PROP,
    "unknown": result.RESULT_UNKNOWN,
}


class Tool(benchexec.tools.template.BaseTool2):
    """Tool info for Cove (`cove solve FILE`)."""

    REQUIRED_PATHS = []

    def executable(self, tool_locator):
        # A cargo checkout (`--tool-directory` = repository root) keeps the binary in
        # target/release; an installed Cove is found on PATH or in the tool directory.
        try:
            return tool_locator.find_executable("cove", subdir="target/release")
        except benchexec.tools.template.ToolNotFoundException:
            return tool_locator.find_executable("cove")

    def name(self):
        return "Cove"

    def project_url(self):
        return "https://example.invalid/cove"

    def version(self, executable):
        # `cove --version` prints `cove 0.1.0`.
        return self._version_from_tool(executable, line_prefix="cove")

    def cmdline(self, executable, options, task, rlimits):
        # Cove reads one CHC file (SMT-LIB2 HORN or Z3 fixedpoint); the property is
        # implicit in the file (reachability of `false`), so a property file is ignored.
        # Unless the user set `--timeout` (wall-clock seconds), stop Cove shortly before
        # BenchExec's limits so that it answers `unknown` itself instead of being killed.
        # The portfolio runs one thread per granted core, so CPU time grows up to `cores`
        # times faster than wall-clock time.
        cmd = [executable, "solve"]
        has_timeout = any(o == "--timeout" or o.startswith("--timeout=") for o in options)
        limits = []
        if rlimits.cputime:
            limits.append(rlimits.cputime / max(1, rlimits.cpu_cores or 1))
        if rlimits.walltime:
            limits.append(rlimits.walltime)
        if limits and not has_timeout:
            cmd += ["--timeout", str(max(1, int(min(limits)) - 1))]
        return cmd + list(options) + [task.single_input_file]

    def determine_result(self, run):
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        code = run.exit_code.value
        if code in _EXIT_ERRORS:
            return _EXIT_ERRORS[code]
        for line in run.output:
            answer = _ANSWERS.get(line.strip())
            if answer is not None:
                if code not in (0, None):
                    return f"ERROR ({code})"
                return answer
        # No answer line: BenchExec refines this by the signal or exit code (KILLED, …).
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        # With `--stats`, Cove prints `key: value` lines on stderr, which BenchExec
        # records with the output; `<column title="...">key</column>` extracts them.
        prefix = identifier + ":"
        for line in output:
            if line.startswith(prefix):
                return line[len(prefix) :].strip()
        return None
