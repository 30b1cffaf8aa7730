"""A rail-optimized fabric's leaf count asked for directly (`topology.leaves`): the scalable
units follow from it, and a count no whole number of SUs gives is refused in one line that
says how leaves follow from NICs, SUs and planes. Expected counts are hand arithmetic: one
leaf per rail (NIC) and plane in every SU."""

from __future__ import annotations

from pathlib import Path

import pytest

from netcfg.findings import IntentError
from netcfg.intent.load import load_intent_text
from netcfg.topology import build_fabric

EXAMPLE = Path(__file__).resolve().parent.parent / "inventories" / "example" / "fabric.yaml"


def _text(topology: str) -> str:
    """The example inventory with its SU line replaced by `topology` (two-space keys), 8
    servers per SU so that the spines have the ports for a few SUs."""
    text = EXAMPLE.read_text(encoding="utf-8")
    assert text.count("  scalable_units: 1\n") == 1
    assert text.count("  nodes_per_su: 32\n") == 1
    return text.replace("  scalable_units: 1\n", topology).replace(
        "  nodes_per_su: 32\n", "  nodes_per_su: 8\n")


def _errors(text: str) -> list:
    with pytest.raises(IntentError) as exc:
        load_intent_text(text)
    return exc.value.findings


@pytest.mark.parametrize("topology, leaves, sus", [
    ("  leaves: 16\n", 16, 2),                            # 16 / (8 NICs x 1 plane)
    ("  leaves: 8\n", 8, 1),
    ("  leaves: 24\n  scalable_units: 3\n", 24, 3),       # both written, agreeing: 3 x 8
])
def test_leaves_give_the_scalable_units(topology, leaves, sus):
    loaded = load_intent_text(_text(topology))
    assert loaded.intent.topology.scalable_units == sus
    fabric = build_fabric(loaded)
    assert len(fabric.by_role("leaf")) == leaves
    assert {d.su for d in fabric.by_role("leaf")} == set(range(1, sus + 1))


def test_planes_count_in_the_leaves():
    """4 NICs of two ports (ConnectX-8) in 2 planes: 8 leaves per SU, so 16 leaves = 2 SUs."""
    text = _text("  leaves: 16\n  planes: 2\n").replace(
        "node: {gpus: 8, nics: 8, nic: connectx-7}", "node: {gpus: 8, nics: 4, nic: connectx-8}")
    loaded = load_intent_text(text)
    assert loaded.intent.topology.scalable_units == 2


def test_a_count_no_whole_su_gives_is_one_line_at_the_key():
    (f,) = _errors(_text("  leaves: 12\n"))
    assert (f.rule, f.line, f.column, f.path) == ("TOP004", 12, 11, "topology.leaves")
    assert "\n" not in f.message
    assert f.message == (
        "12 leaves are not a whole number of scalable units: each scalable unit has one leaf "
        "per rail (8 NICs per server: node.nics) and plane (1: planes), 8 per SU, so leaves = "
        "scalable_units x 8 (8 or 16)")


def test_fewer_leaves_than_one_su_names_the_smallest():
    (f,) = _errors(_text("  leaves: 3\n"))
    assert f.message.endswith("so leaves = scalable_units x 8 (8)")


def test_leaves_and_scalable_units_that_disagree():
    (f,) = _errors(_text("  leaves: 12\n  scalable_units: 2\n"))
    assert (f.rule, f.path) == ("TOP004", "topology.leaves")
    assert f.message.startswith("leaves: 12, but 2 scalable units give 2 x 8 x 1 = 16: ")


def test_neither_is_a_missing_key():
    findings = _errors(_text(""))
    assert any(f.rule == "SCH002" and "scalable_units" in f.message for f in findings)


def test_the_schema_asks_for_one_of_the_two():
    import jsonschema
    import yaml

    from netcfg.intent.schema import intent_schema

    schema = intent_schema()
    for topology, ok in (("  leaves: 16\n", True), ("", False)):
        data = yaml.safe_load(_text(topology))
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(data))
        assert (not errors) is ok, (topology, [e.message for e in errors])


def test_more_leaves_than_the_model_holds_name_the_bound():
    """4096 SUs at most: 8 leaves each is 32,768 leaves."""
    (f,) = _errors(_text("  leaves: 800000\n"))
    assert (f.rule, f.path) == ("TOP004", "topology.leaves")
    assert f.message.startswith("800000 leaves need 100000 scalable units")
    assert f.message.endswith("at most 4096 are modelled, 32768 leaves")
