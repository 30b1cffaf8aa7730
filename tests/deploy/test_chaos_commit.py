"""Chaos at the commit: every fault kind there, on each NOS.
(tests/deploy/chaos_cases.py says what is checked after each.)"""

from __future__ import annotations

import pytest

from .chaos_cases import Chaos, push_under

FAULTS = {
    "commit-refused": Chaos("commit_error", "commit"),
    "commit-drop-before": Chaos("drop_before_apply", "commit"),
    "commit-drop-after": Chaos("drop_after_apply", "commit"),
    "commit-reboot": Chaos("reboot_mid_commit", "commit"),
}


@pytest.mark.parametrize("case", sorted(FAULTS))
def test_a_push_under_a_fault_ends_old_or_new_and_says_which(one, case):
    push_under(one, FAULTS[case])
