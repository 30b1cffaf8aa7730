"""Junos emulator through the real NAPALM `junos` driver (PyEZ + ncclient) over NETCONF/SSH."""

from __future__ import annotations

from pathlib import Path

import pytest
from jnpr.junos.exception import CommitError, ConnectAuthError, ConnectClosedError
from napalm.base import models
from napalm.base.exceptions import LockError, MergeConfigException, ReplaceConfigException
from napalm.base.test.helpers import test_model as check_model

from netcfg.lab import DeviceSpec
from netcfg.lab.junos.yang import JunosYang

LOGINS = """\
    root-authentication { encrypted-password "$6$x$y"; }
    login { user admin { class super-user; authentication { encrypted-password "$6$x$y"; } } }
"""
CORE = """\
system {
    host-name core1;
""" + LOGINS + """\
}
interfaces {
    et-0/0/0 {
        description "to spine1";
        mtu 9216;
        unit 0 { family inet { address 10.0.1.1/31; } }
    }
}
class-of-service {
    classifiers { dscp ROCE { forwarding-class ROCE { loss-priority low code-points 011010; } } }
    forwarding-classes { class ROCE queue-num 3 no-loss pfc-priority 3; }
    congestion-notification-profile {
        ROCE-PFC { input { dscp { code-point 011010 { pfc; } } } pfc-watchdog; }
    }
    drop-profiles { ROCE-ECN { interpolate { fill-level [ 20 60 ]; drop-probability [ 0 100 ]; } } }
    schedulers { ROCE-S { transmit-rate percent 50; explicit-congestion-notification; } }
}
protocols {
    bgp { group SPINES { type external; multipath; neighbor 10.0.1.0 { peer-as 65100; } } }
    lldp { interface all; }
}
"""


@pytest.fixture
def core(make_lab):
    lab = make_lab(DeviceSpec("core1", "junos"))
    lab.advance(30)  # NAPALM reports uptime 0 as "unknown" (-1)
    return lab, lab["core1"]


@pytest.mark.parametrize("base11", [True, False], ids=["netconf1.1", "netconf1.0"])
def test_facts_replace_diff_commit(make_lab, drivers, base11):
    lab = make_lab(DeviceSpec("core1", "junos", options={"netconf_1_1": base11}))
    lab.advance(30)  # NAPALM reports uptime 0 as "unknown" (-1)
    dev = lab["core1"]
    drv = drivers("junos", dev)
    drv.open()
    facts = drv.get_facts()
    check_model(models.FactsDict, facts)
    assert facts["hostname"] == "core1" and facts["uptime"] == 30.0
    drv.load_replace_candidate(config=CORE)
    diff = drv.compare_config()
    assert diff.startswith("[edit]") and "+           mtu 9216;" in diff
    drv.commit_config()
    assert "no-loss;" in dev.running_config()
    drv.load_replace_candidate(config=CORE)
    assert drv.compare_config() == ""
    drv.discard_config()
    assert "host-name core1" in drv.get_config()["running"]


def test_merge_set_and_xml_then_discard(core, drivers):
    lab, dev = core
    drv = drivers("junos", dev)
    drv.open()
    drv.load_merge_candidate(config="set interfaces et-0/0/1 description \"set form\"")
    assert '+           description "set form";' in drv.compare_config()
    drv.discard_config()
    xml = ("<configuration><interfaces><interface><name>et-0/0/2</name>"
           "<mtu>9216</mtu></interface></interfaces></configuration>")
    drv.load_merge_candidate(config=xml)
    assert "+       et-0/0/2 {" in drv.compare_config()
    drv.discard_config()
    assert drv.compare_config() == "" and dev.candidate_config() is None


def test_commit_confirmed_reverts_with_the_lab_clock(core, drivers):
    lab, dev = core
    drv = drivers("junos", dev)
    drv.open()
    drv.load_merge_candidate(config="system { domain-name lab.example; }")
    drv.commit_config(revert_in=120)
    assert drv.has_pending_commit()
    assert "domain-name" in dev.running_config()
    lab.advance(121)
    assert not drv.has_pending_commit()
    assert "domain-name" not in dev.running_config()


def test_commit_confirmed_then_confirm_and_rollback(core, drivers):
    lab, dev = core
    drv = drivers("junos", dev)
    drv.open()
    drv.load_merge_candidate(config="system { domain-name one.example; }")
    drv.commit_config(revert_in=60)
    drv.confirm_commit()
    assert not drv.has_pending_commit()
    lab.advance(600)
    assert "one.example" in dev.running_config()
    drv.load_merge_candidate(config="system { domain-name two.example; }")
    drv.commit_config()
    drv.rollback()
    assert "one.example" in dev.running_config()


@pytest.mark.parametrize("config, bad", [
    ("interfaces { et-0/0/0 { mtuu 9216; } }", "mtuu"),
    ("protocols { bgp { neighbor 10.0.0.1 { peer-as 1; } } }", "neighbor"),  # needs a group
])
def test_typo_rejected_with_bad_element(core, drivers, config, bad):
    lab, dev = core
    drv = drivers("junos", dev)
    drv.open()
    with pytest.raises(ReplaceConfigException, match=f"bad_element': '{bad}'"):
        drv.load_replace_candidate(config=config)
    with pytest.raises(MergeConfigException):
        drv.load_merge_candidate(config=f"set {bad} 1")
    assert dev.candidate_config() is None


