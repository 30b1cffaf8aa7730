"""The twin runs the BGP timers each NOS file states, not the plan's: one switch per NOS of the
multivendor fabric, its rendered file's timers changed by hand, read back by its NOS's rules and
rendered into the frr.conf the twin's router for it runs (no router started here).

Expected pairs are written by hand from each NOS's statement: EOS `neighbor SPINE timers K
H` and NX-OS `timers K H` in the peer template; Junos `hold-time H` with keepalives every third
of it (Juniper, `hold-time (Protocols BGP)`: "The hold time is three times the interval at which
keepalive messages are sent"); NVUE peer-group `timers` `keepalive`/`hold`; SONiC
BGP_NEIGHBOR `keepalive`/`holdtime`, 60/180 where an entry has none (bgpcfgd's
instance.conf.j2 defaults; FRR's traditional profile, docs/lab-sonic.md)."""

from __future__ import annotations

import json
import re

import pytest
from conftest import ROOT

from netcfg.render import render_plan
from netcfg.render.plan import PlanBuilder
from netcfg.twin.run import bgp_timers, frr_config
from netcfg.validate import validate
from netcfg.vendors import vendor

MULTIVENDOR = ROOT / "inventories" / "multivendor"
BY_NOS = {"eos": "leaf-su1-r1", "nxos": "spine-pod1-1", "junos": "core1",
          "cumulus": "leaf-su2-r5", "sonic": "leaf-su2-r1"}


@pytest.fixture(scope="module")
def plans():
    result = validate(MULTIVENDOR)
    fabric = result.fabric
    assert fabric is not None
    builder = PlanBuilder(fabric, result.physics)
    return {nos: builder.plan(fabric.devices[name]) for nos, name in BY_NOS.items()}


def _sonic(text: str, keepalive: str | None, hold: str | None) -> str:
    db = json.loads(text)
    for entry in db["BGP_NEIGHBOR"].values():
        for field, value in (("keepalive", keepalive), ("holdtime", hold)):
            entry.pop(field)
            if value is not None:
                entry[field] = value
    return json.dumps(db)


#: nos -> (the rendered file changed by hand, the pair the twin must run)
EDITS = {
    "eos": (lambda t: t.replace("neighbor SPINE timers 3 9", "neighbor SPINE timers 5 15"),
            (5, 15)),
    "nxos": (lambda t: t.replace("    timers 3 9\n", "    timers 4 12\n"), (4, 12)),
    "junos": (lambda t: t.replace("hold-time 9;", "hold-time 30;"), (10, 30)),
    "cumulus": (lambda t: re.sub(r"keepalive: 3\n(\s+)hold: 9\n", r"keepalive: 7\n\1hold: 21\n",
                                 t), (7, 21)),
    "sonic": (lambda t: _sonic(t, "6", "18"), (6, 18)),
}


@pytest.mark.parametrize("nos", sorted(EDITS))
def test_the_twin_runs_the_files_timers(plans, nos):
    plan = plans[nos]
    assert (plan.bgp.keepalive_s, plan.bgp.hold_s) == (3, 9)  # the multivendor intent's
    edit, pair = EDITS[nos]
    text = render_plan(plan)
    changed = edit(text)
    assert changed != text
    facts = vendor(nos).read_routing(changed)
    assert set(facts.timers) == set(facts.neighbors) and set(facts.timers.values()) == {pair}
    assert bgp_timers(plan, facts) == pair
    config = frr_config(plan, facts)
    assert f"\n timers bgp {pair[0]} {pair[1]}\n" in config
    # and FRR's own reader finds that pair on every session of the twin's router
    assert set(vendor("frr").read_routing(config).timers.values()) == {pair}
    # the file as rendered: the plan's pair, as the file states it
    assert bgp_timers(plan, vendor(nos).read_routing(text)) == (3, 9)


def test_a_sonic_entry_without_timers_runs_sonics_defaults(plans):
    plan = plans["sonic"]
    facts = vendor("sonic").read_routing(_sonic(render_plan(plan), None, None))
    assert set(facts.timers.values()) == {(60, 180)}
    assert "\n timers bgp 60 180\n" in frr_config(plan, facts)
