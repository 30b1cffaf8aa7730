"""Every secret a fabric names by reference, in one push to a lab switch of each NOS: the BGP
session key (routing.authentication), the SNMP read-only community (management.snmp) and the
TACACS+ key (management.aaa). The rendered files hold placeholders; `netcfg push` refuses to
start without any one of them (or with a malformed one), then puts each where its files hold
it; the devices hold them in their NOS's statements; with another value of one secret exactly
the switches that hold it drift, the values masked; no value appears in any output, the
journal or a rendered file. Confirmed means netcfg logged in again with the switch's own
login after the commit: the TACACS+ servers (unreachable here) left the local logins working."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from netcfg.render.plan import AAA_KEY, SESSION_KEY, SNMP_COMMUNITY

from .cli_cases import (
    SecretCase,
    netcfg,
    pushes_secrets_and_shows_them_nowhere,
    secrets_inventory,
)
from .deploy_cases import BY_NOS

NAMES = sorted(BY_NOS.values())


def _holders(*noses: str) -> frozenset[str]:
    return frozenset(BY_NOS[nos] for nos in noses)


#: SONiC states no session key (CAP013), but its SNMP_COMMUNITY and TACPLUS tables hold the
#: community and the TACACS+ key (docs/render-sonic.md); NVUE no AAA (CAP010)
SESSION = SecretCase("NETCFG_BGP_KEY", "Fabric-Md5-Key-7c2e", "1-starts-with-a-digit",
                     "the session key must be", "Another-Key-5d1", SESSION_KEY,
                     _holders("eos", "nxos", "junos", "cumulus"))
COMMUNITY = SecretCase("NETCFG_SNMP_COMMUNITY", "Ro-Community-4b8e", "has space",
                       "the community must be", "Other-Community-1", SNMP_COMMUNITY,
                       _holders("eos", "nxos", "junos", "cumulus", "sonic"))
TACACS = SecretCase("NETCFG_AAA_KEY", "Tacacs-Key-7c1d", "has space", "the key must be",
                    "Other-Key-2", AAA_KEY, _holders("eos", "nxos", "junos", "sonic"))

#: how each device's running config shows the TACACS+ server, its key and the login order
#: (the lab keeps a key as loaded; EOS and NX-OS would show their type 7 form, Junos $9$)
SHOWN = {"eos": [f"tacacs-server host 192.0.2.7 vrf MGMT key 0 {TACACS.value}",
                 "aaa authentication login default group netcfg local"],
         "nxos": [f"tacacs-server host 192.0.2.7 key 0 {TACACS.value}",
                  "aaa authentication login default group netcfg"],
         "junos": ["tacplus-server 192.0.2.7 {", f"secret {TACACS.value}",
                   "authentication-order [ tacplus password ];"]}


def _at_rest_and_debug(common: list[str], state: Path, report: dict[str, Any],
                       monkeypatch) -> None:  # noqa: ANN001
    """No secret at rest: the candidates the push kept, and those of a dry run rotating every
    secret, hold the placeholders, never a value, old or new. `NETCFG_DEBUG=1` (the
    libraries' debug lines carry the configs they send) shows none of them either."""
    cases = (SESSION, COMMUNITY, TACACS)
    for case in cases:
        monkeypatch.setenv(case.variable, case.other)
    dry = netcfg("push", *common, "--dry-run", "--format", "json")
    statuses = {d["device"]: d["status"] for d in json.loads(dry.stdout)["devices"]}
    assert statuses == dict.fromkeys(NAMES, "changed"), dry.stdout + dry.stderr
    monkeypatch.setenv("NETCFG_DEBUG", "1")
    debug = netcfg("diff", *common, "--device", BY_NOS["eos"])
    monkeypatch.delenv("NETCFG_DEBUG")
    assert "DEBUG" in debug.stderr  # the libraries' debug lines are shown, masked
    for case in cases:
        monkeypatch.setenv(case.variable, case.value)
    for run in (report["run"], json.loads(dry.stdout)["run"]):
        for name in NAMES:
            kept = (state / "runs" / run / "candidate" / name).read_text()
            for case in cases:
                assert case.value not in kept and case.other not in kept, (run, name, case)
                assert case.placeholder in kept or name not in case.holders, (run, name, case)
    for case in cases:
        for proc in (dry, debug):
            assert case.value not in proc.stdout + proc.stderr, case.variable
            assert case.other not in proc.stdout + proc.stderr, case.variable


def test_push_fills_in_every_secret_and_shows_none_of_them(tmp_path, monkeypatch):
    inventory = secrets_inventory(tmp_path)

    def held(state: Path, report: dict[str, Any]) -> None:
        """What each device runs now is what the next run backs up (0600, like every backup):
        the TACACS+ lines with the key; a dry run has nothing left to do."""
        common = [str(inventory), "--connect", str(tmp_path / "devices.yaml"), "--state",
                  str(state), *[x for name in NAMES for x in ("--device", name)]]
        again = json.loads(netcfg("push", *common, "--dry-run", "--format", "json",
                                  check=0).stdout)
        assert {d["status"] for d in again["devices"]} == {"unchanged"}
        backups = state / "runs" / again["run"] / "backup"
        for nos, lines in SHOWN.items():
            running = (backups / BY_NOS[nos]).read_text().replace(
                f'"{TACACS.value}"', TACACS.value)
            assert all(line in running for line in lines), (nos, running[:1500])
        _at_rest_and_debug(common, state, report, monkeypatch)

    pushes_secrets_and_shows_them_nowhere(tmp_path, inventory, NAMES,
                                          [SESSION, COMMUNITY, TACACS], monkeypatch,
                                          inspect=held)
