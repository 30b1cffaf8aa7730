"""Which chaos cases a run of the suite takes (tests/deploy/test_chaos_*.py).

The whole matrix, every fault at every phase of a push and of a rollback on each of five NOSes
(120 cases), is a sixth of the suite's CPU. A run of the suite takes a fixed sample of it in
which every case still runs on at least one NOS, and every NOS still meets every fault kind
and every phase (of a push, and of a rollback) at least once: case i of the sorted list goes
to NOS i mod 5, then each NOS takes the first case of every kind and every phase it has not
met. Nothing random, the same cases every run. NETCFG_CHAOS_FULL=1 runs the whole matrix (CI
runs it after the suite: .ci/run)."""

from __future__ import annotations

import os
from typing import Any

FULL = "NETCFG_CHAOS_FULL"
CHAOS_TESTS = ("test_a_push_under_a_fault_ends_old_or_new_and_says_which",
               "test_a_rollback_under_a_fault_ends_old_or_new_and_a_retry_restores")


def _chaos(item: Any) -> tuple[str, str, str, Any] | None:
    """(test, case, NOS, Chaos) of a chaos item, None for any other test."""
    if item.originalname not in CHAOS_TESTS or not hasattr(item, "callspec"):
        return None
    faults = getattr(item.module, "FAULTS", None) or item.module.ROLLBACK_FAULTS
    case = item.callspec.params["case"]
    return item.originalname, case, item.callspec.params["one"], faults[case]


def sample(items: list[Any], noses: list[str]) -> set[int]:
    """Indexes into `items` of the chaos cases to keep (every non-chaos item is kept by the
    caller)."""
    chaos = {i: c for i, item in enumerate(items) if (c := _chaos(item)) is not None}
    cases = sorted({(test, case) for test, case, _, _ in chaos.values()})
    home = {key: noses[n % len(noses)] for n, key in enumerate(cases)}
    keep = {i for i, (test, case, nos, _) in chaos.items() if home[(test, case)] == nos}
    met: set[tuple[str, str, str, str]] = set()
    for i in keep:
        test, _, nos, fault = chaos[i]
        met |= {(nos, test, "kind", fault.kind), (nos, test, "phase", fault.phase)}
    for i in sorted(chaos, key=lambda i: (chaos[i][0], chaos[i][1], chaos[i][2])):
        test, _, nos, fault = chaos[i]
        new = {(nos, test, "kind", fault.kind), (nos, test, "phase", fault.phase)} - met
        if new:
            keep.add(i)
            met |= new
    return keep


def deselect(config: Any, items: list[Any], noses: list[str]) -> None:
    """Leave out the chaos cases outside the sample, unless NETCFG_CHAOS_FULL=1."""
    if os.environ.get(FULL) == "1":
        return
    keep = sample(items, noses)
    dropped = [item for i, item in enumerate(items)
               if _chaos(item) is not None and i not in keep]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in set(dropped)]
