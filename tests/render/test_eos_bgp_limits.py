"""EOS `router bgp`: a prefix limit on every peer group and `update wait-install`.

Expected values are Arista's: AVD's eos_designs underlay default `maximum_routes: 256000`
(pyavd 6.4 renders `neighbor IPv4-UNDERLAY-PEERS maximum-routes 256000`) and its
`bgp_update_wait_install: true`, both printed as pyavd's `eos_cli_config_gen` prints them.
Where pyavd can be run (importable here, or a Python that has it named by NETCFG_PYAVD_PYTHON),
the lines are compared with what pyavd renders for the same peer groups.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from pyavd_cases import pyavd_python
from render_cases import INVENTORIES, PlanBuilder, _fabric

from netcfg.render import render_plan
from netcfg.vendors.common import bgp_router

#: AVD eos_designs bgp_peer_groups.ipv4_underlay_peers.maximum_routes default (AVD PR 6353)
AVD_UNDERLAY_MAXIMUM_ROUTES = 256000


@pytest.fixture(scope="module")
def leaf_text() -> str:
    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    return render_plan(PlanBuilder(fabric, physics).plan(fabric.devices["leaf-su1-r1"]))


def _bgp_lines(text: str) -> list[str]:
    return [s.text for s in bgp_router(text)[1]]


def test_every_peer_group_has_maximum_routes_and_wait_install(leaf_text):
    lines = _bgp_lines(leaf_text)
    groups = [line.split()[1] for line in lines if line.endswith(" peer group")
              and len(line.split()) == 4]
    assert groups == ["SPINE"]
    for g in groups:
        assert f"neighbor {g} maximum-routes {AVD_UNDERLAY_MAXIMUM_ROUTES}" in lines
    # pyavd prints `update wait-install` right after the router-id
    assert lines[:2] == [lines[0], "update wait-install"] and lines[0].startswith("router-id ")


_PYAVD = """
import json, sys
from pyavd import get_device_config
bgp = json.load(sys.stdin)
print(get_device_config({"hostname": "x", "router_bgp": bgp}))
"""


def test_same_lines_as_pyavd(leaf_text):
    """pyavd's eos_cli_config_gen, given the same AS, router-id, peer groups (BFD timers, the
    limit, the BGP timers) and update setting, prints the same lines in the same order."""
    python = pyavd_python()
    if python is None:
        pytest.skip("pyavd is not installed here (set NETCFG_PYAVD_PYTHON to a Python with "
                    "pyavd to compare with Arista's renderer)")
    asn, statements = bgp_router(leaf_text)
    ours = [s.text for s in statements]
    groups = []
    for line in ours:
        words = line.split()
        if line.endswith(" peer group") and len(words) == 4:
            groups.append({"name": words[1], "maximum_routes": AVD_UNDERLAY_MAXIMUM_ROUTES})
        elif len(words) == 9 and words[2:4] == ["bfd", "interval"]:
            group = next(g for g in groups if g["name"] == words[1])
            group["bfd"] = True
            group["bfd_timers"] = {"interval": int(words[4]), "min_rx": int(words[6]),
                                   "multiplier": int(words[8])}
        elif len(words) == 5 and words[2] == "timers":
            next(g for g in groups if g["name"] == words[1])["timers"] = " ".join(words[3:])
    bgp = {"as": str(asn), "router_id": ours[0].split()[1], "updates": {"wait_install": True},
           "peer_groups": groups}
    out = subprocess.run([python, "-c", _PYAVD], input=json.dumps(bgp), text=True,
                         capture_output=True, timeout=120, check=True).stdout
    theirs = [s.text for s in bgp_router(out)[1]]
    mine = [line for line in ours if line.split()[0] in ("router-id", "update")
            or (line.startswith("neighbor ") and line.split()[1] in {g["name"] for g in groups})]
    assert mine == theirs
