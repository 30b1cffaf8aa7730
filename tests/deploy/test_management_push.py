"""The management plane through a real push on each NOS: NTP, DNS and syslog servers, the gNMI
server and CloudVision's agent, rendered from the intent, taken by the lab's grammar or schema
for that NOS (Juniper's YANG for Junos) and still there, unchanged, on the next push."""

from __future__ import annotations

import threading

import pytest

from netcfg.deploy.desired import with_history
from netcfg.deploy.engine import Options, diff_device, push_device
from netcfg.deploy.runs import Run

from .deploy_cases import BY_NOS, desired_with, fleet, specs

OPTS = Options(timeout=20, revert_in=300)


def _switch(nos, make_lab, tmp_path):  # noqa: ANN001, ANN202
    """The multivendor switch of `nos` in a lab of its own, and its deploy target."""
    name = BY_NOS[nos]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    return lab, name, fleet(lab, [name], tmp_path).targets[0]

MANAGEMENT = """
management:
  ntp_servers: [192.0.2.123]
  ntp_source: management
  dns_servers: [192.0.2.53]
  syslog_servers: [192.0.2.55]
  syslog_severity: warning
  telemetry:
    gnmi: {certificate: gnmi-cert}
    cloudvision: {addresses: ["cv.example.com:9910"], token_file: /tmp/cv-token}
"""

#: what each NOS's running config shows of them (SONiC renders none of the three: CAP010)
SHOWN = {
    "eos": ["ntp server vrf MGMT 192.0.2.123", "ntp local-interface vrf MGMT Management1",
            "ip name-server vrf MGMT 192.0.2.53",
            "logging trap warnings", "logging vrf MGMT host 192.0.2.55",
            "management api gnmi", "ssl profile gnmi-cert", "daemon TerminAttr",
            "-cvaddr=cv.example.com:9910"],
    "nxos": ["ntp server 192.0.2.123 use-vrf management", "ntp source-interface mgmt0",
             "ip name-server 192.0.2.53 use-vrf management",
             "logging server 192.0.2.55 4 use-vrf management", "feature grpc",
             "grpc certificate gnmi-cert"],
    "junos": ["server 192.0.2.123;", "source-address ", "192.0.2.53;", "host 192.0.2.55 {",
              "any warning;",
              "extension-service", "local-certificate"],
    "cumulus": ["192.0.2.123", "192.0.2.53", "192.0.2.55", "gnmi-server"],
    # CONFIG_DB as `show runningconfiguration all` prints it (NTP_SERVER, DNS_NAMESERVER,
    # SYSLOG_SERVER keys; RFC 5424 warning is SONiC's warn)
    "sonic": ['"192.0.2.123": {', '"192.0.2.53": {}', '"192.0.2.55": {', '"severity": "warn"'],
}


@pytest.mark.parametrize("nos", sorted(SHOWN))
def test_the_management_plane_is_pushed_and_stays(nos, make_lab, tmp_path):
    lab, name, target = _switch(nos, make_lab, tmp_path)
    desired = desired_with(tmp_path, name, MANAGEMENT)
    pushed = push_device(target, desired, Run(tmp_path / "one"), OPTS, threading.Event())
    assert pushed.status == "confirmed", pushed
    running = lab[name].running_config()
    for line in SHOWN[nos]:
        assert line in running, (nos, line)
    assert diff_device(target, desired, OPTS).status == "unchanged"
    again = push_device(target, desired, Run(tmp_path / "two"), OPTS, threading.Event())
    assert again.status == "unchanged", again


#: how each device shows the SNMP community it holds (Cumulus renders none: CAP010)
COMMUNITY_HELD = {"eos": "snmp-server community Ro-Community-9 ro",
                  "nxos": "snmp-server community Ro-Community-9 group network-operator",
                  "junos": "community Ro-Community-9 {",
                  "sonic": '"Ro-Community-9": {'}


@pytest.mark.parametrize("nos", sorted(COMMUNITY_HELD))
def test_the_snmp_agent_is_pushed_with_its_community(nos, make_lab, tmp_path, monkeypatch):
    lab, name, target = _switch(nos, make_lab, tmp_path)
    monkeypatch.setenv("NETCFG_TEST_SNMP", "Ro-Community-9")
    desired = desired_with(tmp_path, name, "management:\n  snmp:\n    location: DC1 hall 2\n"
                           "    contact: noc@example.com\n"
                           "    community: {password_env: NETCFG_TEST_SNMP}\n")
    pushed = push_device(target, desired, Run(tmp_path / "one"), OPTS, threading.Event())
    assert pushed.status == "confirmed", pushed
    running = lab[name].running_config()
    assert COMMUNITY_HELD[nos] in running and "DC1 hall 2" in running
    assert "NETCFG-SNMP-COMMUNITY" not in running
    assert diff_device(target, desired, OPTS).status == "unchanged"


