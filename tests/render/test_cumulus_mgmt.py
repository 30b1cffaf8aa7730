"""The management plane of a Cumulus file stays where NVIDIA's factory configuration puts it.

Expected values come from outside netcfg:
- eth0's VRF from NVIDIA's factory startup.yaml (../shared/factory/cumulus, reconstructed from
  NVIDIA's docs: `interface eth0 ip vrf mgmt` in 5.14's words), moved for 5.15 as NVIDIA's 5.15
  change table says (tab IP Interface: `ip vrf <vrf-name>` -> `vrf <vrf-name>`);
- DNS on 5.15: `nv set system dns server <ip> vrf <vrf-id>` (5.15 change table, DNS: new
  `system dns server <ip> vrf`), written here by hand;
- NTP's source interface: NVIDIA's NTP pages, "Specify the NTP Source Interface" ("By default,
  the source interface that NTP uses is eth0"): 5.14 `nv set service ntp <vrf> listen <if>`,
  5.15 `nv set system ntp listen <if>`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cumulus_releases import _cumulus_files, _pinned

from netcfg.lab.cumulus.config import load_yaml

ROOT = Path(__file__).resolve().parents[2]
FACTORY = ROOT.parent / "shared" / "factory" / "cumulus" / \
    "startup.yaml.factory-reconstructed.yaml"


def _factory_eth0() -> dict:
    if not FACTORY.is_file():
        pytest.skip("NVIDIA's factory startup.yaml (../shared/factory/cumulus) is not here")
    docs = load_yaml(FACTORY.read_text())
    [body] = [d["set"] for d in docs if "set" in d]
    return body["interface"]["eth0"]


@pytest.mark.parametrize("rel", ["5.14", "5.15"])
def test_eth0_stays_in_the_factory_management_vrf(tmp_path, rel):
    factory = _factory_eth0()
    vrf = factory["ip"]["vrf"]  # 5.14's words, as the factory file has them
    assert vrf == "mgmt"
    files = _cumulus_files(_pinned(tmp_path, "example", f"releases:\n  cumulus: '{rel}'\n"))
    for name, tree in files.items():
        eth0 = tree["interface"]["eth0"]
        assert eth0["type"] == factory["type"], name
        if rel == "5.14":
            assert eth0["ip"]["vrf"] == vrf and "vrf" not in eth0, name
        else:
            assert eth0["vrf"] == vrf and "ip" not in eth0, name
            assert list(eth0["ipv4"]) == ["address"], name


def test_dns_and_ntp_source_in_the_management_vrf(tmp_path):
    extra = "releases:\n  cumulus: '{}'\n"
    anchor = ("ntp_servers:", "  ntp_source: management")
    new = _cumulus_files(_pinned(tmp_path / "a", "example", extra.format("5.15"), anchor))
    old = _cumulus_files(_pinned(tmp_path / "b", "example", extra.format("5.14"), anchor))
    for tree in new.values():
        system = tree["system"]
        assert system["dns"]["server"] == {"192.0.2.53": {"vrf": "mgmt"}}
        assert system["ntp"]["listen"] == "eth0" and system["ntp"]["vrf"] == "mgmt"
        assert "service" not in tree
    for tree in old.values():
        service = tree["service"]
        assert service["dns"] == {"mgmt": {"server": {"192.0.2.53": {}}}}
        assert service["ntp"]["mgmt"]["listen"] == "eth0"
        assert "ntp" not in tree["system"] and "dns" not in tree["system"]
