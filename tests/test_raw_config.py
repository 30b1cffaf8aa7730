"""raw_config: a site's own lines in the rendered files, at the points the docs name, checked
for injection, shown by explain and linted where they change what netcfg renders.

Expected texts are written out here by hand (where a line goes, what a merge leaves); the
files being right for the switch is the lab's business (tests/deploy/test_raw_config_push.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from netcfg import api
from netcfg.vendors import vendor

ROOT = Path(__file__).resolve().parents[1]
MULTIVENDOR = (ROOT / "inventories" / "multivendor" / "fabric.yaml").read_text()
#: one white-box FRR leaf beside the multivendor inventory's EOS, SONiC and Cumulus leaves
WITH_FRR = MULTIVENDOR.replace(
    '    "leaf-su2-r[1-4]": {platform: arista-7060x6-sonic}\n',
    '    "leaf-su2-r[1-4]": {platform: arista-7060x6-sonic}\n'
    '    "leaf-su1-r8": {platform: nvidia-sn5600-frr}\n')


def fabric(raw: str, base: str = WITH_FRR) -> api.Fabric:
    return api.from_yaml(base + "\nraw_config:\n" + raw)


def ok(raw: str) -> api.Fabric:
    f = fabric(raw)
    errors = [x for x in f.findings if x.severity == "error"]
    assert not errors, errors
    return f


PLAIN = api.from_yaml(WITH_FRR)


def test_eos_lines_go_after_the_header_and_before_the_closing_end():
    f = ok("""
  - nos: eos
    at: start
    devices: [leaf-su1-r1]
    lines: |
      logging buffered 20000
  - nos: eos
    lines: |
      logging host 10.9.0.5
      logging host 10.9.0.6
""")
    plain = api.device_config(PLAIN, "leaf-su1-r1").splitlines()
    text = api.device_config(f, "leaf-su1-r1").splitlines()
    assert plain[-1] == "end"
    assert text == ([plain[0], "logging buffered 20000"] + plain[1:-1]
                    + ["logging host 10.9.0.5", "logging host 10.9.0.6", "end"])
    # the `at: start` entry named one device; the other leaves take only the second entry
    other = api.device_config(f, "leaf-su1-r2").splitlines()
    assert "logging buffered 20000" not in other and other[-2] == "logging host 10.9.0.6"


def test_nxos_and_frr_lines_follow_the_rendered_file():
    f = ok("""
  - nos: nxos
    roles: [spine]
    lines: |
      logging server 10.9.0.5 5 use-vrf management
  - nos: frr
    lines: |
      ip prefix-list SITE seq 5 permit 10.9.0.0/24
""")
    for device, last in (("spine-pod1-1", ["logging server 10.9.0.5 5 use-vrf management"]),
                         ("leaf-su1-r8", ["ip prefix-list SITE seq 5 permit 10.9.0.0/24"])):
        plain = api.device_config(PLAIN, device).rstrip("\n").splitlines()
        assert api.device_config(f, device).rstrip("\n").splitlines() == plain + last, device


def test_junos_statements_join_the_blocks_netcfg_already_states():
    f = ok("""
  - nos: junos
    lines: |
      system { syslog { host 10.9.0.5 { any warning; } } }
      snmp {
          location "hall 2";
      }
""")
    plain = api.device_config(PLAIN, "core1").splitlines()
    text = api.device_config(f, "core1").splitlines()
    # netcfg's `system` block, ending at the first closing brace at the margin after it
    start = plain.index("system {")
    close = plain.index("}", start)
    assert text == (plain[:close]
                    + ["    syslog {", "        host 10.9.0.5 {", "            any warning;",
                       "        }", "    }"]
                    + plain[close:]
                    + ["snmp {", '    location "hall 2";', "}"])
    assert text.count("system {") == 1


def test_frr_starts_with_its_defaults_line_even_with_lines_at_the_start():
    f = ok("""
  - nos: frr
    at: start
    lines: |
      log syslog informational
""")
    text = api.device_config(f, "leaf-su1-r8").splitlines()
    assert text[0].startswith("frr defaults") and text[1] == "log syslog informational"


def test_sonic_merge_adds_tables_and_fields_and_replaces_values():
    f = ok("""
  - nos: sonic
    merge:
      FLEX_COUNTER_TABLE:
        PFCWD: {FLEX_COUNTER_STATUS: enable}
      DEVICE_METADATA:
        localhost: {timezone: UTC, hostname: site-name}
""")
    plain = json.loads(api.device_config(PLAIN, "leaf-su2-r1"))
    db = json.loads(api.device_config(f, "leaf-su2-r1"))
    assert db["FLEX_COUNTER_TABLE"] == {"PFCWD": {"FLEX_COUNTER_STATUS": "enable"}}
    want = dict(plain["DEVICE_METADATA"]["localhost"], timezone="UTC", hostname="site-name")
    assert db["DEVICE_METADATA"]["localhost"] == want
    assert {k: v for k, v in db.items() if k not in ("FLEX_COUNTER_TABLE", "DEVICE_METADATA")} \
        == {k: v for k, v in plain.items() if k != "DEVICE_METADATA"}


def test_cumulus_merge_lands_in_the_one_set_document():
    f = ok("""
  - nos: cumulus
    merge:
      system:
        message: {pre-login: "authorised use only"}
""")
    plain = yaml.safe_load(api.device_config(PLAIN, "leaf-su2-r5"))
    doc = yaml.safe_load(api.device_config(f, "leaf-su2-r5"))
    assert len(doc) == 1 and list(doc[0]) == ["set"]
    want = plain[0]["set"]
    want["system"]["message"] = {"pre-login": "authorised use only"}
    assert doc[0]["set"] == want


def test_entries_select_by_nos_role_and_device_and_apply_in_order():
    f = ok("""
  - nos: eos
    devices: ["leaf-su1-r[12]"]
    lines: |
      logging host 10.9.0.1
  - nos: eos
    roles: [spine]
    lines: |
      logging host 10.9.0.2
  - nos: eos
    roles: [leaf]
    devices: [leaf-su1-r2]
    lines: |
      logging host 10.9.0.3
