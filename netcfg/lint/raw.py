"""raw_config rules: where a site's own lines change what netcfg derived from the intent.

A raw line that sets a setting the rendered file already states (another MTU on a port, `no`
of a line netcfg writes, a config_db field netcfg fills) wins over the intent on the switch,
and nothing else in netcfg (physics, the deadlock proof, the post-check's facts) knows of it.
That may be exactly what the site wants; lint says so, so that it is meant.
"""

from __future__ import annotations

from dataclasses import replace

from netcfg.findings import Finding, Rule
from netcfg.lint.consistency import Collect
from netcfg.render.engine import render_plan
from netcfg.render.plan import DevicePlan
from netcfg.topology.fabric import Fabric
from netcfg.vendors import vendor

RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("RAW001", "warning", "a raw_config line changes a setting netcfg renders",
         "the raw line wins on the switch (or both apply, where the NOS keeps several values), "
         "but physics, the deadlock proof and the post-check know only the intent's value",
         "docs/intent.md (raw_config)"),
)}


def check(fabric: Fabric, plans: dict[str, DevicePlan]) -> list[Finding]:
    """RAW001 for every raw entry on every switch where it overlaps the rendered file (each
    such switch rendered once more, without its raw entries)."""
    c = Collect(fabric, RULES)
    for name, plan in plans.items():
        if not plan.raw:
            continue
        nos = vendor(plan.nos)
        ours = render_plan(replace(plan, raw=[]))
        for piece in plan.raw:
            form = "lines" if piece.lines is not None else "merge"
            for phrase in nos.raw_overlaps(ours, piece):
                c.add("RAW001", ("raw_config", piece.index, form),
                      f"raw_config[{piece.index}] sets {phrase}", device=name)
    return c.findings()
