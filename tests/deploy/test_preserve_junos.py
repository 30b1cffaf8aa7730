"""Junos device-local sections kept across a replace, whatever a login's text holds.

The running configs are built here piece by piece, so the test knows each block's exact text
(its own truth); Juniper's configuration YANG (../shared/junos-yang, libyang) then says the
merged candidates parse and carry each full-name unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netcfg.vendors import vendor
from netcfg.vendors.junos.syntax import statements

SHARED = Path(__file__).resolve().parents[3] / "shared" / "junos-yang"
#: what a user may type as a full name: quotes, backslashes, braces, comment openers, unicode
HOSTILE = st.text(alphabet=st.sampled_from(list('ab {};#"\\/*é中-')), min_size=1, max_size=24)

CANDIDATE = """\
system {
    host-name leaf1;
    services {
        ssh;
    }
}
interfaces {
    et-0/0/0 {
        mtu 9216;
    }
}
"""


def quoted(text: str) -> str:
    """Junos string quoting, by hand: backslash and double quote escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def blocks(full_name: str) -> tuple[str, str]:
    root = ("    root-authentication {\n"
            '        encrypted-password "$6$rounds=5000$x$y"; ## SECRET-DATA\n'
            "    }\n")
    login = ("    login {\n"
             "        /* the operator's own account { not ours } */\n"
             "        user ops {\n"
             "            uid 2001;\n"
             f"            full-name {quoted(full_name)};\n"
             "            class super-user;\n"
             "            authentication {\n"
             '                encrypted-password "$6$a$b"; ## SECRET-DATA\n'
             "            }\n"
             "        }\n"
             "    }\n")
    return root, login


def running(full_name: str) -> str:
    root, login = blocks(full_name)
    return ("## Last commit: 2026-01-01 by ops\nversion 24.4R1-EVO;\nsystem {\n"
            "    host-name old-name;\n" + root + login +
            "    services {\n        netconf {\n            ssh;\n        }\n    }\n}\n")


def merged(full_name: str) -> str:
    return vendor("junos").deploy.keep_device_local(running(full_name), CANDIDATE)


@settings(max_examples=200, deadline=None)
@given(full_name=HOSTILE)
def test_logins_and_root_authentication_are_kept_whole(full_name):
    out = merged(full_name)
    # the five statements of blocks() as Junos reads them: quotes dropped, escapes kept
    escaped = full_name.replace("\\", "\\\\").replace('"', '\\"')
    user = ("system", "login", "user", "ops")
    kept = {("system", "root-authentication", "encrypted-password", "$6$rounds=5000$x$y"),
            user + ("uid", "2001"), user + ("full-name", escaped), user + ("class", "super-user"),
            user + ("authentication", "encrypted-password", "$6$a$b")}
    assert kept <= set(statements(out))
    # the annotation before the user stays with it; a `#` comment may move to its own line
    assert "/* the operator's own account { not ours } */" in out
    assert out.count("root-authentication") == 1
    # the candidate's own statements are still there, and nothing of the old system's
    assert "host-name leaf1;" in out and "old-name" not in out
    assert out.endswith(CANDIDATE[CANDIDATE.index("interfaces {"):])


@settings(max_examples=100, deadline=None)
@given(full_name=HOSTILE)
def test_the_reader_sees_the_full_name_as_one_value(full_name):
    found = [s for s in statements(merged(full_name)) if "full-name" in s]
    assert found == [("system", "login", "user", "ops", "full-name",
                      full_name.replace("\\", "\\\\").replace('"', '\\"'))]


def test_a_candidate_with_its_own_login_adds_to_the_devices():
    """The intent's users (management.users) join the device's: a user of the same name is
    the candidate's, the device's others stay (or a push would lock their owners out)."""
    own = CANDIDATE.replace("    host-name leaf1;\n",
                            "    host-name leaf1;\n    login {\n        user netcfg {\n"
                            "            class super-user;\n        }\n    }\n")
    out = vendor("junos").deploy.keep_device_local(running("Ops"), own)
    assert out.count("user netcfg {") == 1 and out.count("user ops {") == 1
    assert out.count("    login {") == 1 and "root-authentication" in out
    same = own.replace("user netcfg", "user ops")
    out = vendor("junos").deploy.keep_device_local(running("Ops"), same)
    assert out.count("user ops {") == 1
    ops = out[out.index("user ops {"):]
    assert ops[:ops.index("\n        }\n")].count("class super-user;") == 1


@settings(max_examples=100, deadline=None)
@given(full_name=HOSTILE)
def test_the_devices_users_join_the_intents_as_written(full_name):
    """Merged into a candidate that has its own login, the device's user keeps every
    statement: its full name (quoted, escaped, with braces and comment marks) unchanged."""
    own = CANDIDATE.replace("    host-name leaf1;\n",
                            "    host-name leaf1;\n    login {\n        user netcfg {\n"
                            "            class read-only;\n        }\n    }\n")
    out = vendor("junos").deploy.keep_device_local(running(full_name), own)
    assert f"full-name {quoted(full_name)};" in out
    assert "uid 2001;" in out and out.count('encrypted-password "$6$a$b";') == 1
    assert out.count("    login {") == 1 and "user netcfg {" in out


def test_a_candidate_without_system_gets_one():
    out = vendor("junos").deploy.keep_device_local(running("Ops"), "interfaces {\n}\n")
    assert out.startswith("interfaces {\n}\nsystem {\n    root-authentication {\n")


NAMES = ['Ops "night" {shift}', "back\\slash } # not a comment", "/* not a comment */ é中",
         "semi; colon", "}}}", '\\"']


def test_juniper_yang_parses_the_merged_configs():
    """Juniper's validator (../shared/junos-yang, loaded once per process as the lab loads it)
    takes each merged config, and its JSON for libyang holds each hostile name whole."""
    validator = SHARED / "validate_junos.py"
    if not validator.is_file():
        pytest.skip("../shared/junos-yang is not present (CI provides it)")
    pytest.importorskip("libyang", reason="libyang binding (extra 'yang') not installed")
    from netcfg.lab.junos.yang import JunosYang

    yang = JunosYang.from_options({"junos_yang": str(SHARED)})
    assert yang is not None
    own = CANDIDATE.replace("    host-name leaf1;\n",
                            "    host-name leaf1;\n    login {\n        user netcfg {\n"
                            "            class read-only;\n        }\n    }\n")
    for name in NAMES:
        # merged into a candidate, and into one with a login of its own (management.users)
        for text in (merged(name),
                     vendor("junos").deploy.keep_device_local(running(name), own)):
            assert yang.errors(text) == [], (name, text)
            assert _full_names(yang.data(text)) == [name]


def _full_names(node) -> list[str]:
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("full-name"):
                found.append(value)
            else:
                found += _full_names(value)
    elif isinstance(node, list):
        for item in node:
            found += _full_names(item)
    return found
