"""The chaos matrix's fixed sample (tests/deploy/chaos_sample.py), read from pytest's own
collection: every case on at least one NOS, every NOS meets every fault kind and every phase
of a push and of a rollback, and NETCFG_CHAOS_FULL=1 the whole matrix. (The sample is a pure
function of the collected items: nothing random.)"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from . import test_chaos_commit, test_chaos_confirm, test_chaos_connect, test_chaos_rollback
from .cli_cases import ROOT
from .deploy_cases import BY_NOS

FILES = [f"tests/deploy/test_chaos_{name}.py"
         for name in ("commit", "confirm", "connect", "rollback")]
PUSH = {**test_chaos_commit.FAULTS, **test_chaos_confirm.FAULTS, **test_chaos_connect.FAULTS}
ROLLBACK = test_chaos_rollback.ROLLBACK_FAULTS
ID = re.compile(r"::(test_a_(?:push|rollback)_under\w+)\[(\w+)-([\w-]+)\]$")


def _collected(full: bool) -> list[tuple[str, str, str]]:
    env = {k: v for k, v in os.environ.items() if k != "NETCFG_CHAOS_FULL"}
    if full:
        env["NETCFG_CHAOS_FULL"] = "1"
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-n0",
                          "-p", "no:cacheprovider", *FILES], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    return [(m[1], m[2], m[3]) for line in out.splitlines() if (m := ID.search(line))]


def test_the_sample_keeps_every_fault_and_every_kind_and_phase_on_every_nos():
    full, kept = _collected(True), _collected(False)
    noses = sorted(BY_NOS)
    assert len(full) == len(noses) * (len(PUSH) + len(ROLLBACK))
    assert len(set(kept)) == len(kept) and set(kept) < set(full)
    for test, faults in (("push", PUSH), ("rollback", ROLLBACK)):
        mine = [(nos, faults[case]) for name, nos, case in kept if f"_{test}_" in name]
        assert {case for name, _, case in kept if f"_{test}_" in name} == set(faults)
        for nos in noses:
            assert {f.kind for n, f in mine if n == nos} == {f.kind for f in faults.values()}, \
                (test, nos)
            assert {f.phase for n, f in mine if n == nos} == \
                {f.phase for f in faults.values()}, (test, nos)
