"""Chaos while connecting, taking the device's lock and loading the candidate: every fault
kind there, on each NOS. (tests/deploy/chaos_cases.py says what is checked after each.)"""

from __future__ import annotations

import pytest

from .chaos_cases import Chaos, push_under

FAULTS = {
    "connect-auth": Chaos("auth_failure", "auth", None),
    "connect-refused": Chaos("refused", times=None),
    "lock-held-elsewhere": Chaos("lock_held", times=None),
    "lock-stale-session": Chaos("stale_session", times=None),
    "load-refused": Chaos("commit_error", "load"),
    "load-drop-before": Chaos("drop_before_apply", "load"),
    "load-drop-after": Chaos("drop_after_apply", "load"),
}


@pytest.mark.parametrize("case", sorted(FAULTS))
def test_a_push_under_a_fault_ends_old_or_new_and_says_which(one, case):
    push_under(one, FAULTS[case])
