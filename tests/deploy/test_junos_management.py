"""Junos management instance and root password: the rendered file commits on its own.

Outside truth: Juniper's configuration YANG for Junos OS Evolved 24.4R1 (../shared/junos-yang,
routing-instances included) through the lab's commit check, and Juniper's "Management
Interface in a Dedicated Instance" (Junos OS Evolved getting-started guide): the management
VRF is named `mgmt_junos`, is "not instantiated by default" and is switched on by `system
management-instance`; static routes over the management port belong in it. The factory
README (../shared/factory/junos) records that Junos refuses a commit without
`system root-authentication`; the lab does the same.

The root hash is what `openssl passwd -6 -salt abcdefgh pw` prints (a real program)."""

from __future__ import annotations

import threading

import pytest

from netcfg.deploy.engine import Options, diff_device, push_device
from netcfg.deploy.runs import Run
from netcfg.lab import DeviceSpec
from netcfg.lab.junos.emulator import default_config
from netcfg.lab.junos.yang import JunosYang
from netcfg.lab.truth import vendor_options

from .cli_cases import netcfg
from .deploy_cases import MULTIVENDOR, PASSWORD, SHARED, desired_with, fleet, multivendor

SHA512 = ("$6$abcdefgh$KQeXafAQAaOoKTevphVU215RvJdgzyfASRasIOuh12hO8u0r1bGW92ZnTmC9IjsiQ8VPiTXBiZF"
          "49dFL1U4wX/")
GATEWAY = "198.51.100.254"
#: the management route as Juniper's page places it, written out by hand
ROUTE = ("routing-instances {\n    mgmt_junos {\n        routing-options {\n"
         "            static {\n                route 0.0.0.0/0 next-hop 198.51.100.254;\n"
         "            }\n        }\n    }\n}\n")
OPTS = Options(timeout=20, revert_in=300)


def _yang_or_skip() -> None:
    if SHARED is None or not (SHARED / "junos-yang" / "validate_junos.py").is_file():
        pytest.skip("../shared/junos-yang is not present (CI provides it): the lab would "
                    "check the file against its own table only")
    pytest.importorskip("libyang", reason="libyang binding (extra 'yang') not installed")


def test_the_file_with_root_password_and_management_instance_commits_alone(
        tmp_path, monkeypatch, make_lab, drivers):
    """core1.conf rendered with management.gateway and management.root_authentication, loaded
    as it is through NAPALM (`load override`, nothing of the device's kept) on a switch
    fresh from the factory: Juniper's YANG takes it and the commit goes through."""
    _yang_or_skip()
    inventory, out = tmp_path / "mgmt", tmp_path / "out"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (MULTIVENDOR / "fabric.yaml").read_text()
        + f"management:\n  gateway: {GATEWAY}\n  ntp_servers: [192.0.2.123]\n"
        "  root_authentication: {hash_env: NETCFG_ROOT_HASH}\n"
        "  snmp: {location: DC1, community: {password_env: NETCFG_SNMP_COMMUNITY}}\n"
        "  telemetry: {gnmi: {certificate: gnmi-cert}}\n")
    monkeypatch.setenv("NETCFG_ROOT_HASH", SHA512)
    monkeypatch.setenv("NETCFG_SNMP_COMMUNITY", "Ro-Community-1")
    checked = netcfg("validate", str(inventory), check=0)
    assert "[CAP014]" not in checked.stdout and "[CAP027]" not in checked.stdout
    assert "[CAP017]" not in checked.stdout
    netcfg("render", str(inventory), "--out", str(out), "--device", "core1", check=0)
    text = (out / "core1.conf").read_text()
    assert "\n    management-instance;\n" in text and ROUTE in text
    assert "        server 192.0.2.123 routing-instance mgmt_junos;\n" in text
    # SNMP and gNMI answer in the instance too (Juniper: a process talking through the
    # management port must name mgmt_junos; `snmp community <c> routing-instance`,
    # `snmp routing-instance-access`, `extension-service request-response grpc
    # routing-instance` are the statement pages' and the YANG's places for it)
    assert ("    community NETCFG-SNMP-COMMUNITY {\n        authorization read-only;\n"
            "        routing-instance mgmt_junos;\n    }\n    routing-instance-access {\n"
            "        access-list mgmt_junos;\n    }\n") in text
    assert ('                        local-certificate "gnmi-cert";\n                    }\n'
            "                    routing-instance mgmt_junos;\n") in text

    JunosYang.from_options(vendor_options(SHARED))  # once, outside Lab.start()'s timeout
    lab = make_lab(DeviceSpec("core1", "junos", username="netops", password="lab-pw",
                              options=vendor_options(SHARED)))
    assert "management-instance" not in lab["core1"].running_config()  # factory: not on
    drv = drivers("junos", lab["core1"], username="netops", password="lab-pw")
    drv.open()
    drv.load_replace_candidate(config=text)
    drv.commit_config()
    running = lab["core1"].running_config()
    assert "management-instance;" in running and "next-hop 198.51.100.254;" in running
    assert SHA512 in running
    assert "routing-instance-access" in running and "grpc" in running
    # the lab checks the SNMP and gRPC subtrees against Juniper's YANG, not loosely: a
    # misspelt statement there fails the commit
    drv.load_replace_candidate(config=text.replace("routing-instance-access",
                                                   "routing-instance-acces"))
    with pytest.raises(Exception, match="routing-instance-acces"):
        drv.commit_config()
    drv.discard_config()


