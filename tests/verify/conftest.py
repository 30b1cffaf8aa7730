"""One lab for the verify tests: an EOS leaf of the multivendor inventory, the four NX-OS
spines of its pod, a Junos core, and a SONiC and a Cumulus leaf of pod 2 with the four NX-OS
spines of that pod, with the lab's operational state
(netcfg/lab/oper.py), after a real push of the rendered configs through the deploy engine."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import napalm
import pytest
from deploy.deploy_cases import MULTIVENDOR, Fleet, devices_file, fleet, multivendor, specs

from netcfg.deploy.engine import Options, push_fleet
from netcfg.deploy.runs import Run
from netcfg.lab import Lab
from netcfg.lab.oper import Wiring

LEAF = "leaf-su1-r1"
SPINES = [f"spine-pod1-{i}" for i in range(1, 5)]
CORE = "core1"
SONIC_LEAF = "leaf-su2-r1"
CUMULUS_LEAF = "leaf-su2-r5"
POD2_SPINES = [f"spine-pod2-{i}" for i in range(1, 5)]


@dataclass
class VerifyLab:
    lab: Lab
    wiring: Wiring
    links: dict[Any, Any]
    fleet: Fleet
    connect: Path
    state: Path
    inventory: Path = MULTIVENDOR


@pytest.fixture(scope="session")
def verify_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VerifyLab]:
    v = multivendor()
    wiring = Wiring.from_fabric(v.fabric)
    links = dict(wiring.links)
    names = [LEAF, *SPINES, CORE, SONIC_LEAF, CUMULUS_LEAF, *POD2_SPINES]
    chosen = specs(names)
    for s in chosen:
        s.options["oper"] = wiring
        # Juniper's YANG takes 5-20 s to load and checks the rendered config, which the
        # deploy tests do; the factory state stays
        s.options.pop("junos_yang", None)
    tmp = tmp_path_factory.mktemp("verify")
    lab = Lab(chosen).start()
    try:
        wiring.bind(lab)
        f = fleet(lab, names, tmp)
        state = tmp / "state"
        results, aborted = push_fleet(f.targets, f.desired, Run(state),
                                      # the setup, not what is tested: whatever the
                                      # factory state holds that the intent does not
                                      # manage may go
                                      Options(workers=6, allow_disruptive=True,
                                              allow_removal=("*",)),
                                      threading.Event())
        assert not aborted and {r.status for r in results} == {"confirmed"}, results
        yield VerifyLab(lab, wiring, links, f, devices_file(lab, tmp), state)
    finally:
        lab.stop()


@pytest.fixture(scope="session")
def eos_outputs(verify_lab: VerifyLab) -> dict[str, Any]:
    """The lab leaf's eAPI JSON for the commands NAPALM's EOS getters run."""
    commands = ["show ip bgp summary vrf all", "show ip bgp neighbors vrf all",
                "show lldp neighbors detail", "show interfaces"]
    driver = napalm.get_network_driver("eos")(**verify_lab.lab[LEAF].napalm())
    driver.open()
    try:
        got = driver._run_commands(commands, encoding="json")
    finally:
        driver.close()
    return dict(zip(commands, got, strict=True))
