"""The line-config editor's index (netcfg/lab/cfgtree.py, ModalEditor(indexed=True)) changes
how fast a long config is read, never what is read: a rendered EOS and NX-OS config of each
role of the deploy fleet, and the same with lines repeated, negated (`no ...`) and reset
(`default ...`) at random places, gives the same tree as the plain editor, which reads every
sibling for each line (the editor the lab has always had)."""

from __future__ import annotations

import random
from pathlib import Path

from netcfg.lab.cfgtree import ConfigError, Node, parse_indented
from netcfg.lab.eos.emulator import GRAMMAR as EOS
from netcfg.lab.grammar import Grammar
from netcfg.lab.nxos.config import GRAMMAR as NXOS
from netcfg.render.engine import render_plan
from netcfg.render.plan import PlanBuilder
from netcfg.topology.fabric import Device
from netcfg.validate import validate

FLEET = Path(__file__).resolve().parents[1] / "deploy" / "fleet"


def _plain(text: str, grammar: Grammar, strict: bool) -> Node:
    """parse_indented with the editor unindexed (the reference)."""
    import netcfg.lab.cfgtree as cfgtree

    original = cfgtree.ModalEditor

    class Plain(original):  # type: ignore[misc, valid-type]
        def __init__(self, grammar: Grammar, root: Node, strict: bool = True,
                     indexed: bool = False) -> None:
            super().__init__(grammar, root, strict, indexed=False)

    cfgtree.ModalEditor = Plain  # type: ignore[misc]
    try:
        return parse_indented(text, grammar, "config", strict)
    finally:
        cfgtree.ModalEditor = original  # type: ignore[misc]


def _tree(node: Node, depth: int = 0) -> list[tuple[int, str, str | None, str | None]]:
    out = []
    for c in node.children:
        out.append((depth, c.line, c.mode, c.text))
        out += _tree(c, depth + 1)
    return out


def _read(text: str, grammar: Grammar, strict: bool, indexed: bool) -> object:
    try:
        tree = (parse_indented(text, grammar, "config", strict) if indexed
                else _plain(text, grammar, strict))
    except ConfigError as exc:
        return ("error", exc.line, exc.token)
    return _tree(tree)


def _configs() -> list[tuple[str, str]]:
    """One rendered config per line NOS and role of the deploy fleet."""
    result = validate(FLEET)
    assert result.fabric is not None and result.physics is not None
    builder = PlanBuilder(result.fabric, result.physics)
    chosen: dict[tuple[str, str], Device] = {}
    for d in result.fabric.switches():
        nos = result.fabric.platform(d).nos
        if nos in ("eos", "nxos"):
            chosen.setdefault((nos, d.role), d)
    return [(nos, render_plan(builder.plan(d))) for (nos, _), d in sorted(chosen.items())]


def _edited(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(40):
        i = rng.randrange(len(lines))
        line = lines[i]
        if not line.strip() or line.strip().startswith("!"):
            continue
        pad = line[:len(line) - len(line.lstrip())]
        roll = rng.random()
        word = "no " if roll < 0.4 else "default " if roll < 0.5 else ""
        at = rng.randrange(i, len(lines) + 1) if roll > 0.8 else i + 1
        lines.insert(at, pad + word + line.strip())
    return "\n".join(lines) + "\n"


def test_the_index_reads_every_config_as_the_plain_editor_does() -> None:
    rng = random.Random(40)
    seen = 0
    for nos, text in _configs():
        grammar = EOS if nos == "eos" else NXOS
        for variant in (text, _edited(text, rng), _edited(text, rng)):
            for strict in (False, True):
                assert _read(variant, grammar, strict, True) == \
                    _read(variant, grammar, strict, False), nos
                seen += 1
    assert seen >= 12


def test_a_long_config_is_read_in_work_proportional_to_its_length() -> None:
    """Work, not wall time: the editor compares each line with the siblings it could
    replace only. Counted by the words it asks of existing lines (Node.words)."""
    def config(n: int) -> str:
        out = ["hostname x"]
        for i in range(n):
            out += [f"interface Ethernet{i + 1}/1", f"   description port {i}", "   mtu 9214",
                    f"   ip address 10.{i // 256}.{i % 256}.1/31"]
        out += ["router bgp 65000"]
        out += [f"   neighbor 10.{i // 256}.{i % 256}.0 remote-as 65001" for i in range(n)]
        out += [f"ip prefix-list PL seq {10 * (i + 1)} permit 10.{i // 256}.{i % 256}.0/24"
                for i in range(n)]
        return "\n".join(out) + "\n"

    calls = {"n": 0}
    words: property = Node.__dict__["words"]

    def counted(self: Node) -> tuple[str, ...]:
        calls["n"] += 1
        got: tuple[str, ...] = words.__get__(self)
        return got

    setattr(Node, "words", property(counted))  # noqa: B010 - a property swapped for counting
    try:
        counts = []
        for n in (500, 2000):
            calls["n"] = 0
            parse_indented(config(n), EOS, "config")
            counts.append(calls["n"])
    finally:
        setattr(Node, "words", words)  # noqa: B010
    # four times the lines: about four times the work (the plain editor does ~16 times)
    assert counts[1] < 5 * counts[0], counts
