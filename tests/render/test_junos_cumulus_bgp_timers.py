"""BGP keepalive and hold time (routing.timers) on Junos and Cumulus, as each vendor states them.

Expected values come from outside netcfg:
- the intent's defaults, 3 s keepalive and 9 s hold (docs/intent.md), written here by hand;
- Junos: `hold-time <seconds>` in the BGP group, range 0..65535 (Juniper's configuration YANG,
  junos-conf-protocols 24.4R1-EVO, `group` `hold-time`), and no keepalive statement, because
  "The hold time is three times the interval at which keepalive messages are sent" (Juniper,
  `hold-time (Protocols BGP)`): a keepalive other than hold/3 is warned about (CAP032), with
  the interval Junos sends at, hold / 3, worked out by hand below;
- Cumulus, 5.14 and 5.15 alike: `nv set vrf <vrf-id> router bgp peer-group <peer-group-id>
  timers keepalive (1-65535|none|auto)` and `... timers hold (3-65535|none|auto)` (NVIDIA's NVUE
  command list and NVUE reference, BGP; the 5.15 change table, New-and-Changed-NVUE-Commands.md
  @07d58d4b, has no row for BGP timers), so the lab's NVUE schema takes exactly those values.
"""

from __future__ import annotations

import re

import pytest
import yaml
from render_cases import check_nvue, render_multivendor

from netcfg.lab.cumulus.schema import SchemaError, release, validate

#: the intent's default timers (docs/intent.md: keepalive 3s, hold 9s)
KEEPALIVE, HOLD = 3, 9


def _timers(keepalive: str, hold: str):  # noqa: ANN202 - an edit for render_multivendor
    return lambda text: text.replace(
        "routing:\n", f"routing:\n  timers: {{keepalive: {keepalive}, hold: {hold}}}\n", 1)


@pytest.fixture(scope="module")
def default(tmp_path_factory) -> dict[str, str]:
    return render_multivendor(tmp_path_factory.mktemp("timers"), "")


def _junos_groups(text: str) -> dict[str, list[str]]:
    """BGP group -> its own statements (one level down), from the rendered curly text."""
    out: dict[str, list[str]] = {}
    for name, body in re.findall(r"\n        group (\S+) \{\n(.*?)\n        \}\n", text, re.S):
        out[name] = [line.strip() for line in body.splitlines()
                     if line.startswith("            ") and not line.startswith("             ")]
    return out


def test_junos_states_the_hold_time_in_every_group(default):
    for core in ("core1", "core2"):
        groups = _junos_groups(default[core])
        assert groups, core
        for name, lines in groups.items():
            assert f"hold-time {HOLD};" in lines, (core, name)
            assert not any("keepalive" in line for line in lines), (core, name)
    assert "[CAP032]" not in default["findings"]  # 3 s is a third of 9 s: nothing to warn
    # the files with `hold-time` are checked against Juniper's YANG with every other Junos
    # file (tests/render/test_junos_yang.py, validate_junos.py), not loaded again here


def test_junos_warns_where_the_keepalive_is_not_a_third_of_the_hold(tmp_path):
    out = render_multivendor(tmp_path, "", _timers("2s", "9s"))
    assert all(lines.count("hold-time 9;") == 1 for lines in _junos_groups(out["core1"]).values())
    [finding] = [line for line in out["findings"].splitlines() if "[CAP032]" in line]
    # Juniper: hold = 3 x keepalive, so a 9 s hold time sends one every 9 / 3 = 3 s, not 2 s
    assert "every third of it (3 s), not every 2 s" in finding
    longer = render_multivendor(tmp_path, "", _timers("10s", "30s"))
    assert "hold-time 30;" in _junos_groups(longer["core2"])["SPINE"]
    assert "[CAP032]" not in longer["findings"]


@pytest.mark.parametrize("rel", ["5.14", "5.15"])
def test_cumulus_peer_groups_carry_nvidias_timers(tmp_path, rel):
    out = render_multivendor(tmp_path, f"releases: {{cumulus: '{rel}'}}\n")
    text = out["leaf-su2-r5"]
    body = yaml.safe_load(text)[0]["set"]
    bgp = body["vrf"]["default"]["router"]["bgp"]
    groups = bgp["peer-group"]
    assert groups
    for name, group in groups.items():
        assert group["timers"] == {"keepalive": KEEPALIVE, "hold": HOLD}, name
    # every neighbour sits in a group, so the timers are stated once per group only
    assert all("timers" not in n and n["peer-group"] in groups for n in bgp["neighbor"].values())
    check_nvue(text, rel)


@pytest.mark.parametrize("rel", ["5.14.0", "5.15.0"])
def test_the_lab_schema_takes_exactly_nvidias_timer_values(rel):
    """keepalive (1-65535|none|auto), hold (3-65535|none|auto): the NVUE command list's words."""
    def tree(**timers: object) -> dict:
        return {"vrf": {"default": {"router": {"bgp": {"peer-group": {"SPINE": {
            "timers": timers}}}}}}}

    version = release(rel)
    for ok in ({"keepalive": 1, "hold": 3}, {"keepalive": 65535, "hold": 65535},
               {"keepalive": "none", "hold": "none"}, {"keepalive": "auto", "hold": "auto"},
               {"keepalive": 10, "hold": 30}):
        validate(tree(**ok), version)
    for bad in ({"keepalive": 0}, {"hold": 2}, {"keepalive": 65536}, {"hold": "off"},
                {"keep-alive": 3}, {"holdtime": 9}):
        with pytest.raises(SchemaError):
            validate(tree(**bad), version)
