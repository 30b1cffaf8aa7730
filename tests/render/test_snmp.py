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
- Cumulus: `system snmp-server` with the management address as its listening address in VRF
  mgmt, `readonly-community <c> access any`, `system-location`, `system-contact`, `state
  enabled` (NVIDIA's Cumulus Linux 5.14 user guide, Configure SNMP);
- SONiC: none (CAP010).
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


@pytest.mark.parametrize("release", ["5.14", "5.15"])
def test_cumulus_snmp_server_as_nvidia_documents_it(tmp_path, release):
    """NVIDIA's Cumulus Linux 5.14 user guide, Configure SNMP: `system snmp-server state
    enabled`, `listening-address <ip> vrf mgmt`, `readonly-community <c> access any`,
    `system-location`, `system-contact`; unchanged in 5.15 (its change table touches only
    trap destinations). The lab's NVUE schema of each release takes the document."""
    import yaml
    from render_cases import check_nvue

    rendered = render_multivendor(tmp_path, SNMP + f"releases: {{cumulus: '{release}'}}\n")
    body = yaml.safe_load(rendered["leaf-su2-r5"])[0]["set"]
    # it listens on eth0's address (the switch's management address), nowhere else
    eth0 = body["interface"]["eth0"]
    (address,) = (eth0.get("ipv4") or eth0["ip"])["address"]
    assert body["system"]["snmp-server"] == {
        "listening-address": {address.split("/")[0]: {"vrf": "mgmt"}},
        "readonly-community": {SNMP_COMMUNITY: {"access": {"any": {}}}},
        "system-location": "DC1 hall 2", "system-contact": "noc@example.com",
        "state": "enabled"}
    check_nvue(rendered["leaf-su2-r5"].replace(SNMP_COMMUNITY, "Ro-Community-1"), release)


def test_sonic_tables(rendered):
    """sonic-snmp.yang: SNMP|LOCATION Location, SNMP|CONTACT Contact, SNMP_COMMUNITY keyed by
    the community (put in by `netcfg push`) with TYPE RO."""
    import json

    db = json.loads(rendered["leaf-su2-r1"])
    assert db["SNMP"] == {"LOCATION": {"Location": "DC1 hall 2"},
                          "CONTACT": {"Contact": "noc@example.com"}}
    assert db["SNMP_COMMUNITY"] == {SNMP_COMMUNITY: {"TYPE": "RO"}}
    lines = rendered["findings"].splitlines()
    assert not any("management.snmp" in ln and "sonic" in ln for ln in lines)
    assert not any("management.snmp" in ln and "cumulus" in ln for ln in lines)
