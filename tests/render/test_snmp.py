"""The SNMP agent from the intent (management.snmp: location, contact, the read-only
community by reference), each line as the vendor writes it, taken by the lab's grammars and,
for Junos, by Juniper's YANG:
- EOS: `snmp-server contact|location <text>`, `snmp-server community <c> ro`, `snmp-server
  vrf MGMT` (Arista's AVD snmp-server.j2);
- NX-OS: `snmp-server contact|location <text>`, `snmp-server community <c> group
  network-operator` (Cisco Nexus 9000 NX-OS System Management Configuration Guide 10.5(x),
  "Configuring SNMP": `snmp-server community name [group group | ro | rw]`);
- Junos: `snmp { location "..."; contact "..."; community <c> { authorization read-only; } }`
  (junos-conf-snmp 24.4R1-EVO);
- Cumulus and SONiC: none (CAP010).
The files hold a placeholder where the community goes; `netcfg push` fills it."""

from __future__ import annotations

import pytest
from render_cases import check_junos_yang, render_multivendor

from netcfg.render.plan import SNMP_COMMUNITY

SNMP = """management:
  snmp:
    location: DC1 hall 2
    contact: noc@example.com
    community: {password_env: NETCFG_SNMP_COMMUNITY}
"""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, str]:
    return render_multivendor(tmp_path_factory.mktemp("snmp"), SNMP, lambda text: text.replace(
        '    "leaf-su2-r[1-4]"', '    "core1": {snmp_location: DC1 hall 9}\n'
        '    "leaf-su2-r[1-4]"', 1))


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("snmp-server")]


def test_eos_and_nxos_lines(rendered):
    from netcfg.lab.cfgtree import parse_indented
    from netcfg.lab.eos.emulator import GRAMMAR
    from netcfg.lab.nxos.config import parse

    assert _lines(rendered["leaf-su1-r1"]) == [
        "snmp-server contact noc@example.com", "snmp-server location DC1 hall 2",
        "snmp-server community NETCFG-SNMP-COMMUNITY ro", "snmp-server vrf MGMT"]
    assert _lines(rendered["spine-pod1-1"]) == [
        "snmp-server contact noc@example.com", "snmp-server location DC1 hall 2",
        "snmp-server community NETCFG-SNMP-COMMUNITY group network-operator"]
    assert SNMP_COMMUNITY == "NETCFG-SNMP-COMMUNITY"
    parse_indented(rendered["leaf-su1-r1"], GRAMMAR, "config", strict=True)
    parse(rendered["spine-pod1-1"], strict=True)


def test_junos_snmp_against_junipers_yang(rendered, tmp_path):
    core = rendered["core2"]
    start = core.index("\nsnmp {\n") + 1
    assert core[start:core.index("\n}\n", start) + 3] == (
        'snmp {\n    location "DC1 hall 2";\n    contact "noc@example.com";\n'
        "    community NETCFG-SNMP-COMMUNITY {\n        authorization read-only;\n    }\n}\n")
    assert '    location "DC1 hall 9";\n' in rendered["core1"]  # the device override
    check_junos_yang(core.replace(SNMP_COMMUNITY, "Ro-Community-1"))


def test_cumulus_and_sonic_say_they_render_none(rendered):
    assert "snmp" not in rendered["leaf-su2-r5"] and "SNMP" not in rendered["leaf-su2-r1"]
    lines = rendered["findings"].splitlines()
    for nos in ("cumulus", "sonic"):
        assert any("management.snmp" in ln and "[CAP010]" in ln and nos in ln for ln in lines)
