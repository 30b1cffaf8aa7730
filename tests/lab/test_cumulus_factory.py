"""The Cumulus emulator boots from NVIDIA's factory startup.yaml, and its `nv config replace`
does what NVIDIA documents: what the file lacks goes.

Expected values come from ../shared/factory/cumulus (NVIDIA's factory file, reconstructed from
NVIDIA's docs; read here, not from netcfg) and from NVIDIA's text, copied by hand:
- 5.15 "NVUE CLI", Default Startup File: the default startup.yaml "includes configuration such
  as the switch hostname, default firewall rules, and `cumulus` user account credentials. The
  file also enables the NVUE API"; "Modifying the NVUE configuration to not include the
  `cumulus` user account, replacing the configuration or applying a startup configuration,
  deletes the `cumulus` account."
- 5.15 change table (IP Interface): `ip address` -> `ipv4 address`, `ip vrf` -> `vrf`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from napalm.base.exceptions import ConnectionException

from netcfg.lab import DeviceSpec
from netcfg.lab.cumulus.config import load_yaml
from netcfg.lab.truth import vendor_options

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
FACTORY = SHARED / "factory" / "cumulus" / "startup.yaml.factory-reconstructed.yaml"
NEEDS_FACTORY = pytest.mark.skipif(not FACTORY.is_file(), reason="NVIDIA's factory startup.yaml "
                                   "(../shared/factory/cumulus) is not here")


def _set(text: str) -> dict:
    return next(d["set"] for d in load_yaml(text) if "set" in d)


@pytest.fixture
def factory_switch(make_lab):
    """A 5.15 switch fresh from the factory; the operator logs in as `netops`."""
    lab = make_lab(DeviceSpec("leaf1", "cumulus", username="netops", password="pw-f4ctory",
                              options=vendor_options(SHARED if SHARED.is_dir() else None)))
    lab.advance(10)
    return lab, lab["leaf1"]


@NEEDS_FACTORY
def test_boots_from_nvidias_factory_file(factory_switch):
    lab, dev = factory_switch
    nvidia = _set(FACTORY.read_text())
    running = _set(dev.running_config())
    system = running["system"]
    # the sections NVIDIA's text names, as the factory file has them
    assert system["control-plane"] == nvidia["system"]["control-plane"] == {
        "acl": {"acl-default-dos": {"inbound": {}}, "acl-default-whitelist": {"inbound": {}}}}
    assert system["api"] == nvidia["system"]["api"] == {"state": "enabled"}
    cumulus = system["aaa"]["user"]["cumulus"]
    assert cumulus["role"] == nvidia["system"]["aaa"]["user"]["cumulus"]["role"]
    assert cumulus["full-name"] == "cumulus,,,"
    assert system["aaa"]["class"] == nvidia["system"]["aaa"]["class"]
    # eth0 by DHCP in vrf mgmt, in 5.15's words
    factory_eth0 = nvidia["interface"]["eth0"]
    assert running["interface"]["eth0"] == {"type": factory_eth0["type"],
                                            "ipv4": {"address": factory_eth0["ip"]["address"]},
                                            "vrf": factory_eth0["ip"]["vrf"]}
    assert "ip" not in running["interface"]["eth0"]
    assert any("factory configuration: NVIDIA's factory startup.yaml" in e.text
               for e in dev.log())


def test_without_the_folder_a_minimal_factory_says_so(make_lab):
    lab = make_lab(DeviceSpec("leaf2", "cumulus", username="cumulus", password="pw"))
    dev = lab["leaf2"]
    running = _set(dev.running_config())
    assert running["system"]["control-plane"]["acl"].keys() == {"acl-default-dos",
                                                                "acl-default-whitelist"}
    assert running["system"]["api"] == {"state": "enabled"}
    assert running["interface"]["eth0"]["vrf"] == "mgmt"
    assert any("built-in minimal factory" in e.text for e in dev.log())


def test_a_replace_without_the_cumulus_account_deletes_it(factory_switch, drivers):
    """NVIDIA: replacing the configuration with a file lacking `cumulus` deletes it."""
    lab, dev = factory_switch
    drv = drivers("netcfg_cumulus", dev, keep_device_local=False)
    drv.open()
    mine = _set(dev.running_config())
    del mine["system"]["aaa"]["user"]["cumulus"]
    drv.load_replace_candidate(config=yaml.safe_dump([{"set": mine}]))
    drv.commit_config()
    after = _set(dev.running_config())["system"]["aaa"]["user"]
    assert "cumulus" not in after and "netops" in after


def test_a_replace_that_takes_eth0_out_of_mgmt_cuts_the_switch_off(factory_switch, drivers):
    """The lab's listeners are eth0 in vrf mgmt: a file whose eth0 is in no VRF leaves the
    switch unreachable (connections drop, new ones are refused, the log says why) until the
    commit-confirm timer puts the previous revision back."""
    lab, dev = factory_switch
    drv = drivers("netcfg_cumulus", dev, keep_device_local=False)
    drv.open()
    mine = _set(dev.running_config())
    del mine["interface"]["eth0"]["vrf"]
    drv.load_replace_candidate(config=yaml.safe_dump([{"set": mine}]))
    with pytest.raises(ConnectionException):
        drv.commit_config(revert_in=120)
    with pytest.raises(ConnectionException):
        drivers("netcfg_cumulus", dev).open()
    assert any("management lost: eth0 left vrf mgmt" in e.text for e in dev.log())
    lab.advance(121)
    again = drivers("netcfg_cumulus", dev)
    again.open()
    assert _set(dev.running_config())["interface"]["eth0"]["vrf"] == "mgmt"
    assert not again.has_pending_commit()


@NEEDS_FACTORY
def test_a_514_switch_holds_the_factory_file_in_its_own_words(make_lab):
    """The factory file is 5.14's: a 5.14 switch runs its eth0 and NTP as they are written."""
    lab = make_lab(DeviceSpec("leaf3", "cumulus", version="5.14.0", username="cumulus",
                              password="pw", options=vendor_options(SHARED)))
    nvidia = _set(FACTORY.read_text())
    running = _set(lab["leaf3"].running_config())
    assert running["interface"]["eth0"] == nvidia["interface"]["eth0"]
    assert running["service"]["ntp"] == nvidia["service"]["ntp"]
    assert running["system"]["config"] == nvidia["system"]["config"]
    assert running["system"]["wjh"] == nvidia["system"]["wjh"]
