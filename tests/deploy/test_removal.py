"""A full replace removes nothing the intent does not manage unless told to.

On each NOS's lab device a section netcfg does not render (NTP, or on SONiC a table of the
dynamic buffer model) is configured by hand, through the real driver, as a team would have it.
`netcfg push` then refuses (exit 4, device untouched, the journal says why), `diff --summary`
names the section, and `push --allow-removal` removes it and journals the removal."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .deploy_cases import ROOT, devices_file, specs

MULTIVENDOR = ROOT / "inventories" / "multivendor"

#: NAPALM driver per NOS (the lab's emulators serve these)
DRIVER = {"eos": "eos", "nxos": "nxos", "junos": "junos", "sonic": "netcfg_sonic",
          "cumulus": "netcfg_cumulus"}
CASES = [
    ("eos", "leaf-su1-r1", "ntp server 192.0.2.50\n", "ntp server", "ntp server 192.0.2.50"),
    ("nxos", "spine-pod1-1", "ntp server 192.0.2.50 use-vrf management\n", "ntp server",
     "ntp server 192.0.2.50"),
    ("junos", "core1", "system { ntp { server 192.0.2.50; } }\n", "system ntp", "192.0.2.50"),
    # NVUE: a site's syslog host (`system syslog server <s> vrf mgmt`); NTP is in NVIDIA's
    # factory startup.yaml, which a push keeps (CumulusDeploy.device_local)
    ("cumulus", "leaf-su2-r5", "- set:\n    system:\n      syslog:\n        server:\n"
     "          192.0.2.50: {vrf: mgmt}\n", "system syslog", "192.0.2.50"),
    ("sonic", "leaf-su2-r1",
     json.dumps({"LOSSLESS_TRAFFIC_PATTERN": {"AZURE": {"mtu": "1024",
                                                        "small_packet_percentage": "100"}}}),
     "LOSSLESS_TRAFFIC_PATTERN", "LOSSLESS_TRAFFIC_PATTERN"),
]


def netcfg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def _configured_by_hand(make_lab, drivers, nos, name, snippet, probe):
    """A lab device of the multivendor inventory with `snippet` merged and committed through
    the NOS's real driver, as an operator would have added it."""
    lab = make_lab(*specs([name]))
    dev = lab[name]
    drv = drivers(DRIVER[nos], dev)
    drv.open()
    drv.load_merge_candidate(config=snippet)
    drv.commit_config()
    drv.close()
    assert probe in dev.running_config()
    return lab, dev


@pytest.mark.parametrize("nos,name,snippet,section,probe", CASES, ids=[c[0] for c in CASES])
def test_a_push_refuses_to_remove_an_unmanaged_section_unless_allowed(
        make_lab, drivers, tmp_path, nos, name, snippet, section, probe):
    lab, dev = _configured_by_hand(make_lab, drivers, nos, name, snippet, probe)
    state = tmp_path / "state"
    common = [str(MULTIVENDOR), "--connect", str(devices_file(lab, tmp_path)), "--state",
              str(state), "--device", name]

    summary = netcfg("diff", *common, "--summary")
    assert summary.returncode == 3, summary.stdout + summary.stderr
    line = next(row for row in summary.stdout.splitlines() if row.startswith(name + ":"))
    assert "removes" in line and section in line, line

    refused = netcfg("push", *common, "--format", "json")
    assert refused.returncode == 4, refused.stdout + refused.stderr
    device = json.loads(refused.stdout)["devices"][0]
    assert (device["status"], device["stage"]) == ("failed", "removal")
    assert section in device["error"] and "--allow-removal" in device["error"]
    assert any(section in key for key in device["sections"]["unmanaged_removals"])
    assert probe in dev.running_config()  # nothing was loaded

    allowed = netcfg("push", *common, "--allow-removal", section + "*", "--format", "json")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert json.loads(allowed.stdout)["devices"][0]["status"] == "confirmed"
    assert probe not in dev.running_config()
    events = [json.loads(row) for j in sorted(state.glob("runs/*/journal.jsonl"))
              for row in j.read_text().splitlines()]
    assert any(e.get("event") == "refused" and e.get("device") == name for e in events)
    assert any(e.get("event") == "committing" and any(section in k for k in e.get("removes", []))
               for e in events)


@pytest.mark.parametrize("nos,name,snippet,section,probe", CASES, ids=[c[0] for c in CASES])
def test_a_preserved_section_survives_the_push(make_lab, drivers, tmp_path, nos, name, snippet,
                                               section, probe):
    """`management.preserve` names the section (as each NOS calls it): the push keeps it."""
    inventory = tmp_path / "preserving"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (MULTIVENDOR / "fabric.yaml").read_text()
        + f"management:\n  preserve: ['{section}']\n")
    lab, dev = _configured_by_hand(make_lab, drivers, nos, name, snippet, probe)
    common = [str(inventory), "--connect", str(devices_file(lab, tmp_path)), "--state",
              str(tmp_path / "state"), "--device", name]
    pushed = netcfg("push", *common, "--format", "json")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    device = json.loads(pushed.stdout)["devices"][0]
    assert device["status"] == "confirmed", device
    assert not any(section in key for key in device["sections"]["removed"]), device["sections"]
    assert any(section in key for key in device["sections"]["preserved"]), device["sections"]
    assert probe in dev.running_config()