""")
    tails = {d: api.device_config(f, d).splitlines()[-3:-1]
             for d in ("leaf-su1-r1", "leaf-su1-r2", "leaf-su1-r3")}
    assert tails["leaf-su1-r1"][-1] == "logging host 10.9.0.1"
    assert tails["leaf-su1-r2"] == ["logging host 10.9.0.1", "logging host 10.9.0.3"]
    assert "logging host" not in api.device_config(f, "leaf-su1-r3")
    # the spine entry names EOS, and the spines run NX-OS: it selects nothing
    idle = [x for x in f.findings if x.rule == "REF005"]
    assert [x.path for x in idle] == ["raw_config[1]"] and idle[0].severity == "warning"


@pytest.mark.parametrize("lines, why", [
    ("logging host 10.9.0.5\nend\nreload now\n", "line 2 'end' is not configuration"),
    ("interface Ethernet1/1\n   shutdown\nexit\nexit\nwrite memory\n", "line 3 'exit'"),
    ("copy running-config startup-config\n", "'copy' would leave configuration mode"),
    ("do reload\n", "line 1 'do reload'"),
])
def test_eos_lines_that_leave_configuration_mode_are_refused(lines, why):
    assert why in (vendor("eos").raw_refusal(lines, None) or "")
    assert why in (vendor("nxos").raw_refusal(lines, None) or "")


def test_frr_may_close_its_blocks_with_exit_but_not_end():
    frr = vendor("frr")
    assert frr.raw_refusal("route-map SITE permit 10\n match ip address SITE\nexit\n",
                           None) is None
    assert "'end'" in (frr.raw_refusal("end\nwrite\n", None) or "")


@pytest.mark.parametrize("lines, why", [
    ("system { syslog { file messages { any notice; } } }\n}\n", "closes a block"),
    ("system { syslog {\n", "2 block(s) are not closed"),
    ("system { host-name \"x; }\n", "unclosed string"),
    ("system { /* note\n host-name x; }\n", "comment is not closed"),
    ("set system host-name x\n", "curly-brace form"),
    ("system { host-name x }\n", "has no ';'"),
    ("system { host-name x; }\nsnmp\n", "'snmp' has no ';'"),
])
def test_junos_lines_must_be_closed_curly_brace_statements(lines, why):
    assert why in (vendor("junos").raw_refusal(lines, None) or ""), lines


def test_junos_accepts_comments_strings_and_nested_blocks():
    lines = ('/* site */\nsystem {\n    login {\n        message "a { b } c; d";\n    }\n'
             '    # note\n}\n')
    assert vendor("junos").raw_refusal(lines, None) is None


def test_forms_and_sonic_tables():
    assert "takes a 'merge' mapping" in (vendor("sonic").raw_refusal("x\n", None) or "")
    assert "takes 'lines'" in (vendor("junos").raw_refusal(None, {"system": {}}) or "")
    assert "a CONFIG_DB table maps keys" in (
        vendor("sonic").raw_refusal(None, {"SYSLOG_SERVER": "10.0.0.1"}) or "")
    assert vendor("cumulus").raw_refusal(None, {"system": {"hostname": "x"}}) is None


def test_merge_values_are_one_printable_line():
    f = fabric("""
  - nos: sonic
    merge:
      DEVICE_METADATA:
        localhost: {hostname: "a\\nb"}
""")
    assert [x.rule for x in f.findings if x.severity == "error"] == ["SCH005"]


def test_lint_names_each_raw_line_that_changes_a_rendered_one():
    f = ok("""
  - nos: eos
    devices: [leaf-su1-r1]
    lines: |
      service routing protocols model multi-agent
      interface Ethernet1/1
         mtu 1500
  - nos: junos
    devices: [core1]
    lines: |
      system { host-name other; }
  - nos: sonic
    devices: [leaf-su2-r1]
    merge:
      DEVICE_METADATA:
        localhost: {hostname: other, timezone: UTC}
""")
    raw = sorted((x.path, x.device, x.message) for x in api.lint(f, deadlock=False).results
                 if x.finding.rule == "RAW001" for x in [x.finding])
    assert raw == [
        ("raw_config[0].lines", "leaf-su1-r1", "raw_config[0] sets 'mtu 1500 (under interface "
         "Ethernet1/1)' where netcfg renders 'mtu 9202 (under interface Ethernet1/1)'"),
        ("raw_config[1].lines", "core1", "raw_config[1] sets 'system host-name other' where "
         "netcfg renders 'system host-name core1'"),
        ("raw_config[2].merge", "leaf-su2-r1", "raw_config[2] sets DEVICE_METADATA.localhost."
         "hostname: 'other' where netcfg renders 'leaf-su2-r1'"),
    ]


def test_explain_lists_the_entries_a_switch_takes():
    f = ok("""
  - nos: eos
    devices: [leaf-su1-r1]
    description: site syslog
    lines: |
      logging host 10.9.0.5
      logging host 10.9.0.6
""")
    sections = {s["title"]: s["rows"] for s in api.explain(f, "leaf-su1-r1")}
    rows = sections["raw config"]
    assert [(r["key"], r["value"]) for r in rows] == [
        ("raw_config[0]", "2 lines at the end: site syslog")]
    assert rows[0]["source"].endswith("(raw_config[0])")
    assert "raw config" not in {s["title"] for s in api.explain(f, "leaf-su1-r2")}
