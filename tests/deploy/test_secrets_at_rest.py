"""How a run learns the secrets a device runs from the placeholders of its files, and what it
masks: the texts are written by hand in each NOS's form (the forms the lab's devices show are
tests/deploy/test_secrets_push.py's, through the real CLI)."""

from __future__ import annotations

import logging

import pytest

from netcfg.deploy import secrets
from netcfg.deploy.secrets import (
    CONFIG_PLACEHOLDER,
    RedactingFilter,
    filled_from,
    learn,
    redact,
    remember_shapes,
)
from netcfg.render.plan import AAA_KEY, SESSION_KEY, SNMP_COMMUNITY


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    """What this process knows is global: each test starts and leaves it empty."""
    monkeypatch.setattr(secrets, "_KNOWN", set())
    monkeypatch.setattr(secrets, "_SHAPES", set())


def test_the_placeholders_are_the_ones_the_files_hold():
    for placeholder in (SESSION_KEY, SNMP_COMMUNITY, AAA_KEY):
        assert CONFIG_PLACEHOLDER.fullmatch(placeholder), placeholder


EOS_FILE = ("hostname leaf1\n"
            "snmp-server community NETCFG-SNMP-COMMUNITY ro\n"
            "tacacs-server host 192.0.2.7 vrf MGMT key 0 NETCFG-AAA-KEY\n"
            "router bgp 65001\n"
            "   neighbor 10.64.0.0 password 0 NETCFG-SESSION-KEY\n")
EOS_RUNNING = ("hostname leaf1\n"
               "snmp-server community Old-Community-9 ro\n"
               "tacacs-server host 192.0.2.7 vrf MGMT key 0 Old-Tacacs-3\n"
               "router bgp 65001\n"
               "   neighbor 10.64.0.0 password 0 Old-Session-1\n"
               "   neighbor 10.64.0.2 send-community extended\n")


def test_a_rotation_learns_the_old_values_and_masks_them():
    assert learn(EOS_FILE, EOS_RUNNING) == {SNMP_COMMUNITY: "Old-Community-9",
                                            AAA_KEY: "Old-Tacacs-3",
                                            SESSION_KEY: "Old-Session-1"}
    echoed = "% Invalid input: key 0 Old-Tacacs-3 (Old-Session-1, Old-Community-9)"
    assert redact(echoed) == "% Invalid input: key 0 ******** (********, ********)"


def test_the_candidate_kept_at_rest_comes_back_as_it_was_pushed():
    assert filled_from(EOS_FILE, EOS_RUNNING) == EOS_RUNNING.rsplit("   neighbor 10.64.0.2",
                                                                    1)[0]
    assert filled_from(EOS_FILE, "") == EOS_FILE  # nothing learned: placeholders stay


def test_a_placeholder_that_is_a_key_is_learned_only_under_its_parents():
    """SONiC's CONFIG_DB: the community is a key of the SNMP_COMMUNITY table; the same shape of
    line elsewhere (`"PORT": {`) is no community."""
    file = ('{\n  "PORT": {\n    "Ethernet0": {}\n  },\n  "SNMP_COMMUNITY": {\n'
            '    "NETCFG-SNMP-COMMUNITY": {\n      "TYPE": "RO"\n    }\n  }\n}\n')
    running = file.replace("NETCFG-SNMP-COMMUNITY", "Ro-Community-4b8e")
    assert learn(file, running) == {SNMP_COMMUNITY: "Ro-Community-4b8e"}
    assert redact('"PORT": "SNMP_COMMUNITY|Ro-Community-4b8e|TYPE"') == \
        '"PORT": "SNMP_COMMUNITY|********|TYPE"'


def test_what_follows_a_secrets_words_is_masked_in_debug_lines():
    """A library's debug line shows the running config before netcfg read it: the value after
    `community `, `password 0 `, `key 0 ` is masked though no one named it; the words alone
    (`send-community extended`) and a placeholder are left as they are."""
    remember_shapes(EOS_FILE)
    record = logging.LogRecord("netmiko", logging.DEBUG, __file__, 1, "read: %r", (
        b"snmp-server community Never-Told-1 ro\n   neighbor 10.64.0.0 password 0 Unknown-2\n"
        b"   neighbor 10.64.0.2 send-community extended\nkey 0 NETCFG-AAA-KEY",), None)
    assert RedactingFilter().filter(record)
    assert record.getMessage() == (
        "read: b'snmp-server community ******** ro\\n   neighbor 10.64.0.0 password 0 ********"
        "\\n   neighbor 10.64.0.2 send-community extended\\nkey 0 NETCFG-AAA-KEY'")
