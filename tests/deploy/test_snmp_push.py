"""The SNMP community through `netcfg push`: the rendered files hold a placeholder, push puts
the community the intent names there, each device (EOS, NX-OS, Junos, Cumulus) then holds it,
and the community appears in no output, journal or rendered file; a device's other community
is masked in its diff. Without the community's variable nothing is touched."""

from __future__ import annotations

import json

from netcfg.render.plan import SNMP_COMMUNITY

from .cli_cases import fleet_args, netcfg, refuses_a_missing_or_bad_secret, serve
from .deploy_cases import BY_NOS, MULTIVENDOR

COMMUNITY = "Ro-Community-4b8e"
#: the NOSes that render an SNMP agent (SONiC: CAP010)
AGENTS = {nos: name for nos, name in BY_NOS.items()
          if nos in ("eos", "nxos", "junos", "cumulus")}


def test_push_fills_in_the_community_and_shows_it_nowhere(tmp_path, monkeypatch):
    inventory = tmp_path / "snmp"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (MULTIVENDOR / "fabric.yaml").read_text()
        + "management:\n  snmp:\n    location: DC1 hall 2\n"
        "    community: {password_env: NETCFG_SNMP_COMMUNITY}\n")
    names = sorted(AGENTS.values())
    with serve(tmp_path, names) as lab:
        state = tmp_path / "state"
        common = fleet_args(inventory, lab, state, names)
        refuses_a_missing_or_bad_secret(common, state, "NETCFG_SNMP_COMMUNITY", "has space",
                                        "the community must be", monkeypatch)
        monkeypatch.setenv("NETCFG_SNMP_COMMUNITY", COMMUNITY)
        outputs = [netcfg("diff", *common, check=3)]
        pushed = netcfg("push", *common, "--format", "json", check=0)
        report = json.loads(pushed.stdout)
        assert {d["device"]: d["status"] for d in report["devices"]} == dict.fromkeys(
            names, "confirmed")
        outputs += [pushed, netcfg("diff", *common, check=0)]
        # another community: every device drifts on the community line, both masked
        monkeypatch.setenv("NETCFG_SNMP_COMMUNITY", "Other-Community-1")
        other = netcfg("diff", *common, check=3)
        assert all(f"{name}: drift" in other.stdout for name in names), other.stdout
        assert "********" in other.stdout and "Other-Community-1" not in other.stdout
        outputs.append(other)
        monkeypatch.setenv("NETCFG_SNMP_COMMUNITY", COMMUNITY)

        rendered = tmp_path / "rendered"
        netcfg("render", str(inventory), "--out", str(rendered), check=0)
        for name in names:
            assert SNMP_COMMUNITY in next(rendered.glob(f"{name}.*")).read_text(), name
        assert not [p for p in rendered.rglob("*") if p.is_file() and COMMUNITY in p.read_text()]
        shown = netcfg("diff", *common, "--format", "json", check=0)
        outputs.append(shown)
    journal = (state / "runs" / report["run"] / "journal.jsonl").read_text()
    assert COMMUNITY not in journal
    for proc in outputs:
        assert COMMUNITY not in proc.stdout + proc.stderr
