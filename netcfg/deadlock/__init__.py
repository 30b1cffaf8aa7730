"""PFC deadlock checker: buffer dependency graph, cycles, failure scenarios, fixes.

Public API: `check(fabric, failures=..., model=...) -> Report` (netcfg.deadlock.check).
"""
