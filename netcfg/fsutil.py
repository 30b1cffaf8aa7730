"""Atomic file writes: a reader never sees a half-written file, a failure leaves the old one.

Whole output directories are netcfg/outdir.py's (a manifest of what netcfg wrote)."""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
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


def write_atomic(path: str | Path, text: str | Iterable[str]) -> None:
    """Write `text` to `path` through a temporary file beside it and a rename. An error names
    `path` (not the temporary file) so the user knows which output failed. `text` may be
    chunks, written one by one as they are made (a report too large to hold whole)."""
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.",
                                   suffix=".tmp")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            if isinstance(text, str):
                fh.write(text)
            else:
                fh.writelines(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_new(path: str | Path, data: bytes) -> None:
    """Create `path` (it must not exist) holding `data`: open, write, close and nothing else
    (a text-mode file object adds an encoder, a buffer and a stat). For the thousands of
    files a render stages in a directory of its own, renamed into place afterwards."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def check_output(path: str | Path, ours: Callable[[bytes], bool] | None = None) -> None:
    """Refuse an output path netcfg may not replace, before anything is written: only a new
    file or an existing regular file (not a symbolic link, device node, FIFO, socket or
    directory: replacing `/dev/null` or a link the user made is never what an output means).
    `ours`, given the first 4 KiB of an existing file, says whether netcfg wrote it; a file it
    rejects is refused (the lab's devices file must not overwrite an intent). Raises an
    OSError naming the path and the reason in one line."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise OSError(errno.EEXIST, "is a symbolic link; netcfg writes only a new file or "
                      "one it wrote", str(path))
    if stat.S_ISDIR(info.st_mode):
        raise OSError(errno.EISDIR, "is a directory, not a file", str(path))
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EEXIST, "exists and is not a regular file (a device, FIFO or "
                      "socket); netcfg writes only a new file or one it wrote", str(path))
    if ours is not None:
        with open(path, "rb") as fh:
            head = fh.read(4096)
        if not ours(head):
            raise OSError(errno.EEXIST, "exists and netcfg did not write it; name a new file",
                          str(path))


def write_output(path: str | Path, text: str,
                 ours: Callable[[bytes], bool] | None = None) -> None:
    """An `--output`/`--out` file: `-` is stdout; anything else passes `check_output` first
    and is then written atomically."""
    if str(path) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    check_output(path, ours)
    write_atomic(path, text)


# ----------------------------------------------------------------- reports netcfg writes
#
# A report file (`--output` of lint, validate, deadlock, verify and schema; graph's `--out`
# and `--dot`) says in its first 4 KiB that netcfg wrote it, so that the next run may replace
# it and nothing else: a fabric.yaml or any file of the user's named by mistake is refused.
# SARIF names its tool (`runs[0].tool.driver.name` "netcfg") and JUnit its `<testsuites>`
# ("netcfg lint", "netcfg verify") already; the other syntaxes get a line or key of their own,
# only in a file (what goes to stdout is unchanged).

#: the words of every marker; `written_by("lint")` is "written by netcfg lint"
WRITTEN_BY = "written by netcfg"

_MARKED = (
    # text, GitHub workflow commands, DOT (`//` is a DOT comment), SVG and Markdown (an XML
    # or HTML comment)
    re.compile(rb"\A(?:# |// |<!-- )written by netcfg "),
    # HTML: the comment right after the doctype (before it, old browsers leave standards mode)
    re.compile(rb"\A<!DOCTYPE html>\n<!-- written by netcfg "),
    # JSON: "$comment" as the object's first key (JSON Schema's own comment keyword)
    re.compile(rb'\A\s*\{\s*"\$comment"\s*:\s*"written by netcfg '),
    # JUnit XML: the root element's name attribute
    re.compile(rb'\A(?:<\?xml[^>]*\?>\s*)?<testsuites name="netcfg '),
    # SARIF: its schema first, then the tool that wrote the run
    re.compile(rb'\A\s*\{\s*"\$schema"\s*:\s*"[^"]*sarif[^"]*"[^\[]*\[\s*\{\s*"tool"\s*:'
               rb'\s*\{\s*"driver"\s*:\s*\{\s*"name"\s*:\s*"netcfg"'),
)


def ours(head: bytes) -> bool:
    """Whether a file whose first 4 KiB are `head` is one netcfg may replace: a report netcfg
    wrote (its marker, above), or an empty file (nothing in it to lose: what `mktemp` makes
    for a CI job to name as the output)."""
    return not head or any(m.match(head) for m in _MARKED)


def marked(text: str, command: str, syntax: str) -> str:
    """`text`, the output of `netcfg COMMAND` in `syntax` (text, github, json, sarif, junit,
    svg, dot, markdown, html), with netcfg's marker where that syntax needs one. A JSON array
    cannot hold a key: it becomes `{"$comment": ..., "items": [...]}` in a file."""
    said = f"{WRITTEN_BY} {command}"
    if syntax in ("text", "github"):
        return f"# {said}\n{text}"
    if syntax == "dot":
        return f"// {said}\n{text}"
    if syntax in ("svg", "markdown"):
        return f"<!-- {said} -->\n{text}"
    if syntax == "html":
        doctype = "<!DOCTYPE html>\n"
        if not text.startswith(doctype):
            raise ValueError(f"a {command} HTML page starts with its doctype")
        return f"{doctype}<!-- {said} -->\n{text[len(doctype):]}"
    if syntax == "json":
        head = text.lstrip()
        if head.startswith("["):
            return json.dumps({"$comment": said, "items": json.loads(text)}, indent=2) + "\n"
        if not head.startswith("{"):
            raise ValueError(f"a {command} JSON report is an object or an array")
        body = head[1:]
        key = f'{{\n  "$comment": {json.dumps(said)}'
        return key + ("\n" + body.lstrip() if body.lstrip().startswith("}") else "," + body)
    if syntax in ("sarif", "junit"):
        return text  # their own tool and suite names say netcfg (`_MARKED`)
    raise ValueError(f"no marker for {syntax}")


def check_report(path: str | Path | None) -> None:
    """Refuse a report's `--output` before the work that fills it (a deadlock sweep, a fleet
    read), in the words `write_report` would use; `-` and no output pass."""
    if path is not None and str(path) != "-":
        check_output(path, ours)


def write_report(path: str | Path, text: str, command: str, syntax: str) -> None:
    """A report's `--output`: `-` is stdout, as it is; a file gets `marked` and is written
    only over a file netcfg may replace (`check_output` with `ours`)."""
    if str(path) == "-":
        write_output(path, text)
        return
    write_output(path, marked(text, command, syntax), ours)


def write_report_chunks(path: str | Path, chunks: Iterable[str], command: str,
                        syntax: str) -> None:
    """`write_report` for a report written as it is made (a fleet's verify report, too large
    to hold whole): `-` is stdout, a file is written chunk by chunk into its temporary file
    and renamed at the end. The first chunk carries the marker: it must hold the document's
    head (a JSON report's opening `{`, as `marked` needs it)."""
    it = iter(chunks)
    first = next(it, "")

    def marked_chunks() -> Iterator[str]:
        yield marked(first, command, syntax)
        yield from it

    if str(path) == "-":
        sys.stdout.write(first)
        sys.stdout.writelines(it)
        sys.stdout.flush()
        return
    check_output(path, ours)
    write_atomic(path, marked_chunks())
