"""Each buffer/ECN/DCQCN rule: an intent that triggers it (rule, severity, file:line:col of
the value at fault) and a near miss that does not. Intents are the bundled example (or
multivendor) with one value changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from netcfg.physics.rules import RULES
from netcfg.validate import validate

INVENTORIES = Path(__file__).resolve().parent.parent / "inventories"
EXAMPLE = (INVENTORIES / "example" / "fabric.yaml").read_text()
MULTIVENDOR = (INVENTORIES / "multivendor" / "fabric.yaml").read_text()

ROCE_ECN = "ecn: {min: 150KB, max: 1500KB, max_probability: 10}"
THREE_LOSSLESS = """    roce:
      dscp: [26]
      traffic_class: 3
      lossless: true
      scheduling: {mode: ets, weight: 40}
    storage:
      dscp: [10]
      traffic_class: 4
      lossless: true
      scheduling: {mode: ets, weight: 10}
    bulk:
      dscp: [12]
      traffic_class: 2
      lossless: true
      scheduling: {mode: ets, weight: 10}
    cnp:
      dscp: [48]
      traffic_class: 6
      scheduling: {mode: strict}
    best-effort:
      dscp: [0]
      traffic_class: 0
      scheduling: {mode: ets, weight: 40}
"""
MV_QOS = """
qos:
  classes:
    roce:
      {dscp: [26], traffic_class: 3, lossless: true, scheduling: {mode: ets, weight: 50},
       ecn: {min: 10KB, max: 40MB}}
    cnp: {dscp: [48], traffic_class: 6, scheduling: {mode: strict}}
    best-effort: {dscp: [0], traffic_class: 0, scheduling: {mode: ets, weight: 50}}
