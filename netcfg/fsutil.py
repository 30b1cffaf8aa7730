"""Atomic file writes: a reader never sees a half-written file, a failure leaves the old one.

Whole output directories are netcfg/outdir.py's (a manifest of what netcfg wrote)."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class UnreadableFile(OSError):
    """A file netcfg will not read; `reason` is the one-line why."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.reason = reason


def read_regular(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or `UnreadableFile`.

    Checked on the open descriptor before reading: a device (`/dev/zero` never ends), a FIFO
    (blocks until a writer comes), a directory or a huge sparse file is refused at once, and
    no more than `limit` bytes are ever read, also from a file that grows meanwhile.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise UnreadableFile(path, "file not found") from None
    except OSError as exc:
        raise UnreadableFile(path, f"cannot open: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UnreadableFile(path, "is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(path, "is not a regular file (a device, FIFO or socket)")
        if info.st_size > limit:
            raise UnreadableFile(path, f"is larger than {_size(limit)}")
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise UnreadableFile(path, f"is larger than {_size(limit)}")
        return data
    except UnreadableFile:
        raise
    except OSError as exc:
        raise UnreadableFile(path, f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)


def _size(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit} bytes"


def write_atomic(path: str | Path, text: str) -> None:
    """Write `text` to `path` through a temporary file beside it and a rename. An error names
    `path` (not the temporary file) so the user knows which output failed."""
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.",
                                   suffix=".tmp")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
