"""`netcfg` as a user runs it, in its own process, and `netcfg lab` serving switches of the
multivendor inventory: shared by the deploy CLI tests."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lab_fixtures import Served, lab_process

from .deploy_cases import MULTIVENDOR, SHARED

ROOT = Path(__file__).resolve().parents[2]


def netcfg(*args: str, check: int | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    if check is not None:
        assert proc.returncode == check, proc.stdout + proc.stderr
    return proc


def serve(tmp: Path, names: list[str], *options: str) -> AbstractContextManager[Served]:
    """`netcfg lab` in its own process serving `names` of the multivendor inventory, checking
    against the vendors' own data where it is present."""
    args = list(options) + (["--vendor-data", str(SHARED)] if SHARED is not None else [])
    for name in names:
        args += ["--device", name]
    return lab_process(MULTIVENDOR, tmp / "devices.yaml", *args)


def fleet_args(inventory: Path, lab: Served, state: Path, names: list[str]) -> list[str]:
    """`PATH --connect DEVICES --state STATE --device NAME ...`: diff, push and rollback of
    the lab's switches `names`."""
    args = [str(inventory), "--connect", str(lab.devices), "--state", str(state)]
    for name in names:
        args += ["--device", name]
    return args


def refuses_a_missing_or_bad_secret(args: list[str], state: Path, variable: str, bad: str,
                                    rule: str, monkeypatch) -> None:  # noqa: ANN001
    """Without `variable`, and with the malformed `bad` in it, push stops before any device
    with one line naming the variable or the `rule` the value breaks, never the value, and
    leaves no run behind."""
    monkeypatch.delenv(variable, raising=False)
    missing = netcfg("push", *args, check=1)
    assert f"environment variable {variable} is not set" in missing.stderr
    assert not (state / "runs").exists() or not any((state / "runs").iterdir())
    monkeypatch.setenv(variable, bad)
    refused = netcfg("push", *args, check=1)
    assert rule in refused.stderr and bad not in refused.stderr


@dataclass(frozen=True)
class SecretCase:
    """A secret the intent names by reference and a push fills in where the files hold its
    placeholder: the variable, the value, a malformed value and the rule it breaks, another
    valid value, and the placeholder."""

    variable: str
    value: str
    bad: str
    rule: str
    other: str
    placeholder: str


def pushes_a_secret_and_shows_it_nowhere(
        tmp: Path, inventory: Path, names: list[str], case: SecretCase,
        monkeypatch,  # noqa: ANN001
        holders: set[str] | None = None,
        inspect: Callable[[Path, dict[str, Any]], None] | None = None) -> None:
    """The push of a secret to the lab's `names`: refused without it or with a malformed one,
    confirmed on every device with it, `inspect(state, report)` after the push; with another
    value every device of `holders` (default: all) drifts on it, masked; the rendered files
    hold the placeholder (those of `holders`) and never the value; the value is in no output
    and not in the journal."""
    holders = set(names) if holders is None else holders
    with serve(tmp, names) as lab:
        state = tmp / "state"
        common = fleet_args(inventory, lab, state, names)
        refuses_a_missing_or_bad_secret(common, state, case.variable, case.bad, case.rule,
                                        monkeypatch)
        monkeypatch.setenv(case.variable, case.value)
        outputs = [netcfg("diff", *common, check=3)]
        pushed = netcfg("push", *common, "--format", "json", check=0)
        report = json.loads(pushed.stdout)
        assert {d["device"]: d["status"] for d in report["devices"]} == dict.fromkeys(
            names, "confirmed")
        if inspect is not None:
            inspect(state, report)
        outputs += [pushed, netcfg("diff", *common, check=0)]
        monkeypatch.setenv(case.variable, case.other)
        other = netcfg("diff", *common, check=3)
        assert {name for name in names if f"{name}: drift" in other.stdout} == holders, \
            other.stdout
        assert "********" in other.stdout and case.other not in other.stdout
        outputs.append(other)
        monkeypatch.setenv(case.variable, case.value)
        rendered = tmp / "rendered"
        netcfg("render", str(inventory), "--out", str(rendered), check=0)
        for name in names:
            text = next(rendered.glob(f"{name}.*")).read_text()
            assert (case.placeholder in text) is (name in holders), name
        assert not [p for p in rendered.rglob("*")
                    if p.is_file() and case.value in p.read_text()]
        outputs.append(netcfg("diff", *common, "--format", "json", check=0))
    journal = (state / "runs" / report["run"] / "journal.jsonl").read_text()
    assert case.value not in journal
    for proc in outputs:
        assert case.value not in proc.stdout + proc.stderr
