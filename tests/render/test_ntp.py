"""NTP and DNS servers from the intent (management.ntp_servers, dns_servers) on every NOS,
each line as the vendor writes it, taken by the lab's grammars (written from the vendors'
documentation) and, for Junos, by Juniper's YANG:
- EOS: `ntp server vrf MGMT <server>` (the form Arista's AVD renders);
- NX-OS: `ntp server <server> use-vrf management` (Cisco's `ntp server ... [use-vrf <vrf>]`);
- Junos: `system { ntp { server <server>; } }` (junos-conf-system, ntp server list);
- NVUE 5.15 `system ntp vrf mgmt` + `system ntp server <server>`, 5.14 `service ntp mgmt
  server <server>` (NVIDIA's NVUE reference, NTP page, which names both);
- SONiC: none (no NTP model in the project's SONiC YANG to check NTP_SERVER against): CAP010.
DNS likewise: EOS `ip name-server vrf MGMT <s>` (AVD), NX-OS `ip name-server <s> use-vrf
management` (Cisco), Junos `system name-server <s>`, NVUE 5.15 `system dns server <s>` / 5.14
`service dns mgmt server <s>` (NVIDIA's DNS page names both), SONiC none (CAP010)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from render_cases import INVENTORIES, check_junos_yang, check_nvue

from netcfg.render.engine import render_plan
from netcfg.render.plan import PlanBuilder
from netcfg.validate import validate

SERVERS = ["192.0.2.123", "198.51.100.7"]
RESOLVERS = ["192.0.2.53"]


def _plans(tmp: Path, release: str | None = None) -> dict[str, str]:
    inventory = tmp / ("ntp" + (release or ""))
    inventory.mkdir()
    text = (INVENTORIES / "multivendor" / "fabric.yaml").read_text()
    text += (f"management:\n  ntp_servers: [{', '.join(SERVERS)}]\n"
             f"  dns_servers: [{', '.join(RESOLVERS)}]\n")
    if release:
        text += f"releases: {{cumulus: '{release}'}}\n"
    (inventory / "fabric.yaml").write_text(text)
    result = validate(inventory)
    assert result.ok, [f.text() for f in result.findings if f.severity == "error"]
    builder = PlanBuilder(result.fabric, result.physics)
    names = ["leaf-su1-r1", "spine-pod1-1", "core1", "leaf-su2-r5", "leaf-su2-r1"]
    out = {n: render_plan(builder.plan(result.fabric.devices[n])) for n in names}
    out["findings"] = "\n".join(f.text() for f in result.findings)
    return out


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, str]:
    return _plans(tmp_path_factory.mktemp("ntp"))


def test_eos_and_nxos_lines(rendered):
    from netcfg.lab.cfgtree import parse_indented
    from netcfg.lab.eos.emulator import GRAMMAR
    from netcfg.lab.nxos.config import parse

    eos, nxos = rendered["leaf-su1-r1"], rendered["spine-pod1-1"]
    assert [line for line in eos.splitlines() if line.startswith("ntp ")] == [
        f"ntp server vrf MGMT {s}" for s in SERVERS]
    assert [line for line in nxos.splitlines() if line.startswith("ntp ")] == [
        f"ntp server {s} use-vrf management" for s in SERVERS]
    assert [line for line in eos.splitlines() if line.startswith("ip name-server")] == [
        f"ip name-server vrf MGMT {s}" for s in RESOLVERS]
    assert [line for line in nxos.splitlines() if line.startswith("ip name-server")] == [
        f"ip name-server {s} use-vrf management" for s in RESOLVERS]
    parse_indented(eos, GRAMMAR, "config", strict=True)
    parse(nxos, strict=True)


def test_junos_ntp_against_junipers_yang(rendered, tmp_path):
    core = rendered["core1"]
    block = core[core.index("    name-server {"):core.index("    services {")]
    assert block == ("    name-server {\n" + "".join(f"        {s};\n" for s in RESOLVERS)
                     + "    }\n    ntp {\n" + "".join(f"        server {s};\n" for s in SERVERS)
                     + "    }\n")
    check_junos_yang(core)


@pytest.mark.parametrize("release", ["5.15", "5.14"])
def test_nvue_ntp_per_release(rendered, tmp_path, release):
    text = rendered["leaf-su2-r5"] if release == "5.15" else _plans(tmp_path, "5.14")[
        "leaf-su2-r5"]
    body = yaml.safe_load(text)[0]["set"]
    if release == "5.15":
        assert body["system"]["ntp"] == {"vrf": "mgmt", "server": {s: {} for s in SERVERS}}
        # 5.15 change table, DNS: `nv set system dns server <ip> vrf <vrf-id>`
        assert body["system"]["dns"] == {"server": {s: {"vrf": "mgmt"} for s in RESOLVERS}}
        assert "service" not in body
    else:
        assert body["service"]["ntp"] == {"mgmt": {"server": {s: {} for s in SERVERS}}}
        assert body["service"]["dns"] == {"mgmt": {"server": {s: {} for s in RESOLVERS}}}
        assert "ntp" not in body["system"] and "dns" not in body["system"]
    check_nvue(text, release)


def test_sonic_renders_the_servers(rendered):
    """sonic-ntp.yang NTP_SERVER (association_type server, iburst on) and sonic-dns.yang
    DNS_NAMESERVER, keyed by address; NTP|global stays the switch's own (its first-boot
    src_intf eth0); the file is checked against SONiC's YANG in test_sonic.py."""
    import json

    db = json.loads(rendered["leaf-su2-r1"])
    assert db["NTP_SERVER"] == {s: {"association_type": "server", "iburst": "on"}
                                for s in SERVERS}
    assert db["DNS_NAMESERVER"] == {s: {} for s in RESOLVERS} and "NTP" not in db
    lines = rendered["findings"].splitlines()
    assert not any(("management.ntp_servers" in ln or "management.dns_servers" in ln)
                   and "[CAP010]" in ln and "sonic" in ln for ln in lines)


