"""Hostile inputs to the command line: devices, FIFOs, sparse files, /proc, unwritable and
missing places, files that are directories, control characters, Ctrl-C. Each ends with exit
1 or 2, one line naming the problem, no traceback, and nothing lost.

(Control characters in the intent's free-text fields are the bad-intent corpus's cases; the
connect file's are tests/deploy/test_targets.py's.)
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from netcfg.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "inventories" / "example"
MULTIVENDOR = ROOT / "inventories" / "multivendor"


def inventory_with(tmp_path: Path, make: Callable[[Path], None], name: str = "fabric.yaml"
                   ) -> Path:
    """A copy of the example whose `name` is replaced by what `make(path)` puts there."""
    inv = tmp_path / "inv"
    shutil.copytree(EXAMPLE, inv)
    target = inv / name
    target.unlink()
    make(target)
    return inv


def fifo(path: Path) -> None:
    os.mkfifo(path)


def link_to(source: str) -> Callable[[Path], None]:
    return lambda path: path.symlink_to(source)


def sparse(path: Path) -> None:
    with open(path, "wb") as fh:
        fh.truncate(200 * 2**30)


def directory(path: Path) -> None:
    path.mkdir()


HOSTILE_FILES = {
    "dev-zero": link_to("/dev/zero"),
    "dev-urandom": link_to("/dev/urandom"),
    "fifo": fifo,
    "sparse-200g": sparse,
    "directory": directory,
    "proc-self-mem": link_to("/proc/self/mem"),
    "proc-kcore": link_to("/proc/kcore"),
    "dangling-symlink": link_to("/nonexistent/fabric.yaml"),
}


def cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)
    return result.exit_code, result.output


def assert_one_problem(code: int, output: str, *needles: str) -> None:
    assert code in (1, 2), output
    assert "Traceback" not in output, output
    # click's usage preamble of an exit-2 error is not part of the problem's line
    lines = [line for line in output.splitlines()
             if line.strip() and not line.startswith(("Usage: ", "Try '"))]
    problem = [line for line in lines if all(n in line for n in needles)]
    assert problem, output
    # the problem's line, and at most the report's frame around it (lint groups by rule and
    # ends with a count)
    assert len(lines) <= 4, output


@pytest.mark.parametrize("kind", sorted(HOSTILE_FILES))
@pytest.mark.parametrize("command", ["validate", "lint", "deadlock"])
def test_a_hostile_fabric_file_is_refused_in_one_line(tmp_path, kind, command):
    inv = inventory_with(tmp_path, HOSTILE_FILES[kind])
    code, output = cli(command, str(inv))
    assert_one_problem(code, output, "fabric.yaml")


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "sparse-200g", "directory"])
def test_a_hostile_devices_file_is_refused_in_one_line(tmp_path, kind):
    inv = inventory_with(tmp_path, HOSTILE_FILES[kind], name="devices.yaml")
    out = tmp_path / "out"
    code, output = cli("render", str(inv), "--out", str(out))
    assert_one_problem(code, output, "devices.yaml")
    assert not out.exists()


@pytest.mark.parametrize("path", ["/dev/null", "/nonexistent/inventory", "/proc/self"])
def test_an_inventory_path_that_is_no_inventory(path):
    code, output = cli("validate", path)
    assert_one_problem(code, output, "")


def _blocked(tmp_path: Path) -> Path:
    blocker = tmp_path / "a-file"
    blocker.write_text("keep me\n")
    return blocker


@pytest.mark.parametrize("args", [
    ("lint", str(EXAMPLE), "--output", "{missing}/report.json"),
    ("schema", "--output", "{missing}/schema.json"),
    ("deadlock", str(EXAMPLE), "--output", "{missing}/report.txt"),
    ("graph", str(EXAMPLE), "--out", "{missing}/fabric.svg"),
    ("validate", str(EXAMPLE), "--output", "{file}/report.json"),
    ("render", str(EXAMPLE), "--out", "{file}/configs"),
    ("render", str(EXAMPLE), "--out", "{file}"),
    ("render", str(EXAMPLE), "--out", "/proc/netcfg-configs"),
    ("lint", str(EXAMPLE), "--output", "/proc/netcfg-report.json"),
], ids=lambda a: " ".join(a[:1] + a[-2:-1]))
def test_an_output_path_that_cannot_be_written_is_one_line(tmp_path, args):
    blocker = _blocked(tmp_path)
    concrete = [a.format(missing=tmp_path / "missing", file=blocker) for a in args]
    code, output = cli(*concrete)
    assert_one_problem(code, output, "")
    assert blocker.read_text() == "keep me\n"
    assert not (tmp_path / "missing").exists()


def test_an_output_that_is_a_directory_is_a_usage_error(tmp_path):
    code, output = cli("lint", str(EXAMPLE), "--output", str(tmp_path))
    assert code == 2 and "Traceback" not in output


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "directory", "sparse-200g"])
def test_a_hostile_connect_file_is_refused_before_any_connection(tmp_path, kind):
    path = tmp_path / "devices.yaml"
    HOSTILE_FILES[kind](path)
    code, output = cli("diff", str(MULTIVENDOR), "--connect", str(path),
                       "--state", str(tmp_path / "state"))
    assert_one_problem(code, output, "devices")


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "dangling-symlink", "sparse-200g"])
@pytest.mark.parametrize("option, says", [("--ca-file", "CA file"),
                                          ("--known-hosts", "known_hosts file")])
def test_a_hostile_trust_file_is_refused_before_any_connection(tmp_path, kind, option, says):
    path = tmp_path / "trust"
    HOSTILE_FILES[kind](path)
    code, output = cli("diff", str(EXAMPLE), option, str(path), "--state",
                       str(tmp_path / "state"), env={"NETCFG_PASSWORD": "not-used"})
    assert_one_problem(code, output, says, str(path))


def test_a_push_state_below_a_file_is_one_line(tmp_path):
    blocker = _blocked(tmp_path)
    code, output = cli("push", str(EXAMPLE), "--dry-run", "--state", str(blocker / "state"),
                       env={"NETCFG_PASSWORD": "not-used"})
    assert_one_problem(code, output, "")
    assert blocker.read_text() == "keep me\n"


#: a validation finding as the CLI prints it: severity, where, message [RULE]
FINDING_LINE = re.compile(r"(warning|error|info): .* \[[A-Z]+\d+\]$")


#: `python -m netcfg`, but the child says on a pipe once netcfg's Ctrl-C handler is in place
#: (netcfg/entry.py installs it first thing; before that only the interpreter's own start-up
#: runs, which no program can make print one line): the signal then lands `after` seconds
#: into the command however slowly a loaded machine started the interpreter
_READY_THEN_NETCFG = """
import os, signal, sys
import netcfg.entry as entry
signal.signal(signal.SIGINT, entry._raise_interrupted)
os.write(int(sys.argv[1]), b"ready")
sys.argv = ["netcfg", *sys.argv[2:]]
entry.main()
"""


def _interrupt(args: list[str], after: float) -> subprocess.CompletedProcess[str]:
    ready, told = os.pipe()
    proc = subprocess.Popen([sys.executable, "-c", _READY_THEN_NETCFG, str(told), *args],
                            cwd=ROOT, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, pass_fds=(told,))
    os.close(told)
    with os.fdopen(ready, "rb") as pipe:
        assert pipe.read(5) == b"ready", "the child ended before netcfg's handler was in place"
    time.sleep(after)  # anywhere inside the command: loading, validating or the work itself
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.parametrize("after", [0.5, 2.0])
@pytest.mark.parametrize("command", ["render", "deadlock", "lint"])
def test_ctrl_c_ends_a_long_command_in_one_line_and_writes_nothing(tmp_path, command, after):
    out = tmp_path / "configs"
    args = [command, str(ROOT / "inventories" / "gpu32768")]
    if command == "render":
        args += ["--out", str(out)]
    done = _interrupt(args, after)
    if done.returncode == 0:  # finished before the signal: nothing to check
        return
    assert done.returncode in (1, 130), done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    # the findings validation printed before the signal (as many as it got to), then one line
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines and lines[-1] == "netcfg: interrupted", done.stderr
    assert all(FINDING_LINE.match(line) for line in lines[:-1]), done.stderr
    assert not out.exists() or not any(out.iterdir())


#: `netcfg validate` where the validation is where Ctrl-C lands, and the library running at
#: that moment hands the interrupt back as its own error, as pydantic-core does when it lands
#: inside a model's schema build ("SchemaError: Error building ... validator: Interrupted:",
#: seen at start-up on a loaded machine)
_WRAPPED_INTERRUPT = """
import os, signal, sys, time
import netcfg.validate

