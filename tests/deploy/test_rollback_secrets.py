"""A rollback loads a backup that holds the secrets the switch ran before the push: the BGP
session key, the SNMP community and the TACACS+ key of the previous rotation, as the NOS prints
them. A `netcfg rollback` (a process of its own, which the intent tells only the new values)
prints none of them, old or new: not in a device error that quotes them (the lab's
commit_error fault, with a message quoting the rejected values the way a NOS names a bad
token), not in the journal, not in `NETCFG_DEBUG=1`'s library debug lines, which carry the
backup it sends. On EOS and Junos, through the lab; every value is written here by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from netcfg.deploy import secrets
from netcfg.deploy.desired import desired_configs
from netcfg.deploy.engine import Desired, Options, diff_device, push_fleet
from netcfg.deploy.runs import Run
from netcfg.deploy.targets import Target, from_devices_file, select
from netcfg.validate import validate

from .cli_cases import secrets_inventory
from .deploy_cases import BY_NOS, ROOT, devices_file, specs

NAMES = [BY_NOS["eos"], BY_NOS["junos"]]
#: (variable, the value the switch ran before the push, the value the push put there)
SECRETS = [("NETCFG_BGP_KEY", "Old-Bgp-Key-31a", "New-Bgp-Key-72d"),
           ("NETCFG_SNMP_COMMUNITY", "Old-Community-5f", "New-Community-0b"),
           ("NETCFG_AAA_KEY", "Old-Tacacs-Key-9c", "New-Tacacs-Key-4e")]
OLD = [old for _, old, _ in SECRETS]
NEW = [new for _, _, new in SECRETS]
#: what the NOS says when it rejects the commit, quoting the tokens it refused
ECHO = "Commit rejected by the test: bad tokens " + ", ".join(f"'{v}'" for v in OLD)


def _netcfg(args: list[str], values: list[str], code: int,
            debug: bool = False) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NETCFG_DEBUG"}
    env.update({variable: value for (variable, _, _), value in zip(SECRETS, values, strict=True)})
    if debug:
        env["NETCFG_DEBUG"] = "1"
    proc = subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300, env=env)
    assert proc.returncode == code, proc.stdout + proc.stderr
    return proc


def _shown(text: str, where: str) -> list[str]:
    """Each value, old or new, that `text` shows, with where."""
    return [f"{value} in {where}" for value in OLD + NEW if value in text]


def _fleet(inventory: Path, connect: Path, values: list[str],
           monkeypatch: pytest.MonkeyPatch) -> tuple[list[Target], dict[str, Desired]]:
    """The lab's targets and their configs with `values`, built in this process as `netcfg
    push` builds them (only the rollbacks must know nothing but the intent)."""
    for (variable, _, _), value in zip(SECRETS, values, strict=True):
        monkeypatch.setenv(variable, value)
    result = validate(inventory)
    assert result.fabric is not None and result.physics is not None
    chosen = select(result.fabric, tuple(NAMES))
    return (from_devices_file(result.fabric, chosen, connect),
            desired_configs(result.fabric, result.physics, chosen, None, inventory))


def _push(inventory: Path, connect: Path, state: Path, values: list[str],
          monkeypatch: pytest.MonkeyPatch) -> str:
    """A push of `values`; returns its run id."""
    run = Run(state)
    results, aborted = push_fleet(*_fleet(inventory, connect, values, monkeypatch), run,
                                  Options(timeout=20), threading.Event())
    assert not aborted and {r.status for r in results} == {"confirmed"}, results
    return run.id


def test_a_rollback_shows_no_secret_of_the_backup_it_loads(tmp_path, make_lab, monkeypatch):
    monkeypatch.setattr(secrets, "_KNOWN", set())  # what this process learns stays here
    monkeypatch.setattr(secrets, "_SHAPES", set())
    inventory = secrets_inventory(tmp_path)
    chosen = specs(NAMES)
    for s in chosen:  # Juniper's YANG takes seconds to load; the tests of render check it
        s.options.pop("junos_yang", None)
    lab = make_lab(*chosen)
    state, connect = tmp_path / "state", devices_file(lab, tmp_path)
    common = [str(inventory), "--connect", str(connect), "--state", str(state),
              *[x for name in NAMES for x in ("--device", name)]]
    _push(inventory, connect, state, OLD, monkeypatch)
    run = _push(inventory, connect, state, NEW, monkeypatch)
    for name in NAMES:  # what the rollback loads holds the old values, as the NOS shows them
        backup = (state / "runs" / run / "backup" / name).read_text()
        assert all(value in backup for value in OLD), (name, backup[:2000])

    for name in NAMES:
        lab[name].inject("commit_error", phase="commit", times=1, message=ECHO)
    refused = _netcfg(["rollback", *common, "--run", run, "--format", "json"], NEW, 4)
    errors = {d["device"]: (d["status"], d["error"]) for d in json.loads(refused.stdout)["devices"]}
    assert set(errors) == set(NAMES)
    # the device's words came through, each value masked
    masked = "bad tokens '********', '********', '********'"
    assert all(status == "failed" and masked in error for status, error in errors.values()), \
        errors
    shown = _shown(refused.stdout + refused.stderr, "the failed rollback's output")
    shown += _shown((state / "runs" / run / "journal.jsonl").read_text(), "the journal")

    restored = _netcfg(["rollback", *common, "--run", run], NEW, 0, debug=True)
    assert "DEBUG" in restored.stderr  # the libraries' lines are shown, masked
    assert f"run {run}: 2 restored, 0 failed" in restored.stdout
    shown += _shown(restored.stdout + restored.stderr, "the debug rollback's output")
    assert shown == []
    # the switches run the old values again: the intent with them has nothing to change
    targets, desired = _fleet(inventory, connect, OLD, monkeypatch)
    for target in targets:
        assert diff_device(target, desired[target.name], Options(timeout=20)).status == \
            "unchanged"


SONIC_CANDIDATE = ('{\n  "SNMP_COMMUNITY": {\n    "NETCFG-SNMP-COMMUNITY": {\n'
                   '      "TYPE": "RO"\n    }\n  },\n  "TACPLUS": {\n    "global": {\n'
                   '      "passkey": "NETCFG-AAA-KEY"\n    }\n  }\n}\n')


def test_what_a_rollback_learns_of_a_backup_in_each_nos_form(monkeypatch):
    """Backups written by hand in each NOS's form: the values sit where the NOS's statements
    say (Junos's quoted `$9$` form, NX-OS's quoted TACACS+ key) or where the run's candidate
    holds a placeholder (SONiC, whose adapter names no statement)."""
    from netcfg.deploy import secrets
    from netcfg.deploy.secrets import learn_config, redact
    from netcfg.vendors.junos.deploy import JunosDeploy
    from netcfg.vendors.nxos.deploy import NxosDeploy
    from netcfg.vendors.sonic.deploy import SonicDeploy

    monkeypatch.setattr(secrets, "_KNOWN", set())
    monkeypatch.setattr(secrets, "_SHAPES", set())
    learn_config('protocols {\n    bgp {\n        group fabric {\n'
                 '            authentication-key "$9$Old.Junos/Key";\n', JunosDeploy.secret_values)
    learn_config('tacacs-server host 192.0.2.7 key 7 "Old-Nxos-Key-1"\n'
                 'snmp-server community Old-Nxos-Ro-2 group network-operator\n',
                 NxosDeploy.secret_values)
    learn_config(SONIC_CANDIDATE.replace("NETCFG-SNMP-COMMUNITY", "Old-Sonic-Ro-3")
                 .replace("NETCFG-AAA-KEY", "Old-Sonic-Key-4"),
                 SonicDeploy.secret_values, SONIC_CANDIDATE)
    echoed = ("error: '$9$Old.Junos/Key' 'Old-Nxos-Key-1' Old-Nxos-Ro-2 "
              "SNMP_COMMUNITY|Old-Sonic-Ro-3 passkey Old-Sonic-Key-4")
    assert redact(echoed) == ("error: '********' '********' ******** "
                              "SNMP_COMMUNITY|******** passkey ********")