def test_role_and_device_overrides_choose_the_servers(tmp_path):
    """The usual order: management, then the role's override, then the most specific device
    key. The rendered lines follow, and explain names the line each list came from."""
    from netcfg.explain import explain

    inventory = tmp_path / "over"
    inventory.mkdir()
    text = (INVENTORIES / "multivendor" / "fabric.yaml").read_text()
    text = text.replace(
        "overrides:\n  devices:\n",
        "overrides:\n"
        "  roles:\n    spine: {ntp_servers: [203.0.113.1], dns_servers: [203.0.113.53]}\n"
        "  devices:\n    spine-pod1-*: {ntp_servers: [203.0.113.2]}\n"
        "    leaf-su1-r1: {ntp_servers: []}\n", 1)
    assert "spine-pod1-*" in text
    text += f"management:\n  ntp_servers: [{SERVERS[0]}]\n"
    (inventory / "fabric.yaml").write_text(text)
    result = validate(inventory)
    assert result.ok, [f.text() for f in result.findings if f.severity == "error"]
    fabric = result.fabric
    builder = PlanBuilder(fabric, result.physics)

    def plan(name):
        return builder.plan(fabric.devices[name])

    assert plan("core1").ntp_servers == [SERVERS[0]]              # management
    assert plan("spine-pod2-1").ntp_servers == ["203.0.113.1"]    # the role's
    assert plan("spine-pod2-1").dns_servers == ["203.0.113.53"]
    assert plan("spine-pod1-1").ntp_servers == ["203.0.113.2"]    # the device glob's
    assert plan("leaf-su1-r1").ntp_servers == []                   # none, on purpose
    # NX-OS spine: Cisco's form with the overriding server, and only it
    nxos = render_plan(plan("spine-pod1-1"))
    assert "ntp server 203.0.113.2 use-vrf management" in nxos
    assert "203.0.113.1 " not in nxos and f"ntp server {SERVERS[0]}" not in nxos
    assert "ntp server" not in render_plan(plan("leaf-su1-r1"))
    rows = {r.key: r for s in explain(fabric, fabric.devices["spine-pod1-1"]) for r in s.rows}
    assert rows["ntp servers"].value == "203.0.113.2"
    assert "overrides.devices.spine-pod1-*.ntp_servers" in str(rows["ntp servers"].source)


def test_ntp_requests_leave_from_the_management_interface(tmp_path):
    """management.ntp_source: EOS `ntp local-interface vrf MGMT Management1` (AVD ntp.j2),
    NX-OS `ntp source-interface mgmt0` (Cisco), Junos `system ntp source-address <the
    management address>` (junos-conf-system ntp source-address list); NVUE `system ntp listen
    eth0` (NVIDIA's 5.15 NTP page, "Specify the NTP Source Interface"); SONiC none (CAP010)."""
    from render_cases import render_multivendor

    from netcfg.lab.cfgtree import parse_indented
    from netcfg.lab.eos.emulator import GRAMMAR
    from netcfg.lab.nxos.config import parse

    out = render_multivendor(tmp_path, f"management:\n  ntp_servers: [{SERVERS[0]}]\n"
                                       "  ntp_source: management\n")
    eos, nxos, core = out["leaf-su1-r1"], out["spine-pod1-1"], out["core1"]
    assert [ln for ln in eos.splitlines() if ln.startswith("ntp ")] == [
        "ntp local-interface vrf MGMT Management1", f"ntp server vrf MGMT {SERVERS[0]}"]
    assert [ln for ln in nxos.splitlines() if ln.startswith("ntp ")] == [
        f"ntp server {SERVERS[0]} use-vrf management", "ntp source-interface mgmt0"]
    address = next(ln.split()[-1].rstrip(";").split("/")[0] for ln in core.splitlines()
                   if "address" in ln and "198.51.100." in ln)
    assert f"        server {SERVERS[0]};\n        source-address {address};\n" in core
    parse_indented(eos, GRAMMAR, "config", strict=True)
    parse(nxos, strict=True)
    check_junos_yang(core)
    assert yaml.safe_load(out["leaf-su2-r5"])[0]["set"]["system"]["ntp"]["listen"] == "eth0"
    assert any("management.ntp_source" in ln and "[CAP010]" in ln and "sonic" in ln
               for ln in out["findings"].splitlines())
