"""The one preserve policy (netcfg/deploy/preserve.py) on each NOS's own text.

Running configs and candidates are written here as each NOS prints them, and what the replace
candidate must hold is written out by hand: the device's logins beside the intent's (the
intent's user replaces the device's of the same name only), AAA the file lacks, the sections
the intent preserves, and on SONiC the switch's own pools and identity in place of the file's,
reported rather than swapped silently. Junos merges are also parsed by Juniper's YANG
(tests/deploy/test_preserve_junos.py); each NOS's lab takes them in the deploy tests.
"""

from __future__ import annotations

import json

import yaml

from netcfg.deploy.preserve import keep
from netcfg.vendors import vendor

EOS_RUNNING = """\
! device: leaf1 (DCS-7060X6, EOS-4.33.1F)
hostname leaf1
username admin privilege 15 role network-admin secret sha512 $6$adm$X
username alice privilege 1 role network-operator secret sha512 $6$old$Y
aaa authentication login default group tacacs+ local
aaa authorization exec default group tacacs+ local
tacacs-server host 192.0.2.7 vrf MGMT key 7 070C285F4D06
snmp-server location "row 4"
ntp server vrf MGMT 192.0.2.1
!
interface Ethernet1/1
   description old
!
end
"""

EOS_CANDIDATE = """\
hostname leaf1
username alice privilege 15 role network-admin secret sha512 $6$new$Z
ntp server vrf MGMT 192.0.2.9
!
interface Ethernet1/1
   description new
!
end
"""


def test_eos_keeps_the_devices_other_logins_and_aaa():
    eos = vendor("eos").deploy
    kept = keep(eos, EOS_RUNNING, EOS_CANDIDATE, eos.policy())
    assert kept.text == EOS_CANDIDATE.replace("!\nend\n", "!\n" + "\n".join([
        "username admin privilege 15 role network-admin secret sha512 $6$adm$X",
        "aaa authentication login default group tacacs+ local",
        "aaa authorization exec default group tacacs+ local",
        "tacacs-server host 192.0.2.7 vrf MGMT key 7 070C285F4D06"]) + "\nend\n")
    assert kept.kept == ["aaa authentication", "aaa authorization", "tacacs-server",
                         "username admin"]
    assert kept.overridden == []
    # what the team runs and the intent does not render goes only when the intent keeps it
    preserved = keep(eos, EOS_RUNNING, EOS_CANDIDATE, eos.policy(preserve=["snmp-server *"]))
    assert 'snmp-server location "row 4"' in preserved.text
    assert preserved.kept == sorted([*kept.kept, "snmp-server location"])
    # the intent's NTP server replaces the device's: the file states `ntp server`
    assert "192.0.2.1" not in preserved.text


def test_nxos_keeps_every_line_of_a_devices_user():
    nxos = vendor("nxos").deploy
    running = ("hostname leaf2\n"
               "username admin password 5 $5$adm role network-admin\n"
               "username admin sshkey ssh-ed25519 AAAAC3 admin@jump\n"
               "username netcfg password 5 $5$old role network-admin\n"
               "snmp-server user ops network-operator auth sha 0x1234 localizedkey\n"
               "ssh key rsa 2048\n"
               "interface Ethernet1/1\n  description old\n")
    candidate = ("hostname leaf2\nusername netcfg password 5 $5$new role network-admin\n"
                 "interface Ethernet1/1\n  description new\n")
    kept = keep(nxos, running, candidate, nxos.policy())
    assert kept.text == candidate + (
        "username admin password 5 $5$adm role network-admin\n"
        "username admin sshkey ssh-ed25519 AAAAC3 admin@jump\n"
        "snmp-server user ops network-operator auth sha 0x1234 localizedkey\n"
        "ssh key rsa 2048\n")
    assert kept.kept == ["snmp-server user ops", "ssh", "username admin"]


