"""TACACS+ servers through `netcfg push`: the rendered files hold a placeholder, push puts the
key the intent names there, each device (EOS, NX-OS, Junos) then holds the servers and the key,
netcfg still logs in with the switch's own login (its local logins stay the fallback), and the
key appears in no output, journal or rendered file; another key is masked in the diffs.
Without the key's variable nothing is touched."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from netcfg.render.plan import AAA_KEY

from .cli_cases import SecretCase, netcfg, pushes_a_secret_and_shows_it_nowhere
from .deploy_cases import BY_NOS, MULTIVENDOR

KEY = SecretCase("NETCFG_AAA_KEY", "Tacacs-Key-7c1d", "has space", "the key must be",
                 "Other-Key-2", AAA_KEY)
#: the NOSes that render AAA servers (Cumulus and SONiC: CAP010)
CLIENTS = {nos: name for nos, name in BY_NOS.items() if nos in ("eos", "nxos", "junos")}
#: how each device's running config shows the server, the key and the login order (the lab
#: keeps the key as loaded; EOS and NX-OS would show their type 7 form, Junos its $9$ form)
SHOWN = {"eos": [f"tacacs-server host 192.0.2.7 vrf MGMT key 0 {KEY.value}",
                 "aaa authentication login default group netcfg local"],
         "nxos": [f"tacacs-server host 192.0.2.7 key 0 {KEY.value}",
                  "aaa authentication login default group netcfg"],
         "junos": ["tacplus-server 192.0.2.7 {", f"secret {KEY.value}",
                   "authentication-order [ tacplus password ];"]}


def test_push_sets_the_servers_and_shows_the_key_nowhere(tmp_path, monkeypatch):
    inventory = tmp_path / "aaa"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (MULTIVENDOR / "fabric.yaml").read_text()
        + "management:\n  aaa:\n    protocol: tacacs+\n    servers: [192.0.2.7]\n"
        "    key: {password_env: NETCFG_AAA_KEY}\n")
    names = sorted(CLIENTS.values())

    def held(state: Path, report: dict[str, Any]) -> None:
        """Confirmed means the post-check logged in again with the switch's own login; what
        each device runs now is what the next run backs up (0600, like every backup)."""
        common = [str(inventory), "--connect", str(state.parent / "devices.yaml"), "--state",
                  str(state), *[x for name in names for x in ("--device", name)]]
        again = json.loads(netcfg("push", *common, "--dry-run", "--format", "json",
                                  check=0).stdout)
        backups = state / "runs" / again["run"] / "backup"
        for nos, name in CLIENTS.items():
            running = (backups / name).read_text().replace(f'"{KEY.value}"', KEY.value)
            assert all(line in running for line in SHOWN[nos]), (nos, running[:1500])

    pushes_a_secret_and_shows_it_nowhere(tmp_path, inventory, names, KEY, monkeypatch,
                                         inspect=held)
