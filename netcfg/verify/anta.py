"""`netcfg verify --export anta DIR`: the plan of every EOS switch as an ANTA test catalog.

ANTA (Arista Network Test Automation, `anta` on PyPI) runs catalogs of its own tests against
EOS over eAPI; pyavd generates one per device the same way. Each catalog here holds three of
ANTA's tests with their documented inputs (anta/tests/*.py, each test's `Input` model):

- `anta.tests.routing.bgp` `VerifyBGPPeerSession`: `bgp_peers` [{peer_address, vrf}] -- every
  planned session (the fabric's sessions live in the default VRF);
- `anta.tests.connectivity` `VerifyLLDPNeighbors`: `neighbors` [{port, neighbor_device,
  neighbor_port}] -- every planned link between switches (server links are left out, as
  VFY002 leaves them: a server's LLDP agent is the host's business), with `require_fqdn:
  false` (the plan names hosts; a system name with a domain still matches);
- `anta.tests.interfaces` `VerifyInterfacesStatus`: `interfaces` [{name, status}] -- every
  planned port `up`.

The catalog is the plan's, not the switch's: nothing is read from a device to write it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from netcfg.fsutil import write_output
from netcfg.render.plan import DevicePlan
from netcfg.vendors import vendor
from netcfg.verify.checks import SWITCH_ROLES

#: the first line of every catalog netcfg writes (an existing file without it is not ours)
HEAD = "# ANTA catalog of {}, from its netcfg plan\n"

def catalog(plan: DevicePlan) -> dict[str, Any]:
    """The ANTA catalog of one switch's plan, as ANTA's YAML catalog format holds it
    (module -> list of {test name: inputs}; `anta.tests.routing` nests its `bgp` module)."""
    peers = [{"peer_address": n.address, "vrf": "default"} for n in plan.bgp.neighbors]
    neighbors = []
    for i in plan.interfaces:
        if i.peer_role not in SWITCH_ROLES:
            continue
        device, _, port = i.peer.partition(":")
        neighbors.append({"port": i.name, "neighbor_device": device, "neighbor_port": port})
    ports = [{"name": i.name, "status": "up"} for i in plan.interfaces]
    out: dict[str, Any] = {}
    if peers:
        out["anta.tests.routing"] = {"bgp": [{"VerifyBGPPeerSession": {"bgp_peers": peers}}]}
    if neighbors:
        out["anta.tests.connectivity"] = [{"VerifyLLDPNeighbors": {
            "require_fqdn": False, "neighbors": neighbors}}]
    if ports:
        out["anta.tests.interfaces"] = [{"VerifyInterfacesStatus": {"interfaces": ports}}]
    return out


def export(plans: list[DevicePlan], directory: Path) -> list[Path]:
    """Write `<hostname>.yml` for every EOS switch among `plans` into `directory` (created);
    returns the files written, in the plans' order. Other NOSes are skipped: ANTA tests EOS."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for plan in plans:
        if not vendor(plan.nos).anta:
            continue
        path = directory / f"{plan.hostname}.yml"
        # atomically, and over nothing but a catalog netcfg wrote (OSError names the file)
        write_output(path, HEAD.format(plan.hostname)
                     + yaml.safe_dump(catalog(plan), sort_keys=False),
                     lambda head: head.startswith(HEAD.split("{")[0].encode()))
        written.append(path)
    return written