def test_sonic_device_owned_sections_stay_and_are_reported(make_lab, tmp_path):
    """SONiC's GCU refuses any change to BUFFER_POOL and the hardware's identity is set at
    install: a push keeps the switch's own, and says so wherever the rendered file differs
    (the two files compared here, field by field, are the rendered one and the lab's)."""
    name = "leaf-su2-r1"
    rendered = tmp_path / "rendered"
    assert netcfg("render", str(MULTIVENDOR), "--out", str(rendered), "--device",
                  name).returncode == 0
    ours = json.loads((rendered / f"{name}.json").read_text())
    lab = make_lab(*specs([name]))
    dev = lab[name]
    # the file's pools are the SKU's own; this switch's shared headroom pool was resized in
    # service (the one kind of BUFFER_POOL change GCU allows)
    dev.do(lambda emu: emu.running["BUFFER_POOL"]["ingress_lossless_pool"].update(
        xoff="20971520") or emu.save())
    before = json.loads(dev.running_config())
    differs = sorted(
        [key for key, mine, theirs in [
            ("BUFFER_POOL", ours.get("BUFFER_POOL"), before.get("BUFFER_POOL")),
            ("DEVICE_METADATA|localhost|hwsku", ours["DEVICE_METADATA"]["localhost"].get("hwsku"),
             before["DEVICE_METADATA"]["localhost"].get("hwsku"))]
         if mine is not None and mine != theirs])
    assert differs, "the lab's pools and SKU match the file: nothing here to report"
    common = [str(MULTIVENDOR), "--connect", str(devices_file(lab, tmp_path)), "--state",
              str(tmp_path / "state"), "--device", name]
    summary = netcfg("diff", *common, "--summary")
    line = next(row for row in summary.stdout.splitlines() if row.startswith(name + ":"))
    assert line.endswith("keeps the device's own " + ", ".join(differs)), line
    pushed = netcfg("push", *common, "--format", "json")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    device = json.loads(pushed.stdout)["devices"][0]
    assert device["status"] == "confirmed", device
    assert device["sections"]["kept_device"] == differs
    after = json.loads(dev.running_config())
    assert after["BUFFER_POOL"] == before["BUFFER_POOL"]
    assert after["DEVICE_METADATA"]["localhost"]["hwsku"] == \
        before["DEVICE_METADATA"]["localhost"]["hwsku"]
    events = [json.loads(row) for j in sorted((tmp_path / "state").glob("runs/*/journal.jsonl"))
              for row in j.read_text().splitlines()]
    assert [e["keeps_device"] for e in events if e.get("event") == "committing"] == [differs]


#: what a team had on an EOS leaf before netcfg, by hand: NTP, syslog, SNMP, a management
#: route and CloudVision's agent (AVD's forms, which the lab's EOS grammar takes)
HAND_MADE = """\
ntp server vrf MGMT 192.0.2.50
logging vrf MGMT host 192.0.2.55
snmp-server location DC1 hall 2
snmp-server vrf MGMT
ip route vrf MGMT 0.0.0.0/0 198.51.100.254
daemon TerminAttr
   exec /usr/bin/TerminAttr -cvaddr=192.0.2.60:9910 -cvvrf=MGMT -taillogs
   no shutdown
"""
#: each as the device's running config shows it
HAND_SHOWN = ["ntp server vrf MGMT 192.0.2.50", "logging vrf MGMT host 192.0.2.55",
              "snmp-server location DC1 hall 2", "ip route vrf MGMT 0.0.0.0/0 198.51.100.254",
              "daemon TerminAttr"]


def test_a_switchs_own_management_plane_is_refused_then_kept(make_lab, drivers, tmp_path):
    """The switch the management-plane issue started from: a push that would remove the
    team's NTP, syslog, SNMP, management route and TerminAttr is refused, naming each, and the
    device keeps them; preserved by name, every one survives the push."""
    name = "leaf-su1-r1"
    lab, dev = _configured_by_hand(make_lab, drivers, "eos", name, HAND_MADE,
                                   "daemon TerminAttr")
    common = [str(MULTIVENDOR), "--connect", str(devices_file(lab, tmp_path)), "--state",
              str(tmp_path / "state"), "--device", name]
    refused = netcfg("push", *common, "--format", "json")
    assert refused.returncode == 4, refused.stdout + refused.stderr
    unmanaged = json.loads(refused.stdout)["devices"][0]["sections"]["unmanaged_removals"]
    assert sorted(unmanaged) == sorted(["ntp server", "logging vrf", "snmp-server location",
                                        "snmp-server vrf", "ip route",
                                        "daemon TerminAttr"]), unmanaged
    assert all(line in dev.running_config() for line in HAND_SHOWN)

    inventory = tmp_path / "preserving"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (MULTIVENDOR / "fabric.yaml").read_text() + "management:\n  preserve: ['ntp server', "
        "'logging vrf', 'snmp-server *', 'ip route', 'daemon *']\n")
    common[0] = str(inventory)
    pushed = netcfg("push", *common, "--format", "json")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    assert json.loads(pushed.stdout)["devices"][0]["status"] == "confirmed"
    running = dev.running_config()
    assert all(line in running for line in HAND_SHOWN), running[:3000]
