"""Syslog servers from the intent (management.syslog_servers, syslog_severity) on every NOS,
each line as the vendor writes it, taken by the lab's grammars (written from the vendors'
documentation) and, for Junos, by Juniper's YANG:
- EOS: `logging trap <level>` and `logging vrf MGMT host <server>` (Arista's AVD logging.j2;
  levels as AVD's schema names them: emergencies ... debugging);
- NX-OS: `logging server <server> <0-7> use-vrf management` (Cisco Nexus 9000 NX-OS System
  Management Configuration Guide 10.5(x), "Configuring System Message Logging": severity 0
  emergency ... 7 debugging);
- Junos: `system { syslog { host <server> { any <level>; } } }` (junos-conf-system
  `syslog-object`: emergency, alert, critical, error, warning, notice, info, any);
- NVUE: `system syslog server <server> vrf mgmt` in 5.14 and 5.15 (NVIDIA's Syslog page; the
  `service syslog` form ended with 5.12); no severity selector (CAP010);
- SONiC: none (no syslog model in the project's SONiC YANG): CAP010.
The levels are written out here from those documents, not taken from netcfg's tables."""

from __future__ import annotations

import pytest
import yaml
from render_cases import INVENTORIES, check_junos_yang, check_nvue, render_multivendor

from netcfg.render.engine import render_plan
from netcfg.render.plan import PlanBuilder
from netcfg.validate import validate

SERVERS = ["192.0.2.55", "198.51.100.55"]


def _rendered(tmp, severity: str | None, extra: str = "") -> dict[str, str]:
    text = extra + f"management:\n  syslog_servers: [{', '.join(SERVERS)}]\n"
    if severity:
        text += f"  syslog_severity: {severity}\n"
    return render_multivendor(tmp, text)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, str]:
    return _rendered(tmp_path_factory.mktemp("syslog"), None)


def _lines(text: str, prefix: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(prefix)]


# RFC 5424 name -> EOS (AVD schema), NX-OS (Cisco's table), Junos (YANG enum)
LEVELS = [
    ("emergency", "emergencies", 0, "emergency"),
    ("warning", "warnings", 4, "warning"),
    ("notice", "notifications", 5, "notice"),
    ("informational", "informational", 6, "info"),
    ("debug", "debugging", 7, "any"),
]


def test_default_severity_is_informational_on_each_nos(rendered):
    from netcfg.lab.cfgtree import parse_indented
    from netcfg.lab.eos.emulator import GRAMMAR
    from netcfg.lab.nxos.config import parse

    eos, nxos = rendered["leaf-su1-r1"], rendered["spine-pod1-1"]
    assert _lines(eos, "logging ") == ["logging trap informational"] + [
        f"logging vrf MGMT host {s}" for s in SERVERS]
    assert _lines(nxos, "logging ") == [f"logging server {s} 6 use-vrf management"
                                        for s in SERVERS]
    parse_indented(eos, GRAMMAR, "config", strict=True)
    parse(nxos, strict=True)


@pytest.mark.parametrize("severity, eos, nxos, junos", LEVELS)
def test_each_severity_in_each_nos_words(tmp_path, severity, eos, nxos, junos):
    out = _rendered(tmp_path, severity)
    assert _lines(out["leaf-su1-r1"], "logging trap") == [f"logging trap {eos}"]
    assert _lines(out["spine-pod1-1"], "logging server") == [
        f"logging server {s} {nxos} use-vrf management" for s in SERVERS]
    assert out["core1"].count(f"            any {junos};\n") == len(SERVERS)


def test_junos_syslog_against_junipers_yang(rendered, tmp_path):
    core = rendered["core1"]
    start = core.index("    syslog {")
    block = core[start:core.index("\n    }\n", start) + 7]
    assert block == ("    syslog {\n" + "".join(
        f"        host {s} {{\n            any info;\n        }}\n" for s in SERVERS) + "    }\n")
    check_junos_yang(core)


@pytest.mark.parametrize("release", ["5.15", "5.14"])
def test_nvue_syslog_servers_in_both_releases(rendered, tmp_path, release):
    text = rendered["leaf-su2-r5"] if release == "5.15" else _rendered(
        tmp_path, None, "releases: {cumulus: '5.14'}\n")["leaf-su2-r5"]
    body = yaml.safe_load(text)[0]["set"]
    assert body["system"]["syslog"] == {"server": {s: {"vrf": "mgmt"} for s in SERVERS}}
    check_nvue(text, release)


def test_what_is_not_rendered_is_said_where_asked(rendered):
    # SONiC: sonic-syslog.yang SYSLOG_SERVER with the severity in its own names (RFC 5424
    # informational is SONiC's info)
    import json

    assert json.loads(rendered["leaf-su2-r1"])["SYSLOG_SERVER"] == {
        s: {"severity": "info"} for s in SERVERS}
    lines = rendered["findings"].splitlines()
    assert not any("management.syslog_servers" in ln and "sonic" in ln for ln in lines)
    # Cumulus states no severity: named at the severity's line (its default, here)
    assert any("syslog_severity" in ln and "[CAP010]" in ln and "cumulus" in ln for ln in lines)
    quiet = validate(INVENTORIES / "multivendor")
    assert not any(f.rule == "CAP010" and "syslog" in f.message for f in quiet.findings)


def test_role_and_device_overrides_choose_the_servers(tmp_path):
    from netcfg.explain import explain

    extra = ("overrides:\n  roles:\n    spine: {syslog_servers: [203.0.113.5]}\n"
             "  devices:\n    leaf-su1-r1: {syslog_servers: []}\n"
             '    "leaf-su2-r[1-4]": {platform: arista-7060x6-sonic}\n'
             '    "leaf-su2-r[5-8]": {platform: nvidia-sn5600-cumulus}\n')
    base = (INVENTORIES / "multivendor" / "fabric.yaml").read_text()
    head, _, tail = base.partition("overrides:\n")
    rest = tail.split("\n\n", 1)[1] if "\n\n" in tail else ""
    inventory = tmp_path / "over"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        head + extra + "\n" + rest + f"management:\n  syslog_servers: [{SERVERS[0]}]\n")
    result = validate(inventory)
    assert result.ok, [f.text() for f in result.findings if f.severity == "error"]
    fabric = result.fabric
    builder = PlanBuilder(fabric, result.physics)
    spine = render_plan(builder.plan(fabric.devices["spine-pod1-1"]))
    assert _lines(spine, "logging server") == ["logging server 203.0.113.5 6 use-vrf management"]
    assert "logging" not in render_plan(builder.plan(fabric.devices["leaf-su1-r1"]))
    assert _lines(render_plan(builder.plan(fabric.devices["leaf-su1-r2"])), "logging vrf") == [
        f"logging vrf MGMT host {SERVERS[0]}"]
    rows = {r.key: r for s in explain(fabric, fabric.devices["spine-pod1-1"]) for r in s.rows}
    assert rows["syslog servers"].value == "203.0.113.5"
    assert "overrides.roles.spine.syslog_servers" in rows["syslog servers"].source
