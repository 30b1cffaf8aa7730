"""A port a switch runs with nothing configured is printed as its header alone: EOS prints
`interface Ethernet1` then `!` (NAPALM's EOS test data, a real `show running-config`, kept in
../shared/factory/eos/captures/), Cisco's factory NX-OS `interface Ethernet1/1` then a blank
line (../shared/factory/nxos/). A first push that configures such a port changes that port's
section; it removes nothing. Before, the empty headers fell into one family-wide `interface`
section, so every factory EOS leaf's diff said `removes interface` and listed its ports as
added. The expected sections are written here by hand from those two files."""

from __future__ import annotations

import pytest

from netcfg.deploy.sections import compare
from netcfg.vendors import vendor

from .deploy_cases import SHARED

needs_shared = pytest.mark.skipif(SHARED is None,
                                  reason="needs ../shared/factory (vendor data)")


@needs_shared
def test_an_empty_eos_port_is_changed_by_the_push_that_configures_it():
    assert SHARED is not None
    running = (SHARED / "factory" / "eos" / "captures"
               / "napalm__eos_mock_data__show_running_config.txt").read_text()
    candidate = running.replace("interface Ethernet1\n!",
                                "interface Ethernet1\n   description to spine1\n!")
    assert candidate != running
    eos = vendor("eos").deploy
    change = compare(eos.sections(running), eos.sections(candidate))
    assert (change.added, change.changed, change.removed) == ([], ["interface Ethernet1"], [])
    assert "interface Ethernet2" in eos.sections(running)


@needs_shared
def test_empty_nxos_factory_ports_are_sections_of_their_own():
    assert SHARED is not None
    text = (SHARED / "factory" / "nxos" / "running-config.factory-10.x.reconstructed.txt"
            ).read_text()
    sections = vendor("nxos").deploy.sections(text)
    assert {"interface Ethernet1/1", "interface Ethernet1/2"} <= set(sections)
    assert "interface" not in sections
    # a breakout line is one setting of the `interface` family, not a port of its own
    breakout = vendor("nxos").deploy.sections(
        "interface breakout module 1 port 1-24 map 400g-2x\n")
    assert list(breakout) == ["interface"]
