"""Juniper's own configuration YANG as the lab's commit check, through the published validator.

Active when the device is given the `junos-yang` directory (`DeviceSpec.options["junos_yang"]`,
or the `NETCFG_JUNOS_YANG` environment variable; ../shared/junos-yang in the tests): a folder
holding `validate_junos.py` and a release folder of Juniper's `junos-conf-*.yang` models. Every
candidate the emulator is asked to commit (or `commit check`) is written out as the text the
device would show and checked statement by statement against those models, so a statement,
value or range the schema of the release does not have fails the commit as Junos would fail
it, whatever the emulator's own hierarchy table (`schema.py`) believes. Without the directory,
or without the `libyang` binding (extra `yang`), the emulator keeps only its own table.

Loading the models takes about 0.75 s of CPU (compiled once, `_load_context`), so one
validator is kept per directory and process.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

#: the release folder inside the directory (Junos OS Evolved 24.4R1, as the catalog runs)
RELEASE = "24.4R1-EVO"
#: statements Juniper documents for QFX5220/5230/5240 on Junos OS Evolved that its published
#: Evolved YANG lacks (../shared/junos-yang README, "Known gap"): the shared-buffer partitions
#: (`shared-buffer ingress|egress buffer-partition ...`). Passed as the validator's `--skip`:
#: only statements the model does not know under this path are let through (`shared-buffer
#: percent`, which it has, is still checked); the lab's own table (schema.py) and its
#: partition check (emulator.py) check them instead, from Juniper's statement pages.
SKIP = ("class-of-service shared-buffer",)


class JunosYang:
    """Juniper's YANG for one release, loaded once; `errors(text)` lists what it refuses."""

    def __init__(self, directory: Path) -> None:
        module = _load_validator(directory / "validate_junos.py")
        yang_dir = directory / RELEASE
        self._module = module
        module.logging.getLogger("libyang").setLevel(module.logging.CRITICAL)
        module.lib.ly_log_options(module.lib.LY_LOSTORE)
        module.lib.ly_set_log_clb(module.lib.lypy_log_cb, True)  # data paths in error records
        self._ctx = _load_context(module, yang_dir)
        self._cli = module.CliFeatures(str(yang_dir / module.CLI_FEATURES))

    def errors(self, text: str) -> list[tuple[int, str, str]]:
        """(line, statement path, message) for every statement the schema refuses, SKIP's
        gap aside. The same text gets the same answer: a push, its revert and its rollback
        commit the same few configurations again and again, and each check costs about a
        second."""
        return list(self._check(text)[0])

    def not_checked(self, text: str) -> list[tuple[int, str]]:
        """(line, statement path) of the statements SKIP let through unchecked."""
        return list(self._check(text)[1])

    def data(self, text: str) -> Any:
        """The RFC 7951 JSON document the validator builds from `text` for libyang (its
        `--json-out`): how Juniper's schema reads each statement, e.g. which list entry a
        quoted name became. None where the validator builds none (braces that do not
        balance)."""
        return self._validate(text, with_data=True)[2]

    @functools.lru_cache(maxsize=64)  # noqa: B019 - one validator per process (`_cached`)
    def _check(self, text: str) -> tuple[tuple[tuple[int, str, str], ...],
                                         tuple[tuple[int, str], ...]]:
        errors, skipped, _ = self._validate(text, with_data=False)
        return (tuple((int(line), str(where), str(message)) for line, where, message in errors),
                tuple((int(line), str(where)) for line, where in skipped))

    def _validate(self, text: str, with_data: bool) -> tuple[list, list, Any]:
        """The validator's `validate_file` on `text` (it reads a file): errors, statements
        let through unchecked and, `with_data`, the JSON it built (or None)."""
        with tempfile.TemporaryDirectory(prefix="junos-yang-") as folder:
            path = Path(folder) / "candidate.conf"
            path.write_text(text, encoding="utf-8")
            errors, skipped = self._module.validate_file(
                self._ctx, self._cli, str(path), "curly",
                json_out=folder if with_data else None, skip=SKIP)
            written = Path(folder) / "candidate.conf.json"
            data = json.loads(written.read_text()) if with_data and written.exists() else None
        return errors, skipped, data

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> JunosYang | None:
        folder = options.get("junos_yang") or os.environ.get("NETCFG_JUNOS_YANG")
        if not folder or not (Path(folder) / "validate_junos.py").is_file():
            return None
        try:
            import libyang  # noqa: F401
        except ImportError:
            return None
        return _cached(str(Path(folder).resolve()))


def _load_context(module: Any, yang_dir: Path) -> Any:
    """The validator's own `load_context` (its modules, its escape repairs), with the schema
    compiled once after the last module is parsed instead of again after each one (libyang's
    explicit compilation): each Junos module augments the root, so compiling per module
    redoes the whole tree about twenty times, four fifths of the load. The compiled schema is
    the same: libyang prints every Junos module of both contexts identically, and both give
    the same verdict on the validator's fixtures and on hundreds of broken rendered files;
    tests/lab/test_junos_yang.py holds this one to the fixtures' own expectations."""
    libyang = module.libyang
    context: Any = libyang.Context

    class Deferred(context):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, explicit_compile=True, **kwargs)

    module.libyang = _With(libyang, Context=Deferred)
    own_fix = module.fix_escapes
    module.fix_escapes = fix_escapes
    try:
        ctx, _, _ = module.load_context(str(yang_dir))
    finally:
        module.libyang = libyang
        module.fix_escapes = own_fix
    ctx.compile_schema()
    return ctx


#: what the validator's `fix_escapes` walks character by character: comments, single- and
#: double-quoted strings (RFC 7950 6.1.3); the rest is copied as it is
_TOKEN = re.compile(r"//[^\n]*|/\*.*?(?:\*/|\Z)|'[^']*(?:'|\Z)"
                    r'|"(?:\\[nt"\\]|\\|[^"\\])*(?:"|\Z)', re.S)
#: a backslash in a double-quoted string, with the character RFC 7950 lets follow it if any
_ESCAPE = re.compile(r'\\([nt"\\])?')


def fix_escapes(text: str) -> tuple[str, int]:
    """The validator's `fix_escapes` (each backslash in a double-quoted string that starts an
    escape RFC 7950 does not define is doubled) with the same result, by regular expression:
    its loop over each character of the 12 MB of Juniper's modules was four fifths of the
    load's two seconds. tests/lab/test_junos_yang.py compares both on every module."""
    fixes = 0

    def escape(match: re.Match[str]) -> str:
        nonlocal fixes
        if match.group(1) is not None:
            return match.group(0)
        fixes += 1
        return "\\\\"

    def token(match: re.Match[str]) -> str:
        text = match.group(0)
        return _ESCAPE.sub(escape, text) if text[0] == '"' and "\\" in text else text

    return _TOKEN.sub(token, text), fixes


class _With:
    """A module seen through `overrides`: the validator reads `libyang.Context` and
    `libyang.LibyangError` through one name."""

    def __init__(self, base: ModuleType, **overrides: Any) -> None:
        self._base = base
        self.__dict__.update(overrides)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


@functools.cache
def _cached(folder: str) -> JunosYang:
    return JunosYang(Path(folder))


def _load_validator(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("validate_junos", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
