"""A corpus of broken intents, each run through the real `netcfg validate` CLI.

Every directory under `tests/bad_intents/` is a small but complete inventory with one thing
broken. The first line of its `fabric.yaml` (or `devices.yaml` when there is no fabric.yaml)
says what `validate` must report:

    # expect: RULE FILE:LINE:COL PATH "MESSAGE SUBSTRING"  # xfail: why it fails today

FILE is relative to the case directory; the CLI runs with the corpus directory as working
directory and the case name as PATH argument, so findings name `NN-case/FILE` exactly. PATH is
the dotted key path (`-` when the finding has none; shell-quoted when it holds a space). A
trailing `# xfail: ...` marks a known netcfg bug: the test keeps asserting the correct
behaviour and is a strict xfail until the bug is fixed (then drop the marker).

Files that cannot sensibly be committed (invalid UTF-8, raw control bytes) are written into
tmp_path by `GENERATED` below and checked the same way.

Most runs go through click's CliRunner (fast, in-process); `SUBPROCESS_CASES` also run as a
real subprocess to prove no traceback ever reaches the user.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from netcfg.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "bad_intents"
_HEADER = re.compile(r"^# expect: (?P<spec>.*?)(?:\s+# xfail: (?P<xfail>.+))?$")
_LOC = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+)$")


@dataclass(frozen=True)
class Expect:
    rule: str
    file: str  # relative to the case directory
    line: int
    column: int
    path: str | None
    message: str
    xfail: str | None = None


def parse_header(text: str) -> Expect:
    m = _HEADER.match(text.rstrip("\r\n"))
    assert m, f"bad expectation header: {text!r}"
    rule, loc, path, message = shlex.split(m["spec"])
    lm = _LOC.match(loc)
    assert lm, f"bad location {loc!r} in header"
    return Expect(rule, lm["file"], int(lm["line"]), int(lm["col"]),
                  None if path == "-" else path, message, m["xfail"])


def header_file(case: Path) -> Path:
    fabric = case / "fabric.yaml"
    return fabric if fabric.exists() else case / "devices.yaml"


def case_dirs() -> list[Path]:
    return sorted(p for p in CORPUS.iterdir() if p.is_dir())


def expectation(case: Path) -> Expect:
    with header_file(case).open(encoding="utf-8") as fh:
        return parse_header(fh.readline())


def _params() -> list:
    out = []
    for case in case_dirs():
        exp = expectation(case)
        marks = [pytest.mark.xfail(strict=True, reason=exp.xfail)] if exp.xfail else []
        out.append(pytest.param(case.name, id=case.name, marks=marks))
    return out


# ---------------------------------------------------------------------------- running the CLI


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()  # click >= 8.2 keeps stderr apart by default


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str
    crash: str | None  # repr of an exception that escaped the CLI (in-process runs)


def run_inprocess(cwd: Path, *args: str) -> Run:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        r = _runner().invoke(main, list(args), catch_exceptions=True)
    finally:
        os.chdir(old)
    crash = None
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        crash = f"{type(r.exception).__name__}: {r.exception}"[:500]
    stderr = r.stderr if r.stderr_bytes is not None else ""
    return Run(r.exit_code, r.stdout, stderr, crash)


def run_subprocess(cwd: Path, *args: str) -> Run:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    r = subprocess.run([sys.executable, "-m", "netcfg.cli", *args], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=120)
    return Run(r.returncode, r.stdout, r.stderr, None)


def check(cwd: Path, name: str, exp: Expect, runner=run_inprocess) -> None:
    """Run validate (json, then text) on cwd/name and assert the expected finding."""
    r = runner(cwd, "validate", name, "--format", "json")
    assert r.crash is None, f"validate crashed: {r.crash}"
    for stream in (r.stdout, r.stderr):
        assert "Traceback" not in stream, stream[-2000:]
    assert r.exit_code == 1, f"exit {r.exit_code}\n{r.stdout}\n{r.stderr}"
    report = json.loads(r.stdout)
    assert report["ok"] is False
    want_file = f"{name}/{exp.file}"
    found = report["findings"]
    hit = [f for f in found
           if f["rule"] == exp.rule and f["file"] == want_file and f["line"] == exp.line
           and f["column"] == exp.column and f["path"] == exp.path
           and exp.message in f["message"]]
    shown = "\n".join(f"  {f['rule']} {f['file']}:{f['line']}:{f['column']} {f['path']} "
                      f"{f['message']!r}" for f in found)
    assert hit, (f"expected {exp.rule} {want_file}:{exp.line}:{exp.column} {exp.path} "
                 f"{exp.message!r}\ngot:\n{shown}")

    t = runner(cwd, "validate", name)
    assert t.crash is None, f"validate (text) crashed: {t.crash}"
    for stream in (t.stdout, t.stderr):
        assert "Traceback" not in stream, stream[-2000:]
    assert t.exit_code == 1
    prefix = f"{want_file}:{exp.line}:{exp.column}: "
    lines = [ln for ln in t.stdout.splitlines() if prefix in ln and f"[{exp.rule}]" in ln]
    assert lines, f"no text line with {prefix!r} and [{exp.rule}] in:\n{t.stdout}"
    if exp.path:
        assert any(f"{prefix}{exp.path}: " in ln for ln in lines), lines


# ---------------------------------------------------------------------------- the corpus


def test_corpus_is_well_formed():
    cases = case_dirs()
    assert len(cases) >= 45
    numbers = [c.name.split("-", 1)[0] for c in cases]
    assert all(re.fullmatch(r"\d{2,3}", n) for n in numbers), numbers
    assert len(set(numbers)) == len(numbers), "case numbers must be unique"
    for case in cases:
        expectation(case)  # every case carries a parseable header


@pytest.mark.parametrize("name", _params())
def test_bad_intent(name: str):
    check(CORPUS, name, expectation(CORPUS / name))


#: Also run as a real `python -m netcfg.cli` subprocess: no traceback may reach the user.
SUBPROCESS_CASES = [
    "01-yaml-syntax-error",
    "04-alias-bomb",
    "07-missing-fabric-yaml",
    "08-top-level-list",
    "42-leaf-ports-exceeded",
    "62-explicit-no-link-defaults-undefined-device",
    "65-device-in-both-files",
    "76-deep-nesting",
]


def _subprocess_params() -> list:
    out = []
    for name in SUBPROCESS_CASES:
        exp = expectation(CORPUS / name)
        marks = [pytest.mark.xfail(strict=True, reason=exp.xfail)] if exp.xfail else []
        out.append(pytest.param(name, id=name, marks=marks))
    return out


@pytest.mark.parametrize("name", _subprocess_params())
def test_bad_intent_subprocess(name: str):
    check(CORPUS, name, expectation(CORPUS / name), runner=run_subprocess)


# ---------------------------------------------------------------------------- generated bytes

_EXAMPLE = (CORPUS / "69-credential-without-password-source" / "fabric.yaml")


def _base_bytes() -> bytes:
    """A valid fabric.yaml body (the corpus base with its header and the break undone)."""
    text = _EXAMPLE.read_text(encoding="utf-8").split("\n", 1)[1]
    text = text.replace("    username: admin\n",
                        "    username: admin\n    password_env: NETCFG_PASSWORD\n")
    return text.encode()


_DESC = b"  description: 256-GPU rail-optimized RoCEv2 training fabric\n"

#: name -> (bytes replacing the fabric description line, expectation). Line 4 of the file.
GENERATED = {
    "g1-non-utf8": (
        b"  description: 256-GPU fabric caf\xe9\n",
        Expect("YAML002", "fabric.yaml", 4, 34, None, "file is not valid UTF-8 (byte 0xe9)"),
    ),
    "g2-non-utf8-after-multibyte": (
        "  description: Zürich fabric ".encode() + b"caf\xe9\n",
        # columns count characters everywhere else (PyYAML marks); 'ü' is one column
        Expect("YAML002", "fabric.yaml", 4, 33, None, "file is not valid UTF-8 (byte 0xe9)"),
    ),
    "g3-raw-control-character": (
        b"  description: 256-GPU\x07fabric\n",
        Expect("YAML003", "fabric.yaml", 4, 23, None, "character '\\x07' is not allowed in YAML"),
    ),
}


def _generated_params() -> list:
    out = []
    for name, (_, exp) in GENERATED.items():
        marks = [pytest.mark.xfail(strict=True, reason=exp.xfail)] if exp.xfail else []
        out.append(pytest.param(name, id=name, marks=marks))
    return out


@pytest.mark.parametrize("name", _generated_params())
def test_bad_bytes(name: str, tmp_path: Path):
    line, exp = GENERATED[name]
    base = _base_bytes()
    assert base.count(_DESC) == 1 and base.splitlines(keepends=True)[2] == _DESC
    case = tmp_path / name
    case.mkdir()
    (case / "fabric.yaml").write_bytes(b"# generated\n" + base.replace(_DESC, line))
    check(tmp_path, name, exp)
