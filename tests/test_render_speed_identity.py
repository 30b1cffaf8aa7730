"""Rendering faster must not change a byte: every switch and host file of gpu2048 and
multivendor is compared, by SHA-256, with the digests in render_speed_digests.json beside this
test.

Where the digests come from (the outside truth): they were written by the code of the commit
before the render speed work (the plain one-device-at-a-time renderer, e8419d9), not by the
code under test. The list is regenerated only on purpose, after a deliberate change of
rendered output (a NOS's goldens changing with it), with
`NETCFG_UPDATE_RENDER_DIGESTS=1 pytest tests/test_render_speed_identity.py`, and the diff of
the JSON read before committing.

Both ways to the files are held to the same bytes: `api.configs` in this process, and
`netcfg render --out` which renders large fabrics on a process pool and writes the files.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from netcfg import api

ROOT = Path(__file__).resolve().parent.parent
DIGESTS = Path(__file__).with_name("render_speed_digests.json")
INVENTORIES = ("gpu2048", "multivendor")
UPDATE = os.environ.get("NETCFG_UPDATE_RENDER_DIGESTS") == "1"


def digests(files: dict[str, str]) -> dict[str, str]:
    return {name: hashlib.sha256(text.encode("utf-8")).hexdigest()
            for name, text in sorted(files.items())}


def on_disk(root: Path) -> dict[str, str]:
    """Every file below `root` but netcfg's manifest, by the same digest."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".netcfg-manifest"}


@pytest.fixture(scope="module")
def expected() -> dict[str, dict[str, str]]:
    if UPDATE:
        fresh = {inv: digests(api.configs(api.load(ROOT / "inventories" / inv)))
                 for inv in INVENTORIES}
        DIGESTS.write_text(json.dumps(fresh, indent=1, sort_keys=True) + "\n")
    data: dict[str, dict[str, str]] = json.loads(DIGESTS.read_text())
    return data


@pytest.mark.parametrize("inventory", INVENTORIES)
def test_api_configs_are_byte_identical(inventory, expected):
    files = api.configs(api.load(ROOT / "inventories" / inventory))
    got = digests(files)
    assert sorted(got) == sorted(expected[inventory])  # the same files, no more, no fewer
    changed = [name for name in got if got[name] != expected[inventory][name]]
    assert not changed, f"{len(changed)} files differ, first: {changed[:5]}"


def test_render_out_writes_the_same_bytes(tmp_path, expected):
    """gpu2048 through the command, in a process of its own as a user runs it (its 96
    switches go to the pool where two cores are free): the files on disk are the ones
    listed, byte for byte."""
    out = tmp_path / "configs"
    r = run_cli("render", str(ROOT / "inventories" / "gpu2048"), "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    got = on_disk(out)
    assert sorted(got) == sorted(expected["gpu2048"])
    changed = [name for name in got if got[name] != expected["gpu2048"][name]]
    assert not changed, f"{len(changed)} files differ, first: {changed[:5]}"


def test_server_subnets_and_blocks_match_pythons_ipaddress():
    """The plan's integer collapse of server subnets against Python's ipaddress (the truth:
    IPv4Interface(...).network, sorted, and collapse_addresses), on random address sets with
    mixed prefix lengths, overlaps, duplicates and neighbours that merge."""
    import ipaddress
    import random

    from netcfg.topology.prefixes import subnets_and_blocks

    rng = random.Random(42)
    for _ in range(300):
        base = rng.choice([0, 10 << 24, (192 << 24) | (168 << 16), 0xFFFFFF00])
        addresses = []
        for _ in range(rng.randint(0, 40)):
            n = (base + rng.randint(0, 511)) & 0xFFFFFFFF
            addresses.append(f"{ipaddress.IPv4Address(n)}/{rng.choice([24, 28, 30, 31, 31, 32])}")
        nets = sorted({ipaddress.IPv4Interface(a).network for a in addresses})
        want = ([str(n) for n in nets], [str(n) for n in ipaddress.collapse_addresses(nets)])
        assert subnets_and_blocks(addresses) == want, addresses


#: run in a process of its own: the test runner's worker runs threads of its own, beside
#: which the renderer (rightly) never forks
POOLED = """
import hashlib, json, sys
from pathlib import Path
from netcfg import api
from netcfg.render.engine import render_files
v = api.load(Path(sys.argv[1])).validation
switches = sorted(v.fabric.switches(), key=lambda d: d.name)
steps = []
files = render_files(v.fabric, v.physics, switches, workers=2,
                     progress=lambda done, total: steps.append(done))
print(json.dumps({"steps": steps, "names": list(files),
                  "digests": {n: hashlib.sha256(t.encode()).hexdigest()
                              for n, t in files.items()}}))
"""

FAILING = """
import sys, jinja2
from netcfg.cli import main
from netcfg.render import engine
real = engine.render_plan
class Unrebuildable(Exception):  # pickles, but cannot be rebuilt from its args
    def __init__(self, what, where):
        super().__init__(f"{what} at {where}")
def failing(plan):
    if plan.hostname == "spine7":
        if sys.argv[3] == "template":
            raise jinja2.UndefinedError("'c' has no attribute 'boom'")
        raise Unrebuildable("boom", plan.hostname)
    return real(plan)
engine.render_plan = failing
engine.workers_available = lambda: 2
main(["render", sys.argv[1], "--out", sys.argv[2]])
"""


def _python(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def test_the_pool_renders_what_one_process_renders(expected):
    """Two forked workers (whatever the machine's cores) give the same files in the same
    order as one process."""
    r = _python(POOLED, str(ROOT / "inventories" / "gpu2048"))
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    switches = len([n for n in got["names"] if not n.startswith("hosts/")])
    assert got["steps"][-1] == switches and got["steps"][0] > 1  # chunks came back: pooled
    assert got["names"] == list(api.configs(api.load(ROOT / "inventories" / "gpu2048")))
    assert got["digests"] == expected["gpu2048"]


@pytest.mark.parametrize("kind", ["template", "unrebuildable"])
def test_a_device_failing_in_a_worker_writes_nothing(tmp_path, kind):
    """A failure on one switch, raised inside a forked worker, reaches the command: it names
    the failure and leaves DIR as it was (all or nothing, as without the pool). An exception
    the parent could not rebuild from its pickle (which kills a pool's result thread and hung
    the pool) arrives as its type and words."""
    out = tmp_path / "configs"
    r = _python(FAILING, str(ROOT / "inventories" / "gpu2048"), str(out), kind)
    assert r.returncode == 1, r.stdout + r.stderr
    said = r.stderr + r.stdout
    assert "boom" in said
    if kind == "template":
        assert "render failed" in said
    else:
        assert "Unrebuildable" in said and "Traceback" not in said
    assert not out.exists()


def test_a_threaded_caller_renders_in_its_own_process():
    """The test runner's worker runs threads (not all of them Python's): the renderer must
    see them and not fork beside them."""
    import threading

    from netcfg.render.engine import _threaded

    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert _threaded()
    finally:
        stop.set()
        t.join()