def validate(*args, **kwargs):
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)  # the handler runs here at the latest
    except BaseException as exc:
        raise ValueError(f"Error building validator: {type(exc).__name__}:") from None
    raise AssertionError("no SIGINT")

netcfg.validate.validate = validate
sys.argv = ["netcfg", "validate", sys.argv[1]]
from netcfg.entry import main
main()
"""


def test_ctrl_c_that_a_library_wraps_in_its_own_error_still_ends_as_interrupted():
    done = subprocess.run([sys.executable, "-c", _WRAPPED_INTERRUPT,
                           str(ROOT / "inventories" / "example")],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert (done.returncode, done.stderr, done.stdout) == (130, "netcfg: interrupted\n", "")


def _netcfg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("where,needle", [
    # a name template with a line break made device names with one
    ("naming", "name template 'spine\\n{index}' makes 'spine\\n1', not a valid name"),
    # a devices.yaml key with a line break inside, and one ending in a line break (a name
    # was matched from its start only, so 'spine1\n' passed)
    ("inside", "'spine\\n1' is not a valid name"),
    ("trailing", "'spine1\\n' is not a valid name"),
])
def test_a_device_name_with_a_line_break_is_refused_in_one_line(tmp_path, where, needle):
    inv = tmp_path / "inv"
    shutil.copytree(EXAMPLE, inv)
    if where == "naming":
        fabric = inv / "fabric.yaml"
        fabric.write_text(fabric.read_text().replace(
            "  kind: rail_optimized\n",
            '  kind: rail_optimized\n  naming: {spine: "spine\\n{index}"}\n', 1))
    else:
        devices = inv / "devices.yaml"
        key = '"spine\\n1"' if where == "inside" else '"spine1\\n"'
        devices.write_text(devices.read_text().replace("  spine1:", f"  {key}:", 1))
    got = _netcfg("validate", str(inv))
    assert got.returncode == 1, got.stdout + got.stderr
    findings = got.stdout.splitlines()
    assert len(findings) == 1 and needle in findings[0], got.stdout
    assert findings[0].startswith("error: ") and findings[0].endswith("]")
    assert got.stderr == "1 error(s)\n"
