"""TACACS+ and RADIUS servers from the intent (management.aaa), each line as the vendor writes
it, taken by the lab's grammars and, for Junos, by Juniper's YANG:
- EOS: `tacacs-server host <s> vrf MGMT key 0 <key>` (Arista's AVD tacacs-servers.j2; key types
  0, 7, 8a in tacacs_servers.schema.yml), `aaa group server tacacs+ <g>` / `server <s> vrf
  MGMT` (aaa-server-groups-tacacs-plus.j2), `aaa authentication login default group <g> local`
  (aaa-authentication.j2), `aaa authorization exec default group <g> local`
  (aaa-authorization.j2), `ip tacacs vrf MGMT source-interface Management1`
  (ip-tacacs-source-interfaces.j2); RADIUS alike, its `key 0` flagged (CAP019: AVD writes
  RADIUS keys only in type 7);
- NX-OS: `feature tacacs+`, `tacacs-server host <s> key 0 <key>`, `aaa group server tacacs+
  <g>` / `server <s>` / `use-vrf management` / `source-interface mgmt0`, `aaa authentication
  login default group <g>` (Cisco Nexus 9000 NX-OS Security Configuration Guide: local is the
  fallback when no server answers unless `no aaa authentication login default fallback error
  local`);
- Junos: `system { authentication-order [ tacplus password ]; tacplus-server <s> { secret
  "<key>"; source-address <mgmt>; } }` (junos-conf-system 24.4R1-EVO);
- Cumulus and SONiC: none (CAP010).
The files hold a placeholder where the key goes; `netcfg push` fills it."""

from __future__ import annotations

import pytest
from render_cases import INVENTORIES, check_junos_yang, render_multivendor

from netcfg.lab.cfgtree import parse_indented
from netcfg.render.plan import AAA_KEY

TACACS = """management:
  aaa:
    protocol: tacacs+
    servers: [192.0.2.7, 192.0.2.8]
    key: {password_env: NETCFG_AAA_KEY}
"""
RADIUS = TACACS.replace("tacacs+", "radius") + "    group: ops-radius\n"


@pytest.fixture(scope="module")
def tacacs(tmp_path_factory) -> dict[str, str]:
    return render_multivendor(tmp_path_factory.mktemp("tacacs"), TACACS)


@pytest.fixture(scope="module")
def radius(tmp_path_factory) -> dict[str, str]:
    return render_multivendor(tmp_path_factory.mktemp("radius"), RADIUS)


def _aaa_lines(text: str) -> list[str]:
    starts = ("tacacs-server", "radius-server", "aaa ", "ip tacacs", "ip radius",
              "feature tacacs+")
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith(starts):
            out.append(line)
            inside = line.startswith("aaa group server")
        elif inside and line.startswith(" "):
            out.append(line)
        else:
            inside = False
    return out


def test_eos_tacacs_as_avd_writes_it(tacacs):
    from netcfg.lab.eos.emulator import GRAMMAR

    assert _aaa_lines(tacacs["leaf-su1-r1"]) == [
        f"tacacs-server host 192.0.2.7 vrf MGMT key 0 {AAA_KEY}",
        f"tacacs-server host 192.0.2.8 vrf MGMT key 0 {AAA_KEY}",
        "aaa group server tacacs+ netcfg",
        "   server 192.0.2.7 vrf MGMT",
        "   server 192.0.2.8 vrf MGMT",
        "aaa authentication login default group netcfg local",
        "aaa authorization exec default group netcfg local",
        "ip tacacs vrf MGMT source-interface Management1"]
    parse_indented(tacacs["leaf-su1-r1"], GRAMMAR, "config", strict=True)


def test_nxos_tacacs_as_cisco_documents_it(tacacs):
    from netcfg.lab.nxos import config

    assert _aaa_lines(tacacs["spine-pod1-1"]) == [
        "feature tacacs+",
        f"tacacs-server host 192.0.2.7 key 0 {AAA_KEY}",
        f"tacacs-server host 192.0.2.8 key 0 {AAA_KEY}",
        "aaa group server tacacs+ netcfg",
        "  server 192.0.2.7",
        "  server 192.0.2.8",
        "  use-vrf management",
        "  source-interface mgmt0",
        "aaa authentication login default group netcfg"]
    config.parse(tacacs["spine-pod1-1"])
    # the lab, like NX-OS, knows no tacacs-server command before `feature tacacs+`
    with pytest.raises(config.ConfigError):
        config.parse(tacacs["spine-pod1-1"].replace("feature tacacs+\n", ""))


