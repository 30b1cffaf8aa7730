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
    valid value, the placeholder, and the switches whose files hold it."""

    variable: str
    value: str
    bad: str
    rule: str
    other: str
    placeholder: str
    holders: frozenset[str]


def pushes_secrets_and_shows_them_nowhere(
        tmp: Path, inventory: Path, names: list[str], cases: list[SecretCase],
        monkeypatch,  # noqa: ANN001
        inspect: Callable[[Path, dict[str, Any]], None] | None = None) -> None:
    """One push of every secret of `cases` to the lab's `names`: refused without any one of
    them or with a malformed one (the others given), confirmed on every device with all of
    them, `inspect(state, report)` after the push; with another value of one secret exactly
    its holders drift, masked; the rendered files hold each placeholder where its holders'
    do and never a value; no value is in any output or the journal."""
    with serve(tmp, names) as lab:
        state = tmp / "state"
        common = fleet_args(inventory, lab, state, names)
        for case in cases:
            for other in cases:
                if other is not case:
                    monkeypatch.setenv(other.variable, other.value)
            refuses_a_missing_or_bad_secret(common, state, case.variable, case.bad,
                                            case.rule, monkeypatch)
            monkeypatch.setenv(case.variable, case.value)
        outputs = [netcfg("diff", *common, check=3)]
        # a factory SONiC box (every port up) gets its pools by `config qos reload`
        # (--allow-disruptive)
        pushed = netcfg("push", *common, "--allow-disruptive", "--format", "json", check=0)
        report = json.loads(pushed.stdout)
        assert {d["device"]: d["status"] for d in report["devices"]} == dict.fromkeys(
            names, "confirmed")
        if inspect is not None:
            inspect(state, report)
        outputs += [pushed, netcfg("diff", *common, check=0)]
        for case in cases:
            monkeypatch.setenv(case.variable, case.other)
            other = netcfg("diff", *common, check=3)
            drifting = {name for name in names if f"{name}: drift" in other.stdout}
            assert drifting == case.holders, (case.variable, other.stdout)
            assert "********" in other.stdout and case.other not in other.stdout
            outputs.append(other)
            monkeypatch.setenv(case.variable, case.value)
        rendered = tmp / "rendered"
        netcfg("render", str(inventory), "--out", str(rendered), check=0)
        for name in names:
            text = next(rendered.glob(f"{name}.*")).read_text()
            for case in cases:
                assert (case.placeholder in text) is (name in case.holders), (name, case)
        files = [p.read_text() for p in rendered.rglob("*") if p.is_file()]
        assert not [c.variable for c in cases if any(c.value in text for text in files)]
        outputs.append(netcfg("diff", *common, "--format", "json", check=0))
    journal = (state / "runs" / report["run"] / "journal.jsonl").read_text()
    for case in cases:
        assert case.value not in journal
        for proc in outputs:
            assert case.value not in proc.stdout + proc.stderr


def secrets_inventory(tmp: Path) -> Path:
    """The multivendor intent with every secret by reference: the BGP session key, the SNMP
    community and the TACACS+ key, each from an environment variable."""
    inventory = tmp / "secrets"
    inventory.mkdir()
    text = (MULTIVENDOR / "fabric.yaml").read_text()
    asn = "  asn: {leaf: unique, spine: per_pod, core: shared}\n"
    assert asn in text
    (inventory / "fabric.yaml").write_text(
        text.replace(asn, asn + "  authentication: {password_env: NETCFG_BGP_KEY}\n")
        + "management:\n  snmp:\n    location: DC1 hall 2\n"
        "    community: {password_env: NETCFG_SNMP_COMMUNITY}\n"
        "  aaa:\n    protocol: tacacs+\n    servers: [192.0.2.7]\n"
        "    key: {password_env: NETCFG_AAA_KEY}\n")
    return inventory
