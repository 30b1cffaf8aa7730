"""Intents shared by the lint tests: the bundled example with one value changed, and small
explicit fabrics for what the rail generator cannot express."""

from __future__ import annotations

from pathlib import Path

INVENTORIES = Path(__file__).resolve().parents[2] / "inventories"
EXAMPLE = (INVENTORIES / "example" / "fabric.yaml").read_text()

#: Two leaves, two spines, a host on each leaf (explicit topology).
EXPLICIT = """fabric: {name: small}
topology:
  kind: explicit
  devices:
    H0: {tier: 0}
    H1: {tier: 0}
    T0: {tier: 1}
    T1: {tier: 1}
    S0: {tier: 2}
    S1: {tier: 2}
  links:
  - {ends: [H0, T0], speed: 400G}
  - [H1, T1]
  - [T0, S0]
  - [T0, S1]
  - [T1, S0]
  - [T1, S1]
platforms: {leaf: nvidia-sn5600-cumulus, spine: nvidia-sn5600-cumulus}
"""

#: shared/cases C06: a lossless leaf-leaf link and paths of up to 3 hops -> deadlock.
LATERAL = """fabric: {name: c06}
topology:
  kind: explicit
  devices:
    T0: {tier: 1}
    T1: {tier: 1}
    T2: {tier: 1}
    T3: {tier: 1}
    S0: {tier: 2}
    S1: {tier: 2}
  links:
  - [T0, S0]
  - [T0, S1]
  - [T1, S0]
  - [T1, S1]
  - [T2, S0]
  - [T2, S1]
  - [T3, S0]
  - [T3, S1]
  - [T0, T1]
platforms: {leaf: nvidia-sn5600-cumulus, spine: nvidia-sn5600-cumulus}
routing:
  deadlock: {model: all_simple_paths, max_hops: 3, traffic: all_leaf_pairs}
"""

STORAGE_CLASSES = """    roce:
      dscp: [26]
      traffic_class: 3
      lossless: true
      scheduling: {mode: ets, weight: 40}
    storage:
      dscp: [10]
      traffic_class: 4
      lossless: true
      scheduling: {mode: ets, weight: 10}
      ecn: {enabled: false}
    cnp:
      dscp: [48]
      traffic_class: 6
      scheduling: {mode: strict}
    best-effort:
      dscp: [0]
      traffic_class: 0
      scheduling: {mode: ets, weight: 50}
"""


def edit(base: str, old: str, new: str) -> str:
    assert base.count(old) == 1, old
    return base.replace(old, new)


def with_classes(text: str, classes: str) -> str:
    start = text.index("  classes:\n") + len("  classes:\n")
    end = text.index("  pfc:\n")
    return text[:start] + classes + text[end:]


def write(directory: Path, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "fabric.yaml").write_text(text)
    return directory


def position(text: str, anchor: str, after: str | None) -> tuple[int, int]:
    """1-based line/column of `anchor`: the first one at or after `after` in the text, else
    the last one in the file (cases that append their change)."""
    i = text.index(anchor, text.index(after)) if after else text.rindex(anchor)
    line = text.count("\n", 0, i) + 1
    column = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, column
