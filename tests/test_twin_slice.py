"""Which switches a twin of part of the fabric holds (`--pod`, `--rail`): names written out
from the inventories' own topology (example: one scalable unit of 8 rail leaves under 4
spines; multivendor: two pods of 8 rail leaves and 4 spines each, under 8 cores)."""

from __future__ import annotations

from pathlib import Path

import pytest

from netcfg.twin.run import SliceError, twinned_switches
from netcfg.validate import validate

ROOT = Path(__file__).resolve().parent.parent
SPINES = {f"spine{i}" for i in range(1, 5)}
CORES = {f"core{i}" for i in range(1, 9)}


def _names(devices) -> set[str]:
    return {d.name for d in devices}


def test_rails_keep_their_leaves_and_every_switch_above():
    fabric = validate(ROOT / "inventories" / "example").fabric
    assert _names(twinned_switches(fabric, rails={2, 5})) == {
        "leaf-su1-r2", "leaf-su1-r5"} | SPINES
    assert len(twinned_switches(fabric)) == 8 + 4


def test_a_rail_of_a_three_tier_fabric_keeps_the_cores_unless_a_pod_is_named():
    fabric = validate(ROOT / "inventories" / "multivendor").fabric
    pod_spines = {p: {f"spine-pod{p}-{i}" for i in range(1, 5)} for p in (1, 2)}
    assert _names(twinned_switches(fabric, rails={3})) == {
        "leaf-su1-r3", "leaf-su2-r3"} | pod_spines[1] | pod_spines[2] | CORES
    assert _names(twinned_switches(fabric, pod=2, rails={3})) == {"leaf-su2-r3"} | pod_spines[2]
    assert _names(twinned_switches(fabric, pod=1)) == {
        f"leaf-su1-r{r}" for r in range(1, 9)} | pod_spines[1]


@pytest.mark.parametrize(("pod", "rails", "message"), [
    (3, (), "no pod 3 (pods: 1-2)"),
    (None, (9,), "no rail 9 (rails: 1-8)"),
    (1, (2, 9, 10, 12), "no rail 9-10, 12 in pod 1 (rails: 1-8)"),
])
def test_a_slice_that_names_nothing_says_what_there_is(pod, rails, message):
    fabric = validate(ROOT / "inventories" / "multivendor").fabric
    with pytest.raises(SliceError) as exc:
        twinned_switches(fabric, pod=pod, rails=set(rails))
    assert str(exc.value) == message


def test_rails_of_a_fabric_without_rails_say_so(tmp_path):
    """An explicit topology's leaves belong to no rail."""
    import yaml

    intent = {"fabric": {"name": "x"},
              "topology": {"kind": "explicit", "devices": {"T0": {"tier": 1}, "S0": {"tier": 2}},
                           "links": [["T0", "S0"]],
                           "link_defaults": {"speed": "400G", "cable": "3m"}},
              "platforms": {"leaf": "nvidia-sn5600-cumulus", "spine": "nvidia-sn5600-cumulus"}}
    (tmp_path / "fabric.yaml").write_text(yaml.safe_dump(intent))
    result = validate(tmp_path / "fabric.yaml")
    assert result.ok, [f.text() for f in result.findings]
    with pytest.raises(SliceError) as exc:
        twinned_switches(result.fabric, rails={1})
    assert str(exc.value) == "no rail 1 (its leaves have no rails)"


def test_the_report_says_which_rails_it_twinned():
    from netcfg.twin.run import Report

    head = Report(switches=6, nics=64, rails=[1, 2, 3, 5]).text().splitlines()[0]
    assert head == ("twin: 6 FRR switches, 64 server NICs (the leaves of rails 1-3, 5 and every "
                    "switch above them; the other rails' leaves left out)")
    assert Report(rails=[4]).as_dict()["rails"] == [4] and Report().as_dict()["rails"] is None


def test_a_spine_runs_bfd_toward_the_leaves_of_any_rail():
    """BFD is stated per peer group, and the twin takes a group's BFD from its first
    neighbour: a spine in a twin of rail 2 (its first leaf, on rail 1, left out) states the
    same BFD toward the rail-2 leaf as in the whole fabric's twin, where it used to run none
    and every BFD session of the leaves' uplinks stayed down."""
    from netcfg.render.plan import PlanBuilder
    from netcfg.twin.run import among, frr_config, read_back

    result = validate(ROOT / "inventories" / "multivendor")
    fabric = result.fabric
    plan = PlanBuilder(fabric, result.physics).plan(fabric.devices["spine-pod1-1"])
    facts = read_back(plan)

    def bfd_lines(present: set[str]) -> list[str]:
        text = frr_config(plan, among(facts, plan, present))
        return [line for line in text.splitlines() if "bfd" in line or "interval" in line
                or "multiplier" in line or line.startswith(" profile")]

    whole = bfd_lines({d.name for d in twinned_switches(fabric)})
    rail2 = bfd_lines({d.name for d in twinned_switches(fabric, rails={2})})
    assert " neighbor LEAF bfd profile LEAF" in whole
    assert rail2 == whole