def test_faults_surface_as_pyez_errors(core, drivers):
    lab, dev = core
    dev.inject("auth_failure")
    with pytest.raises(ConnectAuthError):
        drivers("junos", dev).open()
    dev.clear_faults()

    drv = drivers("junos", dev)
    drv.open()
    dev.inject("lock_held")
    with pytest.raises(LockError, match="locked by"):
        drv.load_merge_candidate(config="system { domain-name x.example; }")
    dev.clear_faults()

    drv.load_merge_candidate(config="system { domain-name x.example; }")
    dev.inject("commit_error", message="error: Missing mandatory statement: 'peer-as'")
    with pytest.raises(CommitError, match="Missing mandatory"):
        drv.commit_config()
    assert "x.example" not in dev.running_config()
    drv.discard_config()


def test_stale_candidate_blocks_lock_until_rolled_back(core, drivers):
    lab, dev = core
    dev.inject("stale_session")
    drv = drivers("junos", dev)
    drv.open()
    with pytest.raises(LockError, match="configuration database modified"):
        drv.load_merge_candidate(config="system { domain-name y.example; }")
    drv.device.cu.rollback(0)  # the clean-up: discard the dead session's changes
    drv.load_merge_candidate(config="system { domain-name y.example; }")
    drv.commit_config()
    assert "y.example" in dev.running_config()


def test_drop_after_apply_and_reboot(core, drivers):
    lab, dev = core
    drv = drivers("junos", dev, timeout=5)
    drv.open()
    drv.load_merge_candidate(config="system { domain-name applied.example; }")
    dev.inject("drop_after_apply")
    with pytest.raises(ConnectClosedError):
        drv.commit_config()
    assert "applied.example" in dev.running_config()
    dev.reboot(downtime=60)
    lab.advance(61)
    again = drivers("junos", dev)
    again.open()
    assert "applied.example" in again.get_config(retrieve="running")["running"]


def test_commit_needs_root_authentication_and_dropping_a_login_locks_it_out(core, drivers):
    from jnpr.junos.exception import CommitError, ConnectAuthError

    lab, dev = core
    drv = drivers("junos", dev)
    drv.open()
    drv.load_replace_candidate(config="system { host-name core1; }")
    with pytest.raises(CommitError, match="Missing mandatory statement: 'root-authentication'"):
        drv.commit_config()
    drv.discard_config()
    drv.load_replace_candidate(config="system { host-name core1; root-authentication "
                                      '{ encrypted-password "$6$x$y"; } }')
    drv.commit_config()  # accepted: but the admin login is gone
    drv.close()
    with pytest.raises(ConnectAuthError):
        drivers("junos", dev).open()


JUNOS_YANG = Path(__file__).resolve().parents[3] / "shared" / "junos-yang"


@pytest.mark.parametrize("statement,refusal,kept", [
    # Juniper's YANG: fill-level is decimal64 in 0..100, pfc-priority a uint32 in 0..7
    ("drop-profiles { ROCE-ECN { interpolate { fill-level [ 20 160 ]; } } }",
     "out of the allowed range", "160"),
    ("forwarding-classes { class ROCE queue-num 3 no-loss pfc-priority 9; }",
     "no matching subtype", "pfc-priority 9"),
])
def test_commit_checked_against_junipers_yang(make_lab, drivers, statement, refusal, kept):
    """A value Juniper's schema refuses fails the commit (and `commit check`) on a device given
    the YANG; the emulator's own hierarchy table lets the same value through, so the refusal is
    the schema's, not netcfg's belief."""
    if not (JUNOS_YANG / "validate_junos.py").is_file():
        pytest.skip("../shared/junos-yang is not present (CI provides it)")
    pytest.importorskip("libyang", reason="libyang binding (extra 'yang') not installed")
    bad = CORE + "class-of-service {\n    " + statement + "\n}\n"
    # loaded here, once per process, rather than inside Lab.start()'s call timeout, where a
    # busy machine took longer than it allows (../shared/junos-yang README)
    JunosYang.from_options({"junos_yang": str(JUNOS_YANG)})
    lab = make_lab(DeviceSpec("core1", "junos", options={"junos_yang": str(JUNOS_YANG)}),
                   DeviceSpec("core2", "junos"))
    checked, unchecked = drivers("junos", lab["core1"]), drivers("junos", lab["core2"])
    for drv in (checked, unchecked):
        drv.open()
        drv.load_replace_candidate(config=CORE)
        drv.commit_config()
    checked.load_merge_candidate(config=bad)
    with pytest.raises(CommitError, match=refusal):
        checked.device.cu.commit_check()
    with pytest.raises(CommitError, match=refusal):
        checked.commit_config()
    checked.discard_config()
    assert "pfc-priority 3" in lab["core1"].running_config()
    unchecked.load_merge_candidate(config=bad)
    unchecked.commit_config()
    assert kept in lab["core2"].running_config()


def test_a_value_of_several_words_is_shown_as_written():
    """Junos shows `transmit-rate percent 5;` (Juniper's own RoCE configlet, Apstra 6.1, prints
    `s2-cnp { transmit-rate percent 5; priority strict-high; }`), and a quoted string with
    blanks quoted; the lab showed the former as one quoted string."""
    from netcfg.lab.junos.config import parse_text, to_text

    text = to_text(parse_text(
        'class-of-service { schedulers { s2-cnp { transmit-rate percent 5; '
        'priority strict-high; shaping-rate percent 5; } } }\n'
        'interfaces { et-0/0/0 { description "to spine 1"; } }\n'))
    assert "            transmit-rate percent 5;\n" in text
    assert "            shaping-rate percent 5;\n" in text
    assert '        description "to spine 1";\n' in text
    assert to_text(parse_text(text)) == text
