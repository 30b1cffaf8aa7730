"""Every release a document pins exists: `rev: vX.Y.Z` (pre-commit) and `...git@vX.Y.Z` (pip
from the repository) name a tag of this repository.

The tags are git's own (`git tag -l 'v*'`). A clone without tags (a shallow CI checkout, a
fetch that left them out) cannot show them: there the releases are CHANGELOG.md's `## X.Y.Z`
headings, which the release process tags one for one (`v<version>`), and the test says which
source it used. Where tags exist, each is annotated, has its CHANGELOG section, and its commit
carries that version; a pin that installs `netcfg-roce` names a tag whose distribution has that
name (v0.2.0 was still called netcfg)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"(?:\brev:\s*|\.git@)(v\d+\.\d+\.\d+)\b")
NAMED_PIN = re.compile(r"([A-Za-z0-9_.-]+) @ git\+\S+\.git@(v\d+\.\d+\.\d+)\b")
HEADING = re.compile(r"^## (\d+\.\d+\.\d+)\b", re.M)


def documents() -> list[Path]:
    """The files that tell a user what to pin: README, docs/ (CI examples included) and the
    pre-commit hook's own example."""
    found = [ROOT / "README.md", ROOT / ".pre-commit-hooks.yaml"]
    found += sorted(p for p in (ROOT / "docs").rglob("*") if p.suffix in (".md", ".yml",
                                                                           ".yaml"))
    return [p for p in found if p.is_file()]


def pins() -> list[tuple[str, str]]:
    return [(f"{p.relative_to(ROOT)}:{n}", m.group(1)) for p in documents()
            for n, line in enumerate(p.read_text().splitlines(), 1) for m in PIN.finditer(line)]


def git(*args: str) -> str | None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          timeout=60)
    return done.stdout if done.returncode == 0 else None


def tags() -> list[str]:
    listed = git("tag", "-l", "v*")
    return listed.split() if listed else []


def releases() -> tuple[set[str], str]:
    """The release tags, and where they were read."""
    found = tags()
    if found:
        return set(found), "git tags"
    headings = HEADING.findall((ROOT / "CHANGELOG.md").read_text())
    return {f"v{v}" for v in headings}, "CHANGELOG.md headings (this clone has no tags)"


def test_the_documents_pin_releases() -> None:
    assert pins(), "no pinned release in README, docs/ or .pre-commit-hooks.yaml"


def test_every_pin_names_a_release() -> None:
    known, source = releases()
    missing = [(where, pin) for where, pin in pins() if pin not in known]
    assert not missing, f"pins naming no release ({source}: {sorted(known)}): {missing}"


def test_every_tag_is_an_annotated_release_of_its_version() -> None:
    found = tags()
    if not found:
        pytest.skip("this clone carries no tags; the pins were checked against CHANGELOG.md")
    headings = set(HEADING.findall((ROOT / "CHANGELOG.md").read_text()))
    for tag in found:
        assert re.fullmatch(r"v\d+\.\d+\.\d+", tag), tag
        assert (git("cat-file", "-t", tag) or "").strip() == "tag", f"{tag} is not annotated"
        version = tag[1:]
        assert version in headings, f"CHANGELOG.md has no '## {version}' section for {tag}"
        source = git("show", f"{tag}:netcfg/__init__.py") or ""
        assert f'__version__ = "{version}"' in source, f"{tag}'s commit is not version {version}"


def test_a_pin_that_installs_a_distribution_names_a_tag_of_that_name() -> None:
    if not tags():
        pytest.skip("this clone carries no tags to read the distribution name from")
    for document in documents():
        for name, tag in NAMED_PIN.findall(document.read_text()):
            project = git("show", f"{tag}:pyproject.toml") or ""
            declared = re.search(r'^name = "([^"]+)"', project, re.M)
            assert declared and declared.group(1) == name, (document.name, name, tag)
