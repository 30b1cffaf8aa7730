"""The EOS/NX-OS line-config parser (netcfg/vendors/lineconfig.py) with hostile values:
quotes, braces, `!` and `#` inside a line, backslashes and unicode. Trees are written the way
the NOSes print them (EOS indents 3 spaces and separates blocks with `!`, NX-OS indents 2)
and must come back statement for statement; the device-local blocks a replace keeps come
back byte for byte."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from netcfg.vendors import vendor
from netcfg.vendors.lineconfig import parse

# a statement: printable text (unicode too) that neither starts nor ends with blanks and does
# not start with `!` (that would be a comment)
_CHARS = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"))
TEXT = st.text(_CHARS, min_size=1, max_size=30).filter(
    lambda t: t == t.strip() and not t.startswith("!"))


@dataclass
class Tree:
    text: str
    children: list[Tree]


TREES = st.recursive(st.builds(Tree, TEXT, st.just([])),
                     lambda kids: st.builds(Tree, TEXT, st.lists(kids, max_size=3)),
                     max_leaves=12)


def write(tree: Tree, step: int, depth: int = 0, comments: bool = False) -> list[str]:
    lines = [" " * (step * depth) + tree.text]
    for child in tree.children:
        if comments:
            lines.append(" " * (step * (depth + 1)) + "!")
        lines += write(child, step, depth + 1, comments)
    return lines


def shape(statement) -> tuple:
    return (statement.text, [shape(c) for c in statement.children])


def want(tree: Tree) -> tuple:
    return (tree.text, [want(c) for c in tree.children])


@settings(max_examples=300, deadline=None)
@given(st.lists(TREES, min_size=1, max_size=5), st.sampled_from([2, 3]), st.booleans())
def test_trees_come_back_statement_for_statement(trees, step, comments):
    blocks = [write(t, step, comments=comments) for t in trees]
    separator = ["!"] if step == 3 else []
    text = "\n".join(line for b in blocks for line in b + separator) + "\n"
    parsed = parse(text)
    assert [shape(s) for s in parsed] == [want(t) for t in trees]
    assert [s.lines for s in parsed] == blocks  # indented comments stay in the block's text


def test_a_bang_inside_a_line_is_part_of_the_value():
    (s,) = parse('interface Ethernet1\n   description a ! b "{x}" # c\n')
    assert [c.text for c in s.children] == ['description a ! b "{x}" # c']


def test_a_left_margin_comment_or_blank_line_closes_the_block():
    text = "username a\n   x\n!\n   orphan\n\nrouter bgp 1\n   y\n"
    parsed = parse(text)
    assert [s.text for s in parsed] == ["username a", "orphan", "router bgp 1"]
    assert parsed[0].lines == ["username a", "   x"]


@settings(max_examples=200, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=4), TEXT)
def test_device_local_blocks_are_kept_byte_for_byte(values, secret):
    """An EOS running config with a login block full of odd characters: the candidate that
    lacks it gets it verbatim, once."""
    login = [f"username netops secret sha512 {secret}"] + [f"   {v}" for v in values]
    running = "\n".join(["hostname sw1", "!", *login, "!", "interface Ethernet1",
                         "   description old", "!"]) + "\n"
    candidate = "hostname sw1\n!\ninterface Ethernet1\n   description new\n!\nend\n"
    eos = vendor("eos").deploy
    merged = eos.keep_device_local(running, candidate)
    lines = merged.splitlines()
    at = lines.index(login[0])
    assert lines[at:at + len(login)] == login and lines[at + len(login):] == ["end"]
    assert merged.count(login[0]) == 1
    assert eos.keep_device_local(running, merged) == merged