JUNOS_RUNNING = """\
version 24.4R1-EVO;
system {
    host-name old;
    root-authentication {
        encrypted-password "$6$root$R";
    }
    login {
        class noc {
            permissions view;
        }
        user admin {
            class super-user;
        }
        user netcfg {
            class read-only;
        }
    }
    tacplus-server {
        192.0.2.7 secret "$9$abc";
    }
    ntp {
        server 192.0.2.1;
    }
}
"""

JUNOS_CANDIDATE = """\
system {
    host-name core1;
    login {
        user netcfg {
            class super-user;
        }
    }
}
"""


def test_junos_merges_the_devices_logins_into_the_intents():
    junos = vendor("junos").deploy
    kept = keep(junos, JUNOS_RUNNING, JUNOS_CANDIDATE, junos.policy())
    assert kept.text == """\
system {
    host-name core1;
    login {
        user netcfg {
            class super-user;
        }
        class noc {
            permissions view;
        }
        user admin {
            class super-user;
        }
    }
    root-authentication {
        encrypted-password "$6$root$R";
    }
    tacplus-server {
        192.0.2.7 secret "$9$abc";
    }
}
"""
    assert kept.kept == ["system login class noc", "system login user admin",
                         "system root-authentication", "system tacplus-server"]


def test_junos_root_password_is_the_devices_and_said_so():
    junos = vendor("junos").deploy
    candidate = JUNOS_CANDIDATE.replace(
        "    host-name core1;\n",
        '    host-name core1;\n    root-authentication {\n        encrypted-password "$6$i$I";\n'
        "    }\n")
    kept = keep(junos, JUNOS_RUNNING, candidate,
                junos.policy(device_wins=["system root-authentication"]))
    assert '"$6$root$R"' in kept.text and "$6$i$I" not in kept.text
    assert kept.overridden == ["system root-authentication"]


def test_cumulus_keeps_the_devices_users_beside_the_intents():
    cumulus = vendor("cumulus").deploy
    running = yaml.safe_dump([{"header": {"rev-id": 1.0}}, {"set": {
        "system": {"hostname": "old", "aaa": {
            "user": {"cumulus": {"role": "system-admin"}, "netcfg": {"role": "nvue-monitor"}},
            "authentication-order": {"10": "tacacs"}}},
        "interface": {"eth0": {"ip": {"vrf": "mgmt"}}, "swp1": {"description": "x"}},
        "vrf": {"mgmt": {}, "default": {}}}}])
    candidate = ("- set:\n    system:\n      hostname: new\n      aaa:\n        user:\n"
                 "          netcfg:\n            role: system-admin\n")
    kept = keep(cumulus, running, candidate, cumulus.policy())
    documents = yaml.safe_load(kept.text)
    assert documents[0] == yaml.safe_load(candidate)[0]
    assert documents[1] == {"set": {
        "system": {"aaa": {"user": {"cumulus": {"role": "system-admin"}},
                           "authentication-order": {"10": "tacacs"}}},
        "interface": {"eth0": {"ip": {"vrf": "mgmt"}}},
        "vrf": {"mgmt": {}}}}
    assert kept.kept == ["interface eth0", "system aaa authentication-order",
                         "system aaa user cumulus", "vrf mgmt"]


