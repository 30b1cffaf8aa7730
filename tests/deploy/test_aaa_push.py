"""TACACS+ servers through `netcfg push`: the rendered files hold a placeholder, push puts the
key the intent names there, each device (EOS, NX-OS, Junos) then holds the servers and the key,
netcfg still logs in with the switch's own login (its local logins stay the fallback), and the
key appears in no output, journal or rendered file; another key is masked in the diffs.
Without the key's variable nothing is touched."""

from __future__ import annotations

import json

from netcfg.render.plan import AAA_KEY

from .cli_cases import fleet_args, netcfg, refuses_a_missing_or_bad_secret, serve
from .deploy_cases import BY_NOS, MULTIVENDOR

KEY = "Tacacs-Key-7c1d"
#: the NOSes that render AAA servers (Cumulus and SONiC: CAP010)
CLIENTS = {nos: name for nos, name in BY_NOS.items() if nos in ("eos", "nxos", "junos")}
#: how each device's running config shows the first server with the key (the lab keeps the
#: key as loaded; EOS and NX-OS would show their type 7 form, Junos its $9$ form)
SHOWN = {"eos": [f"tacacs-server host 192.0.2.7 vrf MGMT key 0 {KEY}",
                 "aaa authentication login default group netcfg local"],
         "nxos": [f"tacacs-server host 192.0.2.7 key 0 {KEY}",
                  "aaa authentication login default group netcfg"],
         "junos": ["tacplus-server 192.0.2.7 {", f"secret {KEY}",
                   "authentication-order [ tacplus password ];"]}


def test_push_sets_the_servers_and_shows_the_key_nowhere(tmp_path, monkeypatch):
    inventory = tmp_path / "aaa"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (MULTIVENDOR / "fabric.yaml").read_text()
        + "management:\n  aaa:\n    protocol: tacacs+\n    servers: [192.0.2.7]\n"
        "    key: {password_env: NETCFG_AAA_KEY}\n")
    names = sorted(CLIENTS.values())
    with serve(tmp_path, names) as lab:
        state = tmp_path / "state"
        common = fleet_args(inventory, lab, state, names)
        refuses_a_missing_or_bad_secret(common, state, "NETCFG_AAA_KEY", "has space",
                                        "the key must be", monkeypatch)
        monkeypatch.setenv("NETCFG_AAA_KEY", KEY)
        outputs = [netcfg("diff", *common, check=3)]
        pushed = netcfg("push", *common, "--format", "json", check=0)
        report = json.loads(pushed.stdout)
        # confirmed: the post-check logged in again with the switch's own login
        assert {d["device"]: d["status"] for d in report["devices"]} == dict.fromkeys(
            names, "confirmed")
        # what each device runs now, as the next run backs it up (0600, like every backup)
        again = json.loads(netcfg("push", *common, "--dry-run", "--format", "json",
                                  check=0).stdout)
        backups = state / "runs" / again["run"] / "backup"
        for nos, name in CLIENTS.items():
            running = (backups / name).read_text().replace(f'"{KEY}"', KEY)
            assert all(line in running for line in SHOWN[nos]), (nos, running[:1500])
        outputs += [pushed, netcfg("diff", *common, check=0)]
        # another key: every device drifts on its key lines, both masked
        monkeypatch.setenv("NETCFG_AAA_KEY", "Other-Key-2")
        other = netcfg("diff", *common, check=3)
        assert all(f"{name}: drift" in other.stdout for name in names), other.stdout
        assert "********" in other.stdout and "Other-Key-2" not in other.stdout
        outputs.append(other)
        monkeypatch.setenv("NETCFG_AAA_KEY", KEY)

        rendered = tmp_path / "rendered"
        netcfg("render", str(inventory), "--out", str(rendered), check=0)
        for name in names:
            assert AAA_KEY in next(rendered.glob(f"{name}.*")).read_text(), name
        assert not [p for p in rendered.rglob("*") if p.is_file() and KEY in p.read_text()]
        outputs.append(netcfg("diff", *common, "--format", "json", check=0))
    journal = (state / "runs" / report["run"] / "journal.jsonl").read_text()
    assert KEY not in journal
    for proc in outputs:
        assert KEY not in proc.stdout + proc.stderr
