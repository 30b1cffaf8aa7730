"""The inventory as it stands at a git revision, in a temporary directory.

`git archive REF` writes the revision's tree without touching the repository (no worktree
entry, no index, no checkout), so a report can run in a CI job's checkout or beside a user's
uncommitted work. The whole tree is extracted: an intent may name files beside its
inventory (a credentials file, a key), and the paths stay as they were in the revision.
"""

from __future__ import annotations

import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

#: seconds git may take for one command (an archive of a large repository included)
GIT_TIMEOUT = 300


class RefError(Exception):
    """The base cannot be read: not a git repository, an unknown revision, git missing."""


@dataclass(frozen=True)
class Base:
    """The base side: `path` is the inventory in the extracted tree (None where the revision
    has no such path: the inventory is new), `commit` the revision's full hash."""

    ref: str
    commit: str
    path: Path | None


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True,
                              timeout=GIT_TIMEOUT, check=False)
    except FileNotFoundError:
        raise RefError("git is not installed; the base revision cannot be read") from None
    except subprocess.TimeoutExpired:
        raise RefError(f"git {args[0]} took more than {GIT_TIMEOUT} s") from None


def _said(done: subprocess.CompletedProcess[bytes]) -> str:
    text = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return text[-1] if text else f"git exited with {done.returncode}"


@contextmanager
def checkout_of(path: Path, ref: str) -> Iterator[Base]:
    """The repository holding `path` as it is at `ref`, extracted into a temporary directory
    removed afterwards; yields where `path` is in it."""
    start = path if path.is_dir() else path.parent
    top = _git(start, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise RefError(f"{path} is not in a git repository ({_said(top)})")
    root = Path(top.stdout.decode().strip())
    if ref.startswith("-"):  # never an option to git
        raise RefError(f"'{ref}' is not a revision")
    found = _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if found.returncode != 0:
        raise RefError(f"'{ref}' names no commit of {root}")
    commit = found.stdout.decode().strip()
    relative = path.resolve().relative_to(root.resolve())
    with tempfile.TemporaryDirectory(prefix="netcfg-report-") as tmp:
        tree = Path(tmp) / "base"
        tree.mkdir()
        archive = Path(tmp) / "base.tar"
        done = _git(root, "archive", "--format=tar", f"--output={archive}", commit)
        if done.returncode != 0:
            raise RefError(f"git archive {ref}: {_said(done)}")
        _extract(archive, tree)
        archive.unlink()
        at = tree / relative
        yield Base(ref, commit, at if at.exists() else None)


def _extract(archive: Path, into: Path) -> None:
    """Unpack git's tar: regular files, directories and links inside the tree only (the
    `data` filter of PEP 706 where this Python has it; by hand otherwise)."""
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(into, filter="data")
            return
        safe = []
        for member in tar.getmembers():  # pragma: no cover - Pythons before PEP 706
            target = (into / member.name).resolve()
            if not target.is_relative_to(into.resolve()) or member.isdev():
                continue
            if member.issym() or member.islnk():
                continue
            safe.append(member)
        tar.extractall(into, members=safe)  # noqa: S202 - members checked above
