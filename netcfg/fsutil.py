"""Atomic file writes: a reader never sees a half-written file, a failure leaves the old one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, text: str) -> None:
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def replace_tree(directory: str | Path, files: dict[str, str]) -> None:
    """Make `directory` hold exactly `files` (relative path -> text), all or nothing.

    Everything is written into a sibling temporary directory first; only when all files are
    there is it swapped in (the old tree renamed aside, then removed). A failure before the
    swap leaves `directory` untouched.
    """
    target = Path(directory).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".new"))
    try:
        _write_all(tmp, files)
        old = None
        if target.exists():
            old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.",
                                        suffix=".old"))
            os.rmdir(old)
            os.replace(target, old)
        os.replace(tmp, target)
    except BaseException:
        _remove(tmp)
        raise
    if old is not None:
        _remove(old)


def update_files(directory: str | Path, files: dict[str, str]) -> None:
    """Replace just these files in `directory` (each atomically), leaving the others."""
    root = Path(directory)
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)


def _write_all(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)


def _remove(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)
