"""The twin asks a failed check again only after the fabric settled, a bounded number of
times: a session that flapped on a busy machine is forgiven, a real fault is not."""

from __future__ import annotations

from netcfg.twin.probe import RECHECKS, recheck


def test_a_transient_failure_is_forgiven_once_the_fabric_settled():
    answers = iter([[], []])
    assert recheck(["leaf1: 15 next hops"], lambda: next(answers), lambda: True) == []


def test_a_persistent_failure_stays_once_a_settled_recheck_finds_it_again():
    calls = []

    def check() -> list[str]:
        calls.append(1)
        return ["leaf1: 15 next hops"]

    assert recheck(["leaf1: 15 next hops"], check, lambda: True) == ["leaf1: 15 next hops"]
    assert len(calls) == 1


def test_a_failure_that_keeps_changing_is_asked_again_up_to_the_bound():
    answers = iter([["b"], ["c"], ["d"], ["e"]])
    calls = []

    def check() -> list[str]:
        calls.append(1)
        return next(answers)

    assert recheck(["a"], check, lambda: True) == ["d"]
    assert len(calls) == RECHECKS


def test_a_fabric_that_does_not_settle_is_not_asked_again():
    calls = []
    assert recheck(["x"], lambda: calls.append(1) or [], lambda: False) == ["x"]
    assert calls == []
