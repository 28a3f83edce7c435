"""BenchExec tool-info module for Cove (`cove_benchexec.cove`).

BenchExec loads a tool-info module by its dotted name; put this directory's parent
(`contrib/benchexec`) on `PYTHONPATH` and name the tool `cove_benchexec.cove`.
"""
