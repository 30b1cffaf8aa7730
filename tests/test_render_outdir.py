"""`render --out DIR` never deletes what netcfg did not write (a `.git`, a README, the inventory
itself, another fabric's configs) and removes only its own stale files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from netcfg.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "inventories" / "example"
MANIFEST = ".netcfg-manifest"


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.output


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_directory_netcfg_did_not_write_is_refused_untouched(tmp_path):
    out = tmp_path / "repo"
    (out / ".git").mkdir(parents=True)
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (out / "README.md").write_text("team notes\n")
    before = snapshot(out)
    code, output = run("render", str(EXAMPLE), "--out", str(out))
    assert code == 1
    assert "not empty and netcfg did not write it" in output
    assert len(output.strip().splitlines()) == 1 and "Traceback" not in output
    assert snapshot(out) == before


def test_the_inventory_itself_is_never_an_output(tmp_path):
    inv = tmp_path / "inv"
    shutil.copytree(EXAMPLE, inv)
    before = snapshot(inv)
    code, output = run("render", str(inv), "--out", str(inv))
    assert code == 1 and "did not write it" in output
    assert snapshot(inv) == before


def test_files_added_beside_the_configs_survive_a_render(tmp_path):
    out = tmp_path / "configs"
    assert run("render", str(EXAMPLE), "--out", str(out))[0] == 0
    (out / "README.md").write_text("how to review these\n")
    (out / "notes").mkdir()
    (out / "notes" / "change-42.txt").write_text("ticket\n")
    assert run("render", str(EXAMPLE), "--out", str(out))[0] == 0
    assert (out / "README.md").read_text() == "how to review these\n"
    assert (out / "notes" / "change-42.txt").read_text() == "ticket\n"
    assert run("render", str(EXAMPLE), "--out", str(out), "--check")[0] == 0


def test_only_this_fabrics_stale_files_are_removed(tmp_path):
    out = tmp_path / "configs"
    assert run("render", str(EXAMPLE), "--out", str(out))[0] == 0
    manifest = json.loads((out / MANIFEST).read_text())
    # a switch this fabric had before, and a file another fabric wrote into the same directory
    manifest["owners"]["example"].append("leaf-su9-r1.yaml")
    manifest["owners"]["other-fabric"] = ["other-leaf1.cfg"]
    (out / MANIFEST).write_text(json.dumps(manifest))
    (out / "leaf-su9-r1.yaml").write_text("retired switch\n")
    (out / "other-leaf1.cfg").write_text("another fabric\n")
    assert run("render", str(EXAMPLE), "--out", str(out))[0] == 0
    assert not (out / "leaf-su9-r1.yaml").exists()
    assert (out / "other-leaf1.cfg").read_text() == "another fabric\n"
    after = json.loads((out / MANIFEST).read_text())["owners"]
    assert after["other-fabric"] == ["other-leaf1.cfg"]
    assert "leaf-su9-r1.yaml" not in after["example"]


def test_a_file_of_another_fabric_is_not_overwritten(tmp_path):
    out = tmp_path / "configs"
    out.mkdir()
    (out / "spine1.yaml").write_text("spine1 of another fabric\n")
    (out / MANIFEST).write_text(json.dumps({"format": 1,
                                            "owners": {"other": ["spine1.yaml"]}}))
    before = snapshot(out)
    code, output = run("render", str(EXAMPLE), "--out", str(out))
    assert code == 1 and "belongs to fabric 'other'" in output
    assert snapshot(out) == before


def test_a_same_named_file_netcfg_did_not_write_is_not_overwritten(tmp_path):
    out = tmp_path / "configs"
    out.mkdir()
    (out / MANIFEST).write_text(json.dumps({"format": 1, "owners": {}}))
    (out / "spine1.yaml").write_text("hand-made\n")
    code, output = run("render", str(EXAMPLE), "--out", str(out))
    assert code == 1 and "netcfg did not write it" in output
    assert (out / "spine1.yaml").read_text() == "hand-made\n"


def test_a_partial_render_adds_to_the_manifest_and_removes_nothing(tmp_path):
    out = tmp_path / "configs"
    assert run("render", str(EXAMPLE), "--out", str(out), "--role", "spine")[0] == 0
    spines = set(json.loads((out / MANIFEST).read_text())["owners"]["example"])
    assert spines and all(n.startswith("spine") for n in spines)
    assert run("render", str(EXAMPLE), "--out", str(out), "--device", "leaf-su1-r1")[0] == 0
    owned = set(json.loads((out / MANIFEST).read_text())["owners"]["example"])
    assert owned == spines | {"leaf-su1-r1.yaml"}
    assert all((out / n).is_file() for n in owned)


def test_an_output_path_below_a_file_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x\n")
    code, output = run("render", str(EXAMPLE), "--out", str(blocker / "configs"))
    assert code == 1 and "Traceback" not in output
    assert len(output.strip().splitlines()) == 1
    assert blocker.read_text() == "x\n"


def test_an_unreadable_manifest_is_refused(tmp_path):
    out = tmp_path / "configs"
    out.mkdir()
    (out / MANIFEST).write_text("{not json")
    code, output = run("render", str(EXAMPLE), "--out", str(out))
    assert code == 1 and "unreadable" in output
