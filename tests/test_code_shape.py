"""A method that an edit left indented under a function instead of its class is valid Python:
neither ruff nor mypy says a word, the class silently falls back to its base's behaviour (a
Junos adapter once lost `keep_device_local` this way, and a push dropped the device's root
password). Any function taking `self` must sit directly in a class."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

import tomllib

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


# --------------------------------------------------------------------------- the import graph
#
# The layers below rendering (intent, the NOS facts, platforms, topology, physics) read what a
# NOS is from netcfg/nos and never import the vendor packages, the renderer, deploy or the lab;
# and no import cycle spans two packages. The graph is read from the source: every import
# statement counts, inside a function too (an import placed there to dodge a cycle is still an
# arrow), and so does each package whose __init__ Python runs before the module it imports.
# Imports under `if TYPE_CHECKING:` never run: they count for the direction of the layers, not
# for cycles.

#: the layers below rendering, and what they must not import
BELOW = ("netcfg.intent", "netcfg.nos", "netcfg.platforms", "netcfg.topology", "netcfg.physics")
ABOVE = ("netcfg.vendors", "netcfg.render", "netcfg.deploy", "netcfg.lab")
#: the modules of a NOS package that do rather than describe (render, read, deploy)
DOES = ("render", "routing", "deploy", "driver", "model")


def _modules(root: Path) -> dict[str, Path]:
    """Dotted name -> file of every module under `root`/netcfg."""
    out = {}
    for path in sorted((root / "netcfg").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The module `name` is, or is in (`pkg.mod.attr` -> `pkg.mod`)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, int, bool]]:
    """(imported module, line, only under TYPE_CHECKING) for every import in the file, with
    the packages Python runs on the way to it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    out: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            guarded = typing_only or (isinstance(child, ast.If)
                                      and "TYPE_CHECKING" in ast.unparse(child.test))
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    pkg = here[:len(here) - child.level + 1]
                    base = ".".join(pkg + ([base] if base else []))
                names = [base] + [f"{base}.{a.name}" for a in child.names]
            for name in names:
                target = _known(name, modules)
                if target is None or target == module:
                    continue
                parts = target.split(".")
                for n in range(1, len(parts) + 1):
                    step = ".".join(parts[:n])
                    if step in modules and step != module and not module.startswith(step + "."):
                        out.append((step, child.lineno, guarded))
            visit(child, guarded)

    visit(tree, False)
    return out


def _graph(root: Path = ROOT) -> dict[str, list[tuple[str, int, bool]]]:
    modules = _modules(root)
    return {m: _imports(m, p, modules) for m, p in modules.items()}


@cache
def _netcfg_graph() -> dict[str, list[tuple[str, int, bool]]]:
    """netcfg's own graph, read once for the tests below."""
    return _graph()


def _package(module: str, graph: dict) -> str:
    """netcfg.<package> for a module of a subpackage, netcfg for a top-level module."""
    parts = module.split(".")
    if len(parts) > 2 or any(m.startswith(module + ".") for m in graph):
        return ".".join(parts[:2])
    return parts[0]