@pytest.mark.parametrize("nos", ["eos", "cumulus", "junos"])
def test_banners_are_pushed_kept_and_changed(nos, make_lab, tmp_path):
    lab, name, target = _switch(nos, make_lab, tmp_path)
    logins = [line.strip() for line in lab[name].running_config().splitlines()
              if line.strip().startswith("user ")]
    first = desired_with(tmp_path, name, "management:\n  banners:\n"
                         "    login: |\n      Authorised use only.\n      Activity is logged.\n"
                         "    motd: Change window Tuesday\n")
    pushed = push_device(target, first, Run(tmp_path / "one"), OPTS, threading.Event())
    assert pushed.status == "confirmed", pushed
    running = lab[name].running_config()
    assert "Activity is logged." in running and "Change window Tuesday" in running
    assert diff_device(target, first, OPTS).status == "unchanged"
    # another text: a change of the banner, not a removal of a section nobody manages
    second = desired_with(tmp_path, name, "management:\n  banners:\n"
                          "    login: Authorised use only, again.\n")
    changed = push_device(target, second, Run(tmp_path / "two"), OPTS, threading.Event())
    assert changed.status == "confirmed", changed
    running = lab[name].running_config()
    assert "Authorised use only, again." in running and "Activity is logged." not in running
    assert "Change window Tuesday" not in running
    # Junos: the message is `system login message`, beside the switch's own users, which stay
    assert all(login in running for login in logins)


#: a SHA-512 crypt hash (of a password nobody needs: the lab stores it as given)
HASH = "$6$netcfgtest$" + "C" * 86
#: its SHA-256 hash, for NX-OS
HASH5 = "$5$netcfgtest$" + "C" * 43
#: how each device shows the intent's login, and the device's own login it keeps
LOGINS = {"eos": ("username ops2 privilege 1 role network-operator secret sha512 ",
                  "username netops"),
          "junos": ("user ops2 {", "user netops {"),
          "cumulus": ("ops2:", "netops:"),
          "nxos": (f"username ops2 password 5 {HASH5} role network-operator",
                   "username netops password 5 ")}


@pytest.mark.parametrize("nos", sorted(LOGINS))
def test_intent_logins_are_added_and_the_devices_own_stay(nos, make_lab, tmp_path,
                                                           monkeypatch):
    lab, name, target = _switch(nos, make_lab, tmp_path)
    monkeypatch.setenv("NETCFG_TEST_OPS2_HASH", HASH)
    monkeypatch.setenv("NETCFG_TEST_OPS2_HASH5", HASH5)
    desired = desired_with(tmp_path, name, "management:\n  users:\n"
                           "    ops2: {role: operator, hash_env: NETCFG_TEST_OPS2_HASH,\n"
                           "           sha256: {hash_env: NETCFG_TEST_OPS2_HASH5}}\n")
    assert (HASH5 if nos == "nxos" else HASH) in desired.text
    pushed = push_device(target, desired, Run(tmp_path / "one"), OPTS, threading.Event())
    assert pushed.status == "confirmed", pushed
    running = lab[name].running_config()
    ours, theirs = LOGINS[nos]
    assert ours in running and theirs in running, running[:2000]
    assert lab[name].do(lambda emu: emu.user_configured("netops"))
    # the device's login still works (netcfg connects with it) and nothing is left to do
    assert diff_device(target, desired, OPTS).status == "unchanged"

    # the intent drops the login: netcfg wrote it (the run's journal says so), so it goes,
    # and the switch's own login stays; without that record it would be kept as the device's
    dropped = desired_with(tmp_path, name, "management:\n  ntp_servers: [192.0.2.123]\n")
    assert diff_device(target, dropped, OPTS).sections.removed == []
    remembered = with_history({name: dropped}, tmp_path / "one")[name]
    assert remembered.written is not None
    change = diff_device(target, remembered, OPTS).sections
    assert len([key for key in change.removed if "ops2" in key]) == 1, change
    assert change.unmanaged == []  # netcfg's own section: the intent's to drop
    pushed = push_device(target, remembered, Run(tmp_path / "one"), OPTS, threading.Event())
    assert pushed.status == "confirmed", pushed
    running = lab[name].running_config()
    assert ours not in running and theirs in running