def test_junos_tacplus_servers_in_junipers_yang(tacacs):
    text = tacacs["core1"]
    lines = text.splitlines()
    start = lines.index("    authentication-order [ tacplus password ];")
    assert lines[start:start + 9] == [
        "    authentication-order [ tacplus password ];",
        "    tacplus-server 192.0.2.7 {",
        f'        secret "{AAA_KEY}";',
        "        source-address 198.51.100.25;",
        "    }",
        "    tacplus-server 192.0.2.8 {",
        f'        secret "{AAA_KEY}";',
        "        source-address 198.51.100.25;",
        "    }"]
    check_junos_yang(text)


def test_radius_on_each_nos(radius):
    from netcfg.lab.eos.emulator import GRAMMAR
    from netcfg.lab.nxos import config

    assert _aaa_lines(radius["leaf-su1-r1"]) == [
        f"radius-server host 192.0.2.7 vrf MGMT key 0 {AAA_KEY}",
        f"radius-server host 192.0.2.8 vrf MGMT key 0 {AAA_KEY}",
        "aaa group server radius ops-radius",
        "   server 192.0.2.7 vrf MGMT",
        "   server 192.0.2.8 vrf MGMT",
        "aaa authentication login default group ops-radius local",
        "ip radius vrf MGMT source-interface Management1"]
    parse_indented(radius["leaf-su1-r1"], GRAMMAR, "config", strict=True)
    assert _aaa_lines(radius["spine-pod1-1"]) == [
        f"radius-server host 192.0.2.7 key 0 {AAA_KEY}",
        f"radius-server host 192.0.2.8 key 0 {AAA_KEY}",
        "aaa group server radius ops-radius",
        "  server 192.0.2.7",
        "  server 192.0.2.8",
        "  use-vrf management",
        "  source-interface mgmt0",
        "aaa authentication login default group ops-radius"]
    config.parse(radius["spine-pod1-1"])
    assert "    authentication-order [ radius password ];" in radius["core1"].splitlines()
    assert "    radius-server 192.0.2.7 {" in radius["core1"].splitlines()
    check_junos_yang(radius["core1"])
    assert "radius-server host <server> vrf MGMT key 0 <key>" in radius["findings"]
    assert "[CAP019]" in radius["findings"]


def test_cumulus_and_sonic_say_they_render_none(tacacs):
    findings = tacacs["findings"].splitlines()
    assert any("management.aaa" in ln and "cumulus config does not state aaa" in ln
               and "[CAP010]" in ln for ln in findings)
    assert "tacacs" not in tacacs["leaf-su2-r5"]


def test_sonic_asks_the_servers_first_to_last(tacacs, radius):
    """sonic-system-aaa.yang AAA authentication `login` (servers, then local) with the key in
    TACPLUS|global / RADIUS|global `passkey` (the login's must needs it); hostcfgd asks the
    servers by priority, highest first."""
    import json

    from netcfg.render.plan import AAA_KEY

    for rendered, server, glob, proto in ((tacacs, "TACPLUS_SERVER", "TACPLUS", "tacacs+"),
                                          (radius, "RADIUS_SERVER", "RADIUS", "radius")):
        db = json.loads(rendered["leaf-su2-r1"])
        assert db["AAA"] == {"authentication": {"login": f"{proto},local"}}
        assert db[glob] == {"global": {"passkey": AAA_KEY}}
        assert db[server] == {"192.0.2.7": {"priority": "2"}, "192.0.2.8": {"priority": "1"}}


def test_a_key_written_in_the_intent_is_refused(tmp_path):
    with pytest.raises(AssertionError, match="management.aaa.key needs password_env or file"):
        render_multivendor(tmp_path, TACACS.replace("{password_env: NETCFG_AAA_KEY}", "{}"))
    with pytest.raises(AssertionError, match="management.aaa"):
        render_multivendor(tmp_path, TACACS.replace(
            "{password_env: NETCFG_AAA_KEY}", "{password: plaintext}"))


def test_explain_names_the_servers_and_where_they_come_from(tmp_path):
    from netcfg.explain import explain
    from netcfg.validate import validate

    inventory = tmp_path / "inv"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (INVENTORIES / "multivendor" / "fabric.yaml").read_text() + TACACS)
    result = validate(inventory)
    fabric = result.fabric
    rows = {r.key: r for s in explain(fabric, fabric.devices["core1"]) for r in s.rows}
    assert rows["aaa servers"].value == ("tacacs+ 192.0.2.7, 192.0.2.8 (group netcfg), key by "
                                         "reference, local logins as fallback")
    assert "management.aaa" in str(rows["aaa servers"].source)
    assert "fabric.yaml:" in str(rows["aaa servers"].source)
    # the preserve policy a push applies to the switch (docs/deploy.md)
    assert rows["push keeps"].value == (
        "system root-authentication, system login user *, system login class *, "
        "system authentication-order, system tacplus-server, system radius-server, "
        "system management-instance, routing-instances mgmt_junos; "
        "the device's own system root-authentication")
