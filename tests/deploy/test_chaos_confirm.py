"""Chaos at the confirm and the post-check (with its revert): every fault kind there, on each NOS.
(tests/deploy/chaos_cases.py says what is checked after each.)"""

from __future__ import annotations

import pytest

from .chaos_cases import Chaos, push_under

FAULTS = {
    "confirm-refused": Chaos("commit_error", "confirm"),
    "confirm-drop-before": Chaos("drop_before_apply", "confirm"),
    "confirm-drop-after": Chaos("drop_after_apply", "confirm"),
    "confirm-reboot": Chaos("reboot_mid_commit", "confirm"),
    "post-check-fails": Chaos("commit_error", "rollback", times=0, post_check_fails=True),
    "post-check-fails-revert-refused": Chaos("commit_error", "rollback",
                                             post_check_fails=True),
    "post-check-fails-revert-drop": Chaos("drop_after_apply", "rollback",
                                          post_check_fails=True),
}


@pytest.mark.parametrize("case", sorted(FAULTS))
def test_a_push_under_a_fault_ends_old_or_new_and_says_which(one, case):
    push_under(one, FAULTS[case])