def _cycles_across_packages(graph: dict[str, list[tuple[str, int, bool]]]) -> list[list[str]]:
    """Each strongly connected set of modules (imports that run) spanning two packages, as its
    arrows `a -> b (line n)`."""
    edges = {m: sorted({t for t, _, typing_only in out if not typing_only})
             for m, out in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len({_package(m, graph) for m in part}) > 1:
                inside = set(part)
                found.append(sorted({f"{m} -> {t} (line {n})" for m in part
                                     for t, n, typing_only in graph[m]
                                     if t in inside and not typing_only}))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return found


def _upward(graph: dict[str, list[tuple[str, int, bool]]]) -> list[str]:
    return sorted({f"{m} -> {t} (line {n})" for m, out in graph.items() if m.startswith(BELOW)
                   for t, n, _ in out if t.startswith(ABOVE)})


def test_no_import_cycle_spans_two_packages():
    assert _cycles_across_packages(_netcfg_graph()) == []


def test_the_layers_below_rendering_import_nothing_above_them():
    assert _upward(_netcfg_graph()) == []


def _facts_points() -> dict[str, str]:
    """NOS -> the module its `netcfg.nos` entry point names, from pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {nos: value.partition(":")[0]
            for nos, value in project["entry-points"]["netcfg.nos"].items()}


def test_what_a_nos_is_reads_nothing_above_intent_and_platforms():
    """netcfg/nos and each NOS's facts module (its `netcfg.nos` entry point) reach, import by
    import, only the intent, the platform catalog, netcfg/nos and the describing modules of
    their own package. Loading netcfg's own facts also runs netcfg/vendors/__init__.py and the
    NOS package's (the registry and the Vendor): those are not followed here, as a plugin's
    facts module need not sit in a package that has them."""
    graph = _netcfg_graph()
    points = _facts_points()
    assert sorted(points) == ["cumulus", "eos", "frr", "junos", "nxos", "sonic"]
    low = ("netcfg.intent", "netcfg.platforms", "netcfg.nos")
    bad = {}
    for nos, start in [("", "netcfg.nos"), *sorted(points.items())]:
        own = f"netcfg.vendors.{nos}"
        skip = {"netcfg", "netcfg.vendors", own}
        seen, todo = {start}, [start]
        while todo:
            for target, _, _ in graph[todo.pop()]:
                if target not in seen and target not in skip:
                    seen.add(target)
                    todo.append(target)
        wrong = sorted(m for m in seen if not m.startswith(low) and not (
            nos and m.startswith(own + ".") and m.rpartition(".")[2] not in DOES))
        if wrong:
            bad[start] = wrong
    assert bad == {}


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_the_graph_sees_an_inline_import_a_package_init_and_a_typing_import(tmp_path):
    """A cycle closed by an import inside a function, and through the __init__ Python runs
    before a package's module, is a cycle; an upward import under TYPE_CHECKING is upward."""
    root = _tree(tmp_path, {
        "netcfg/__init__.py": "",
        "netcfg/physics/__init__.py": "def f():\n    from netcfg.vendors import vendor\n",
        "netcfg/vendors/__init__.py": "from netcfg.vendors.base import vendor\n",
        "netcfg/vendors/base.py": "import netcfg.render.plan\nvendor = 1\n",
        "netcfg/render/__init__.py": "",
        "netcfg/render/plan.py": "from netcfg.physics import budget\n",
        "netcfg/topology/__init__.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                        "    from netcfg.lab import device\n"),
        "netcfg/lab/__init__.py": "",
        "netcfg/lab/device.py": "",
    })
    graph = _graph(root)
    assert _cycles_across_packages(graph) == [[
        "netcfg.physics -> netcfg.vendors (line 2)",
        "netcfg.render.plan -> netcfg.physics (line 1)",
        "netcfg.vendors -> netcfg.vendors.base (line 1)",
        "netcfg.vendors.base -> netcfg.render.plan (line 1)"]]
    assert _upward(graph) == ["netcfg.physics -> netcfg.vendors (line 2)",
                              "netcfg.topology -> netcfg.lab (line 3)",
                              "netcfg.topology -> netcfg.lab.device (line 3)"]
    # the same arrow under TYPE_CHECKING closes no cycle
    (root / "netcfg/physics/__init__.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from netcfg.vendors import vendor\n")
    assert _cycles_across_packages(_graph(root)) == []


def test_importing_the_layers_below_rendering_loads_no_layer_above():
    """What Python really loads, beside what the source says: a fresh interpreter importing
    intent, nos, platforms, topology and physics has no vendor, render, deploy or lab module
    (the NOS facts arrive later, through their entry points, when first asked for)."""
    code = ("import sys, netcfg.intent.schema, netcfg.nos, netcfg.platforms, netcfg.topology, "
            "netcfg.physics\nprint('\\n'.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert [m for m in done.stdout.split() if m.startswith(ABOVE)] == []
