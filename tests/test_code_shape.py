"""A method that an edit left indented under a function instead of its class is valid Python:
neither ruff nor mypy says a word, the class silently falls back to its base's behaviour (a
Junos adapter once lost `keep_device_local` this way, and a push dropped the device's root
password). Any function taking `self` must sit directly in a class."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _misplaced(tree: ast.AST) -> list[str]:
    out: list[str] = []

    def visit(node: ast.AST, parent: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                args = child.args.posonlyargs + child.args.args
                if args and args[0].arg in ("self", "cls") and not isinstance(node, ast.ClassDef):
                    out.append(f"{child.name} (line {child.lineno})")
            visit(child, node)

    visit(tree, None)
    return out


def test_every_method_sits_in_its_class():
    found = {}
    for path in sorted((ROOT / "netcfg").rglob("*.py")):
        bad = _misplaced(ast.parse(path.read_text(encoding="utf-8")))
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    assert not found, found


def test_the_check_sees_a_method_left_in_a_function():
    source = ("class A:\n    def f(self):\n        pass\n\n"
              "def g():\n    def h(self):\n        pass\n")
    assert _misplaced(ast.parse(source)) == ["h (line 6)"]