def _switch_with_its_own_instance() -> str:
    """A switch whose operator turned the management instance on by hand, as Juniper's page
    shows it (the route over the management port in mgmt_junos, one commit)."""
    return (default_config("core1", "netops").replace(
        "    host-name core1;\n", "    host-name core1;\n    management-instance;\n")
        + "routing-instances {\n    mgmt_junos {\n        routing-options {\n"
        "            static {\n                route 0.0.0.0/0 next-hop 198.51.100.1;\n"
        "            }\n        }\n    }\n}\n")


def test_a_push_without_gateway_keeps_the_switchs_own_instance(make_lab, tmp_path):
    """The multivendor intent has no management.gateway: its file moves no instance, and the
    push keeps the switch's own instance and route (the preserve policy) and says so."""
    result = multivendor()
    assert result.fabric is not None
    warned = [f for f in result.findings if f.rule == "CAP027"]
    assert len(warned) == 1 and warned[0].severity == "warning"
    assert "core1 and 7 more junos switches" in warned[0].message
    dev = result.fabric.devices["core1"]
    spec = DeviceSpec("core1", "junos", username="netops", password=PASSWORD,
                      interfaces=[p.name for p in dev.ports],
                      model=result.fabric.platform(dev).model, options=vendor_options(SHARED),
                      startup_config=_switch_with_its_own_instance())
    JunosYang.from_options(vendor_options(SHARED))
    lab = make_lab(spec)
    f = fleet(lab, ["core1"], tmp_path)
    desired = f.desired["core1"]
    assert "management-instance" not in desired.text and "routing-instances" not in desired.text
    drift = diff_device(f.targets[0], desired, OPTS)
    assert drift.sections is not None
    assert {"system management-instance", "routing-instances mgmt_junos"} <= set(
        drift.sections.preserved)
    assert not {"system management-instance", "routing-instances mgmt_junos"} & set(
        drift.sections.removed)
    pushed = push_device(f.targets[0], desired, Run(tmp_path / "state"), OPTS,
                         threading.Event())
    assert pushed.status == "confirmed", pushed
    running = lab["core1"].running_config()
    assert "management-instance;" in running and "next-hop 198.51.100.1;" in running

    # with a gateway the file's instance and route replace the switch's own, in one commit
    routed = desired_with(tmp_path, "core1", f"management:\n  gateway: {GATEWAY}\n")
    again = push_device(f.targets[0], routed, Run(tmp_path / "state"), OPTS, threading.Event())
    assert again.status == "confirmed", again
    running = lab["core1"].running_config()
    assert "management-instance;" in running and f"next-hop {GATEWAY};" in running
    assert "198.51.100.1;" not in running