"""


def _example_classes(text: str, classes: str) -> str:
    start = text.index("  classes:\n") + len("  classes:\n")
    end = text.index("  pfc:\n")
    return text[:start] + classes + text[end:]


def edit(base: str, old: str, new: str) -> str:
    assert base.count(old) == 1, old
    return base.replace(old, new)


# (id, base text, edit or None, near-miss edit, anchor in the edited text, severity check)
# The anchor is the text whose first character the finding must point at.
CASES = [
    ("BUF001", EXAMPLE, ("cable: 30m, medium: fiber", "cable: 10km, medium: fiber"),
     ("cable: 30m, medium: fiber", "cable: 1km, medium: fiber"), "nvidia-sn5600-cumulus"),
    ("BUF002", edit(EXAMPLE, "  pfc:\n", "  buffer: {min_shared_pool: 90}\n  pfc:\n"),
     ("cable: 30m, medium: fiber", "cable: 3km, medium: fiber"), None, "90"),
    ("BUF003", _example_classes(EXAMPLE, THREE_LOSSLESS), None, None, "roce:"),
    ("ECN001", EXAMPLE, (ROCE_ECN, "ecn: {min: 1500KB, max: 150KB}"),
     (ROCE_ECN, "ecn: {min: 150KB, max: 1500KB}"), "1500KB"),
    ("ECN001", EXAMPLE, (ROCE_ECN, "ecn: {min: 5KB, max: 1500KB}"),
     (ROCE_ECN, "ecn: {min: 10KB, max: 1500KB}"), "5KB"),
    ("ECN002", EXAMPLE, (ROCE_ECN, "ecn: {min: 150KB, max: 50MB}"),
     (ROCE_ECN, "ecn: {min: 150KB, max: 8MB}"), "50MB"),
    ("ECN003", EXAMPLE, (ROCE_ECN, "ecn: {min: 20MB, max: 30MB}"),
     (ROCE_ECN, "ecn: {min: 7MB, max: 8MB}"), "20MB"),
    ("ECN004", EXAMPLE, (ROCE_ECN, "ecn: {min: 150KB, max: 1500KB, max_probability: 50}"),
     (ROCE_ECN, "ecn: {min: 150KB, max: 1500KB, max_probability: 20}"), "50}"),
    ("ECN005", EXAMPLE, (ROCE_ECN, "ecn: {min: 20KB, max: 1500KB}"),
     (ROCE_ECN, "ecn: {min: 36KB, max: 1500KB}"), "20KB"),
    # a Kmax past the queue buffer is past 100 %: no fill level (ECN002 says it too)
    ("ECN006", MULTIVENDOR + MV_QOS, None,
     ("min: 10KB, max: 40MB", "min: 150KB, max: 1500KB"), "10KB"),
    ("DCQ001", EXAMPLE + "dcqcn: {enabled: false}\n", None,
     ("dcqcn: {enabled: false}", "dcqcn: {enabled: false, design_note: receiver-driven CTS}"),
     "false"),
    ("DCQ001", EXAMPLE, (ROCE_ECN, "ecn: {enabled: false}"), None, "false"),
    ("DCQ002", EXAMPLE + "dcqcn: {np: {cnp_dscp: 26}}\n", None,
     ("cnp_dscp: 26", "cnp_dscp: 48"), "26}"),
    ("DCQ002", EXAMPLE + "dcqcn: {np: {cnp_802p_prio: 3}}\n", None,
     ("cnp_802p_prio: 3", "cnp_802p_prio: 6"), "3}"),
    ("DCQ003", EXAMPLE + "dcqcn: {np: {min_time_between_cnps: 10}}\n", None,
     ("min_time_between_cnps: 10", "min_time_between_cnps: 4"), "10}"),
    ("DCQ004", EXAMPLE + "dcqcn: {rp: {rpg_min_rate: 0}}\n", None,
     ("rpg_min_rate: 0", "rpg_min_rate: 1"), "0}"),
    ("DCQ004", EXAMPLE + "dcqcn: {rp: {rpg_hai_rate: 400000}}\n", None,
     ("rpg_hai_rate: 400000", "rpg_hai_rate: 399999"), "400000"),
    ("DCQ004", EXAMPLE + "dcqcn: {rp: {rpg_ai_rate: 50}}\n", None,
     ("rpg_ai_rate: 50", "rpg_ai_rate: 49"), "50}"),
    ("DCQ004", EXAMPLE + "dcqcn: {rp: {rpg_max_rate: 100000}}\n", None,
     ("rpg_max_rate: 100000", "rpg_max_rate: 400000"), "100000"),
    ("DCQ005", EXAMPLE, ("      lossless: true\n", "      lossless: false\n"), None, "false"),
]


def _write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "fabric.yaml").write_text(text)
    return tmp_path


def _position(text: str, anchor: str, after: str | None) -> tuple[int, int]:
    """1-based line/column of `anchor`: first one in the edited text, else the last one in
    the file (cases that append their change)."""
    i = text.index(anchor, text.index(after)) if after else text.rindex(anchor)
    line = text.count("\n", 0, i) + 1
    column = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, column


@pytest.mark.parametrize("rule,base,change,near,anchor", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_fires_at_the_value(tmp_path, rule, base, change, near, anchor):
    text = edit(base, *change) if change else base
    (tmp_path / "hit").mkdir()
    v = validate(_write(tmp_path / "hit", text))
    hits = [f for f in v.findings if f.rule == rule]
    assert hits, [f.text() for f in v.findings]
    line, col = _position(text, anchor, change[1] if change else None)
    assert any((f.line, f.column) == (line, col) for f in hits), (
        f"want {line}:{col}", [f.text() for f in hits])
    assert all(f.severity == RULES[rule].severity for f in hits)
    assert all(f.file and f.file.endswith("fabric.yaml") for f in hits)
    assert v.ok is (RULES[rule].severity != "error")

    if near is not None:
        (tmp_path / "near").mkdir()
        miss = validate(_write(tmp_path / "near", edit(base, *near)))
        assert not [f for f in miss.findings if f.rule == rule], [f.text() for f in miss.findings]


def test_every_rule_has_a_case():
    assert {c[0] for c in CASES} == set(RULES)


@pytest.mark.parametrize("name", ["example", "multivendor", "gpu2048"])
def test_bundled_inventories_are_clean(name):
    v = validate(INVENTORIES / name)
    assert v.ok
    assert not [f.text() for f in v.findings if f.rule in RULES]


def test_repeated_problem_reported_once_with_count(tmp_path):
    text = edit(EXAMPLE, ROCE_ECN, "ecn: {min: 20MB, max: 30MB}")
    v = validate(_write(tmp_path, text))
    hits = [f for f in v.findings if f.rule == "ECN003"]
    assert len(hits) == 1
    assert "more)" in hits[0].message and hits[0].device
