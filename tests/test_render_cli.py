"""`netcfg render`: all-or-nothing writes, selection, --check drift, determinism, and free text
that tries to inject config lines, for every NOS."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest
import yaml
from click.testing import CliRunner

from netcfg.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "inventories" / "example"
PLATFORM = {"eos": "arista-7060x6-eos", "nxos": "cisco-n9364e-sg2-nxos",
            "junos": "juniper-qfx5240-junos", "cumulus": "nvidia-sn5600-cumulus",
            "sonic": "nvidia-sn5600-sonic"}


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, getattr(r, "stderr", "")


def inventory(tmp_path: Path, nos: str = "cumulus", extra: str = "") -> Path:
    """The example inventory with every switch on NOS `nos`."""
    inv = tmp_path / f"inv-{nos}"
    inv.mkdir(parents=True)
    text = (EXAMPLE / "fabric.yaml").read_text()
    text = text.replace("  leaf: nvidia-sn5600-cumulus\n  spine: nvidia-sn5600-cumulus\n",
                        f"  leaf: {PLATFORM[nos]}\n  spine: {PLATFORM[nos]}\n")
    (inv / "fabric.yaml").write_text(text + extra)
    return inv


def test_render_writes_one_file_per_switch_and_host_profiles(tmp_path):
    out = tmp_path / "out"
    code, stdout, _ = run("render", str(EXAMPLE), "--out", str(out))
    assert code == 0, stdout
    names = sorted(p.name for p in out.iterdir() if p.is_file() and not p.name.startswith("."))
    assert len(names) == 12 and all(n.endswith(".yaml") for n in names)
    assert (out / ".netcfg-manifest").is_file()
    assert sorted(p.name for p in (out / "hosts").iterdir()) == ["connectx-7.json", "connectx-7.sh"]
    first = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert run("render", str(EXAMPLE), "--out", str(out))[0] == 0
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == first  # byte-identical
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]  # no temp left


def test_check_reports_drift_with_exit_3(tmp_path):
    out = tmp_path / "out"
    assert run("render", str(EXAMPLE), "--out", str(out))[0] == 0
    assert run("render", str(EXAMPLE), "--out", str(out), "--check")[0] == 0
    (out / "leaf-su1-r1.yaml").write_text("hand edit\n")
    (out / "README.md").write_text("not netcfg's: never reported, never removed\n")
    (out / "spine1.yaml").unlink()
    # a switch netcfg rendered earlier that the intent no longer has
    manifest = json.loads((out / ".netcfg-manifest").read_text())
    manifest["owners"]["example"].append("spine9.yaml")
    (out / ".netcfg-manifest").write_text(json.dumps(manifest))
    (out / "spine9.yaml").write_text("retired\n")
    code, stdout, _ = run("render", str(EXAMPLE), "--out", str(out), "--check")
    assert code == 3
    assert "changed: leaf-su1-r1.yaml" in stdout and "missing: spine1.yaml" in stdout
    # the drift itself, as a unified diff from the file on disk to what the intent renders
    assert "--- a/leaf-su1-r1.yaml\n+++ b/leaf-su1-r1.yaml\n" in stdout
    assert "\n-hand edit\n" in stdout and "\n+- set:\n" in stdout
    assert "extra: spine9.yaml" in stdout and "README" not in stdout
    assert (out / "leaf-su1-r1.yaml").read_text() == "hand edit\n"  # --check writes nothing


def test_selection_rewrites_only_the_selected_files(tmp_path):
    out = tmp_path / "out"
    assert run("render", str(EXAMPLE), "--out", str(out))[0] == 0
    (out / "leaf-su1-r1.yaml").write_text("old\n")
    (out / "spine1.yaml").write_text("old\n")
    assert run("render", str(EXAMPLE), "--out", str(out), "--device", "leaf-su1-r[1-2]")[0] == 0
    assert (out / "leaf-su1-r1.yaml").read_text() != "old\n"
    assert (out / "spine1.yaml").read_text() == "old\n"
    assert run("render", str(EXAMPLE), "--out", str(out), "--role", "spine")[0] == 0
    assert (out / "spine1.yaml").read_text() != "old\n"
    assert run("render", str(EXAMPLE), "--out", str(out), "--device", "nope*")[0] == 1


def test_a_failing_device_leaves_the_directory_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("previous render\n")
    from netcfg.render import engine

    real = engine.render_plan
    calls = {"n": 0}

    def flaky(plan):
        calls["n"] += 1
        if calls["n"] == 5:
            raise jinja2.UndefinedError("'x' is undefined")
        return real(plan)

    monkeypatch.setattr(engine, "render_plan", flaky)
    code, _, _ = run("render", str(EXAMPLE), "--out", str(out))
    assert code == 1
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]


def test_invalid_intent_renders_nothing(tmp_path):
    inv = tmp_path / "bad"
    inv.mkdir()
    (inv / "fabric.yaml").write_text((EXAMPLE / "fabric.yaml").read_text().replace(
        "traffic_class: 3", "traffic_class: 9"))
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "netcfg.cli", "render", str(inv), "--out", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert not out.exists()


# ------------------------------------------------------------------------- injection

#: Printable one-line text that is hostile to some config syntax. Line breaks and control
#: characters never get this far: validate refuses them (SCH005, tests/bad_intents).
HOSTILE = ['x" ; hostname pwned ; "', "a } b { c", "end\\nexit", "'; DROP --", "#!{{ 7*7 }}$x",
           "- set: {system: {hostname: pwned}}", '{"PORT": {}}']
BENIGN = "x" * 24


def _render_one(tmp_path: Path, nos: str, description: str) -> str:
    extra = ("\noverrides:\n  ports:\n    \"leaf-su1-r1:*\": {description: "
             + json.dumps(description) + "}\n")
    inv = inventory(tmp_path / description.encode().hex()[:16], nos, extra)
    out = inv.parent / "out"
    code, stdout, stderr = run("render", str(inv), "--out", str(out), "--device", "leaf-su1-r1")
    assert code == 0, stdout + stderr
    return next(p for p in out.iterdir() if p.name.startswith("leaf-su1-r1.")).read_text()


@pytest.mark.parametrize("nos", list(PLATFORM))
@pytest.mark.parametrize("text", HOSTILE)
def test_free_text_cannot_inject_lines(tmp_path, nos, text):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    hostile = _render_one(tmp_path / "a", nos, text)
    benign = _render_one(tmp_path / "b", nos, BENIGN)
    assert hostile.count("\n") == benign.count("\n")
    assert "hostname pwned" not in [ln.strip() for ln in hostile.splitlines()]
    if nos == "sonic":
        doc = json.loads(hostile)
        assert {p.get("description") for p in doc["PORT"].values()} >= {text}
    if nos == "cumulus":
        assert text in _strings(yaml.safe_load(hostile))  # one valid document, text intact


def _strings(node: object) -> set[str]:
    """Every string value and key in a parsed YAML/JSON document."""
    if isinstance(node, dict):
        return set().union(*(_strings(k) | _strings(v) for k, v in node.items()), set())
    if isinstance(node, list):
        return set().union(*(_strings(v) for v in node), set())
    return {node} if isinstance(node, str) else set()


RING = ROOT / "tests" / "deadlock_cases" / "C08_ring4_shortest_path"


def test_a_fabric_that_can_deadlock_is_not_rendered(tmp_path):
    """The public reference case C08 (../shared/cases: verdict deadlock with every link up)."""
    assert yaml.safe_load((RING / "expected.yaml").read_text())["verdict"] == "deadlock"
    out = tmp_path / "out"
    code, stdout, stderr = run("render", str(RING), "--out", str(out))
    assert code == 1 and "can deadlock; nothing rendered" in stderr and "DLK001" in stderr
    assert not out.exists()


def test_no_deadlock_check_renders_and_says_so(tmp_path):
    out = tmp_path / "out"
    code, stdout, stderr = run("render", str(RING), "--out", str(out), "--no-deadlock-check")
    assert code == 0, stderr
    assert "deadlock check skipped (--no-deadlock-check)" in stdout
    assert "warning: deadlock check skipped" in stderr and "DLK001" not in stderr
    assert any(out.iterdir())


def test_a_fabric_that_can_deadlock_is_not_pushed(tmp_path):
    code, stdout, stderr = run("push", str(RING), "--state", str(tmp_path / "state"))
    assert code == 1 and "can deadlock; no device was touched" in stderr
    assert not (tmp_path / "state").exists()  # no run was even journaled


def test_push_without_the_deadlock_check_says_so(tmp_path):
    """The gate is skipped and said to be; the push then stops at the next missing piece
    (this case has no credentials), before any connection."""
    code, stdout, stderr = run("push", str(RING), "--state", str(tmp_path / "state"),
                               "--no-deadlock-check")
    assert "warning: deadlock check skipped (--no-deadlock-check)" in stderr
    assert "can deadlock" not in stderr and "DLK001" not in stderr
    assert code == 1 and "no credentials" in stderr