def test_sonic_keeps_its_own_pools_and_identity_and_says_so():
    sonic = vendor("sonic").deploy
    running = {
        "DEVICE_METADATA": {"localhost": {"hostname": "old", "mac": "0c:42:a1:00:00:01",
                                          "platform": "x86_64-arista_7060x6_64pe",
                                          "hwsku": "Arista-7060X6-64PE-C256S2",
                                          "timezone": "UTC", "region": "west"}},
        "MGMT_INTERFACE": {"eth0|10.0.0.5/24": {"gwaddr": "10.0.0.1"}},
        "BUFFER_POOL": {"ingress_lossless_pool": {"mode": "dynamic", "size": "1000",
                                                  "type": "ingress"}},
        "TACPLUS_SERVER": {"192.0.2.7": {"priority": "1"}},
        "NTP_SERVER": {"192.0.2.1": {}}}
    rendered = {
        "DEVICE_METADATA": {"localhost": {"hostname": "new",
                                          "hwsku": "Arista-7060X6-64PE-O128S2"}},
        "MGMT_INTERFACE": {"eth0|198.51.100.9/24": {}},
        "BUFFER_POOL": {"ingress_lossless_pool": {"mode": "dynamic", "size": "2000",
                                                  "type": "ingress"}}}
    kept = keep(sonic, json.dumps(running), json.dumps(rendered), sonic.policy())
    assert json.loads(kept.text) == {
        "DEVICE_METADATA": {"localhost": {"hostname": "new", "mac": "0c:42:a1:00:00:01",
                                          "platform": "x86_64-arista_7060x6_64pe",
                                          "hwsku": "Arista-7060X6-64PE-C256S2",
                                          "timezone": "UTC", "region": "west"}},
        "MGMT_INTERFACE": {"eth0|198.51.100.9/24": {}},
        "BUFFER_POOL": running["BUFFER_POOL"],
        "TACPLUS_SERVER": {"192.0.2.7": {"priority": "1"}}}
    assert kept.overridden == ["BUFFER_POOL", "DEVICE_METADATA|localhost|hwsku"]
    assert kept.kept == ["DEVICE_METADATA|localhost|region", "DEVICE_METADATA|localhost|timezone",
                         "TACPLUS_SERVER"]


def test_what_netcfg_last_left_on_a_device(tmp_path):
    """The journal decides: the newest push that changed the device and was not rolled back
    (a rolled-back device runs what the push before left); dry runs and reverts do not count."""
    from netcfg.deploy.runs import Run, last_written

    def push(run_id: str, outcomes: dict[str, str], command: str = "push") -> Run:
        run = Run(tmp_path, run_id, command=command)
        for device, event in outcomes.items():
            run.save("candidate", device, f"{run_id} {device}\n")
            run.record(device, event)
        return run

    push("20261101T000000Z-a", {"sw1": "confirmed", "sw2": "confirmed", "sw3": "confirmed"})
    second = push("20261102T000000Z-b", {"sw1": "confirmed", "sw2": "reverted",
                                         "sw3": "confirmed"})
    second.record("sw3", "rolled-back", changed=True)
    push("20261103T000000Z-c", {"sw1": "dry-run"}, command="push --dry-run")
    found = {device: path.read_text() for device, path in last_written(tmp_path).items()}
    assert found == {"sw1": "20261102T000000Z-b sw1\n", "sw2": "20261101T000000Z-a sw2\n",
                     "sw3": "20261101T000000Z-a sw3\n"}


def test_a_login_netcfg_wrote_is_not_kept_as_the_devices_own():
    eos = vendor("eos").deploy
    written = EOS_CANDIDATE  # the last push gave alice her login
    now = EOS_CANDIDATE.replace(
        "username alice privilege 15 role network-admin secret sha512 $6$new$Z\n", "")
    running = EOS_RUNNING.replace("$6$old$Y", "$6$new$Z")
    kept = keep(eos, running, now, eos.policy(), written)
    assert "username alice" not in kept.text and "username admin" in kept.text
    assert "username alice" in keep(eos, running, now, eos.policy()).text  # no record: kept



def test_a_journal_cut_mid_line_still_reads(tmp_path):
    """A run killed while writing its last journal line leaves half a line: the runs are still
    read (the push's history, `netcfg runs`), the cut line is no event."""
    from netcfg.deploy.runs import Run, last_written

    run = Run(tmp_path, "20261101T000000Z-a")
    run.save("candidate", "sw1", "text\n")
    run.record("sw1", "confirmed")
    with (run.dir / "journal.jsonl").open("a") as journal:
        journal.write('{"time": 1.0, "device": "sw1", "ev')
    assert [e.event for e in run.events()] == ["run", "confirmed"]
    assert set(last_written(tmp_path)) == {"sw1"}
