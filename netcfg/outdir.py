"""Output directories that netcfg shares with whatever else lives there.

`netcfg render --out DIR` must never delete what it did not write: a `.git`, a README, the
inventory itself, another fabric's configs in a shared `configs/`. DIR therefore carries a
manifest of the files netcfg wrote into it, per fabric. A render writes its files and removes
only files that the manifest lists for the same fabric and that the new render no longer has.
A directory that is neither new, empty, nor carries a manifest is refused. Every name, in the
manifest or to be written, is a plain relative path inside DIR (no absolute path, no `..`, no
empty or `.` part: a crafted manifest must not make a render delete a file elsewhere), and no
part of it below DIR may be a symbolic link (a link would carry the write or the removal out
of DIR); either is refused before anything is touched.

Each file is replaced atomically. Everything is staged first (inside DIR, so the final renames
stay on one file system): a failure while staging leaves DIR as it was. The manifest is widened
to the union of old and new files before any file moves and narrowed to the new set after the
stale files are gone, so an interrupted write never leaves a netcfg file the manifest does not
name (the next render cleans it up) and never lists a file netcfg did not write.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from netcfg.fsutil import read_regular, write_atomic, write_new

MANIFEST = ".netcfg-manifest"
_FORMAT = 1


class NotOurs(Exception):
    """DIR (or a file in it) is not netcfg's to write; the message is one line for the user."""


def owned(root: Path, owner: str) -> set[str]:
    """Files (relative POSIX paths) the manifest of `root` lists for `owner`."""
    return set(_read_manifest(root).get(owner, []))


def write_owned(root: str | Path, owner: str, files: Mapping[str, str], *,
                partial: bool = False) -> list[str]:
    """Write `files` (relative path -> text) into `root` for `owner` (a fabric name).

    Without `partial`, files the manifest lists for `owner` that are not in `files` are
    removed; with it (a render of some devices only) nothing is removed. Returns the removed
    paths. Raises `NotOurs` before touching anything when `root` or one of the paths is not
    netcfg's to write.
    """
    return write_staged(root, owner, list(files), lambda staging: write_texts(staging, files),
                        partial=partial)


def write_texts(staging: Path, files: Mapping[str, str]) -> None:
    """`files` (relative path -> text) as new UTF-8 files below `staging`."""
    for rel, text in files.items():
        path = staging / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        write_new(path, text.encode("utf-8"))


def write_staged(root: str | Path, owner: str, names: Sequence[str],
                 fill: Callable[[Path], None], *, partial: bool = False) -> list[str]:
    """write_owned, with the files written by `fill(staging)`: every one of `names` below
    `staging`, a new directory inside `root` (so that a renderer's worker processes can
    write their files themselves instead of handing the texts back). The claim is checked
    before `fill` runs; when `fill` raises (or leaves out a name), nothing in `root` changes,
    and a `root` made for it is removed again."""
    target = Path(root)
    manifest = _claim(target, owner, names)
    before = set(manifest.get(owner, []))
    after = before | set(names) if partial else set(names)
    stale = sorted(before - after)
    for rel in stale:  # removed: refused before anything is touched, as a written one
        _no_link_below(target, rel)
    made = target  # the first of root and its parents that does not exist yet, if any
    while not made.parent.exists() and made.parent != made:
        made = made.parent
    made_any = not target.exists()
    target.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target, prefix=".netcfg-staging-"))
    moved = False
    try:
        fill(staging)
        missing = [rel for rel in names if not (staging / rel).is_file()]
        if missing:
            raise OSError(f"{len(missing)} files were not written, first {missing[0]}")
        _write_manifest(target, {**manifest, owner: sorted(before | after)})
        moved = True
        for rel in sorted(names):
            dest = target / rel
            if "/" in rel:
                dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / rel, dest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if made_any and not moved:
            shutil.rmtree(made, ignore_errors=True)
    for rel in stale:
        (target / rel).unlink(missing_ok=True)
        _prune_empty_parents(target, target / rel)
    _write_manifest(target, {**manifest, owner: sorted(after)})
    return stale


def _claim(target: Path, owner: str, files: Iterable[str]) -> dict[str, list[str]]:
    """The current manifest, after checking that `owner` may write every one of `files`."""
    if target.exists() and not target.is_dir():
        raise NotOurs(f"{target} exists and is not a directory")
    for rel in files:
        if not plain(rel) or rel == MANIFEST:
            raise NotOurs(f"refusing to write {rel!r} outside or over netcfg's own files")
    if not target.exists():
        return {}
    manifest = _read_manifest(target)
    for rel in sorted(files):
        _no_link_below(target, rel)
    if not manifest and any(not e.name.startswith(".netcfg-staging-") for e in target.iterdir()):
        raise NotOurs(f"{target} is not empty and netcfg did not write it (no {MANIFEST}); "
                      f"render into a new or empty directory")
    listed = {rel: who for who, names in manifest.items() for rel in names}
    for rel in sorted(files):
        who = listed.get(rel)
        if who is not None and who != owner:
            raise NotOurs(f"{target / rel} belongs to fabric {who!r}, not {owner!r}; "
                          f"render each fabric into its own directory")
        if who is None and os.path.lexists(target / rel):
            raise NotOurs(f"{target / rel} exists and netcfg did not write it")
    return manifest


def plain(rel: str) -> bool:
    """A relative POSIX path that stays inside its directory: no leading `/`, and no part
    that is empty, `.` or `..` (nor a NUL, which no file name holds)."""
    return (bool(rel) and "\0" not in rel and not rel.startswith("/")
            and all(part not in ("", ".", "..") for part in rel.split("/")))


def _no_link_below(root: Path, rel: str) -> None:
    """Refuse `rel` when a part of it that exists below `root` is a symbolic link."""
    path = root
    for part in rel.split("/"):
        path = path / part
        if path.is_symlink():
            raise NotOurs(f"{path} is a symbolic link; netcfg writes and removes only its own "
                          f"files inside {root}, never through a link")
        if not os.path.lexists(path):
            return


def _read_manifest(root: Path) -> dict[str, list[str]]:
    path = root / MANIFEST
    if not path.is_file():
        return {}
    try:
        data = json.loads(read_regular(path, 64 * 2**20).decode("utf-8"))
        owners = data["owners"]
        if not isinstance(owners, dict) or not all(
                isinstance(k, str) and isinstance(v, list) and all(isinstance(n, str) for n in v)
                for k, v in owners.items()):
            raise ValueError("owners is not a mapping of lists of paths")
        foreign = next((n for v in owners.values() for n in v if not plain(n)), None)
        if foreign is not None:
            raise ValueError(f"it names {foreign!r}, not a plain name inside {root}")
    except (OSError, ValueError, KeyError, TypeError) as e:  # UnreadableFile is an OSError
        raise NotOurs(f"{path} is unreadable ({e}); fix or remove it") from None
    return owners


def _write_manifest(root: Path, owners: dict[str, list[str]]) -> None:
    kept = {k: v for k, v in sorted(owners.items()) if v}
    write_atomic(root / MANIFEST,
                 json.dumps({"format": _FORMAT, "owners": kept}, indent=1) + "\n")


def _prune_empty_parents(root: Path, path: Path) -> None:
    """Remove directories left empty by a removed file, up to (not including) `root`."""
    parent = path.parent
    while parent != root and root in parent.parents:
        try:
            parent.rmdir()
        except OSError:
            return
        parent = parent.parent
