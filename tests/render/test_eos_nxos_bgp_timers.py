"""BGP keepalive and hold time (routing.timers) in the EOS and NX-OS files.

Expected values: the intent's documented defaults (docs/intent.md: keepalive 3s, hold 9s) and a
hand-picked 10s/30s. Spellings are the vendors': EOS prints a peer group's timers as `neighbor
<group> timers <keepalive> <hold>` (the EOS 4.22.3M `show running-config all` capture in
../shared/factory/eos prints `neighbor SOME_GROUP timers 4 12`; Arista's AVD router-bgp.j2
writes `neighbor <group> timers <timers>`), NX-OS a peer template's as `timers <keepalive>
<hold>` (Cisco's cisco.nxos collection, bgp_templates parser: `timers <keepalive> <holdtime>`).
Both labs' grammars take the lines; neither NOS's deploy adapter names a timer change
disruptive (no vendor text says a timer change takes a session down).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from render_cases import render_multivendor

from netcfg.lab.cfgtree import parse_indented
from netcfg.lab.eos.grammar import eos_grammar
from netcfg.lab.nxos.grammar import nxos_grammar
from netcfg.vendors import vendor
from netcfg.vendors.common import bgp_router

ROOT = Path(__file__).resolve().parents[2]
SHOW_RUN_ALL = (ROOT.parent / "shared" / "factory" / "eos" / "captures"
                / "batfish__arista_bgp_show_run_all_2")
EOS, NXOS = "leaf-su1-r1", "spine-pod1-1"  # the multivendor inventory's EOS leaf, NX-OS spine


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, dict[str, str]]:
    tmp = tmp_path_factory.mktemp("timers")
    ten = render_multivendor(tmp, "", edit=lambda t: t.replace(
        "routing:\n", "routing:\n  timers: {keepalive: 10s, hold: 30s}\n", 1))
    return {"default": render_multivendor(tmp, ""), "10/30": ten}


def _eos_group_timers(text: str) -> dict[str, str]:
    return {m.group(1): m.group(2) for s in bgp_router(text)[1]
            if (m := re.fullmatch(r"neighbor ([A-Z]+) timers (\d+ \d+)", s.text))}


def _nxos_template_timers(text: str) -> dict[str, str]:
    out = {}
    for s in bgp_router(text)[1]:
        if s.text.startswith("template peer "):
            out[s.text.split()[2]] = " ".join(c.text for c in s.children
                                              if c.text.startswith("timers "))
    return out


def test_every_peer_group_and_template_states_the_timers(rendered):
    assert _eos_group_timers(rendered["default"][EOS]) == {"SPINE": "3 9"}
    assert _eos_group_timers(rendered["10/30"][EOS]) == {"SPINE": "10 30"}
    assert _nxos_template_timers(rendered["default"][NXOS]) == {"CORE": "timers 3 9",
                                                                "LEAF": "timers 3 9"}
    assert _nxos_template_timers(rendered["10/30"][NXOS]) == {"CORE": "timers 10 30",
                                                              "LEAF": "timers 10 30"}


def test_eos_spelling_is_what_eos_prints():
    """The rendered form is the one EOS's own `show running-config all` prints for a peer
    group, and EOS's default (what a file without the line leaves) is 60/180 there."""
    if not SHOW_RUN_ALL.is_file():
        pytest.skip("../shared/factory/eos is absent: the EOS capture is the spelling's source")
    text = SHOW_RUN_ALL.read_text()
    assert re.search(r"^   neighbor SOME_GROUP timers 4 12$", text, re.M)
    assert re.search(r"^   timers bgp 60 180$", text, re.M)


def test_the_labs_take_the_lines(rendered):
    parse_indented(rendered["10/30"][EOS], eos_grammar(), "config", strict=True)
    parse_indented(rendered["10/30"][NXOS], nxos_grammar(), "config", strict=True)


@pytest.mark.parametrize("nos,name", [("eos", EOS), ("nxos", NXOS)])
def test_a_timer_change_is_not_disruptive(rendered, nos, name):
    adapter = vendor(nos).deploy
    before = adapter.sections(rendered["default"][name])
    after = adapter.sections(rendered["10/30"][name])
    assert before != after
    assert adapter.disruptive(before, after) == []
