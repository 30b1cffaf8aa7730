"""The failure sweep on a Dask cluster gives the serial sweep's report, and the CLI's exits.

A real `distributed.LocalCluster` of two worker processes (one for the module), as
`netcfg deadlock --workers 2` starts; the serial run is the reference, on fabrics whose
sweeps find nothing and fabrics whose sweeps find cycles (their first cycle explained).
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from deadlock_fabrics import small_rail

from netcfg.cli import main
from netcfg.deadlock import cluster, scenario, sweep
from netcfg.deadlock.check import check
from netcfg.routing.network import from_edges
from netcfg.routing.setup import RoutingSetup
from netcfg.validate import validate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "inventories" / "example"
C01 = ROOT / "tests" / "deadlock_cases" / "C01_leafspine_updown_intact"
BOUNCE = "bounce_on_failure"


@pytest.fixture(scope="module")
def pool():
    with cluster.pool(workers=2) as p:
        assert p.workers == 2
        yield p


def fabric(path: Path):
    v = validate(path)
    assert v.ok, [f.text() for f in v.findings]
    return v.fabric


def same(serial: dict, distributed: dict) -> None:
    serial.pop("seconds")
    distributed.pop("seconds")
    assert distributed == serial


@pytest.mark.parametrize("path, kw", [
    (EXAMPLE, {"failures": 1, "model": BOUNCE, "symmetry": False}),
    (EXAMPLE, {"failures": 2, "model": BOUNCE}),
    (EXAMPLE, {"failures": 1, "model": "shortest_path", "symmetry": False, "budget": 64}),
    (ROOT / "inventories" / "multivendor", {"failures": 1, "model": BOUNCE}),
    (C01, {"failures": 2, "model": BOUNCE}),
    (C01, {"failures": 1, "model": "shortest_path"}),
], ids=["example-bounce-1-every", "example-bounce-2-sym", "example-shortest-budget",
        "multivendor-bounce-1", "c01-bounce-2-cyclic", "c01-shortest-1"])
def test_the_cluster_gives_the_serial_report(pool, path: Path, kw: dict):
    f = fabric(path)
    serial = check(f, **kw).as_dict()
    distributed = check(f, pool=pool, **kw).as_dict()
    same(serial, distributed)


def test_cycles_found_on_the_cluster_are_explained_as_serially(pool, tmp_path: Path):
    f = fabric(small_rail(tmp_path))
    serial = check(f, failures=2, model=BOUNCE).as_dict()
    assert serial["verdict"] == "deadlock" and serial["sweep"]["cyclic_sets"] > 0
    assert serial["cycles"][0]["witnesses"]
    assert "DLK002" in {f["rule"] for f in serial["findings"]}
    same(serial, check(f, failures=2, model=BOUNCE, pool=pool).as_dict())


def leaf_spine(leaves: int, spines: int):
    nodes = {f"T{i}": 1 for i in range(leaves)} | {f"S{j}": 2 for j in range(spines)}
    return from_edges(nodes, [(f"T{i}", f"S{j}", True) for i in range(leaves)
                              for j in range(spines)])


@pytest.mark.parametrize("seed", range(4))
def test_sweeps_with_failed_links_and_rewrites_match(pool, seed: int):
    """Straight `sweep.run` on leaf-spines with links already failed (and Tagger tags on
    some): the cyclic sets, their order and weights as the serial loop finds them."""
    rng = random.Random(seed)
    net = leaf_spine(rng.randint(3, 5), rng.randint(2, 3))
    setup = RoutingSetup(model=BOUNCE, max_bounces=rng.choice([1, 2]))
    if seed % 2:
        setup.rewrite, setup.tags_to_priorities, setup.pfc_priorities = (
            "tag_on_bounce", [3, 4], {3, 4})
    links = range(len(net.links()))
    base = tuple(sorted(rng.sample(links, 1)))
    if scenario.run(net, setup, base).cyclic:
        pytest.skip("the start state is already cyclic")
    serial = sweep.run(net, setup, 2, base)
    remote = sweep.run(net, setup, 2, base, pool=pool)
    assert (remote.cyclic, remote.checked, remote.represented, remote.cyclic_represented,
            remote.method) == (serial.cyclic, serial.checked, serial.represented,
                               serial.cyclic_represented, serial.method)
    want = [c for c in itertools.combinations([k for k in links if k not in base], 2)
            if scenario.run(net, setup, base + c).cyclic]
    assert remote.cyclic == want  # and both are what rebuilding every state finds


def test_the_checks_run_on_the_workers(pool):
    """Dask's own task stream: every chunk ran on a worker of the cluster."""
    from distributed import get_task_stream

    net, setup = leaf_spine(4, 2), RoutingSetup(model=BOUNCE)
    with get_task_stream(pool.client) as stream:
        sw = sweep.run(net, setup, 2, pool=pool)
    chunks = [t for t in stream.data if "check_chunk" in str(t["key"])]
    # 28 sets, 4 chunks for each of 2 workers
    assert sw.checked == 28 and len(chunks) == 8
    workers = pool.client.scheduler_info(n_workers=-1)["workers"]
    assert {t["worker"] for t in chunks} <= set(workers)


def test_progress_reaches_the_number_of_sets(pool):
    seen: list[tuple[int, int]] = []
    sw = sweep.run(leaf_spine(4, 2), RoutingSetup(model=BOUNCE), 2, pool=pool,
                   progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (sw.checked, sw.checked) == (28, 28)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "netcfg", "deadlock", *args],
                          capture_output=True, text=True, timeout=300)


def test_cli_workers_give_the_serial_json_and_exit_codes():
    args = [str(C01), "--model", BOUNCE, "--failures", "2", "--format", "json"]
    serial = run_cli(*args)
    distributed = run_cli(*args, "--workers", "2")
    assert (serial.returncode, distributed.returncode) == (1, 1), distributed.stderr
    same(json.loads(serial.stdout), json.loads(distributed.stdout))
    clean = run_cli(str(EXAMPLE), "--model", BOUNCE, "--failures", "1", "--workers", "2")
    assert clean.returncode == 0 and "verdict: deadlock_free" in clean.stdout, clean.stdout
    assert clean.stderr == "", clean.stderr  # no cluster chatter (logs, dashboard port)


def test_cli_on_a_running_scheduler(pool):
    address = pool.client.scheduler.address
    args = ["deadlock", str(C01), "--model", BOUNCE, "--failures", "2", "--format", "json"]
    runner = CliRunner()
    serial = runner.invoke(main, args)
    remote = runner.invoke(main, args + ["--scheduler", address])
    assert (serial.exit_code, remote.exit_code) == (1, 1), remote.output
    same(json.loads(serial.stdout), json.loads(remote.stdout))


def test_cli_refuses_an_unreachable_scheduler_in_one_line(monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    res = CliRunner().invoke(main, ["deadlock", str(C01), "--model", BOUNCE, "--failures", "1",
                                    "--scheduler", "tcp://127.0.0.1:9"])
    assert res.exit_code == 2
    assert res.stderr.startswith("netcfg: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.output


@pytest.mark.parametrize("address, said", [
    ("foo", "not a Dask scheduler address: foo"),
    ("udp://127.0.0.1:9", "not a Dask scheduler address: udp://127.0.0.1:9"),
    ("tcp://127.0.0.1:x", "not a Dask scheduler address: tcp://127.0.0.1:x")])
def test_cli_refuses_a_malformed_scheduler_address_in_one_line(address: str, said: str):
    res = CliRunner().invoke(main, ["deadlock", str(C01), "--model", BOUNCE, "--failures", "1",
                                    "--scheduler", address])
    assert res.exit_code == 2 and res.stderr.startswith(f"netcfg: {said}"), res.output
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.output


def test_cli_refuses_a_scheduler_without_workers():
    """The sets would wait for ever: exit 2 with one line instead."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as empty:
        res = CliRunner().invoke(main, ["deadlock", str(C01), "--model", BOUNCE,
                                        "--failures", "1", "--scheduler", empty.scheduler_address])
    assert res.exit_code == 2, res.output
    assert res.stderr == f"netcfg: the Dask scheduler at {empty.scheduler_address} has no " \
        "workers\n"


@pytest.mark.parametrize("extra", [["--workers", "2", "--scheduler", "tcp://127.0.0.1:9"],
                                   ["--scheduler", "tcp://h:1\nx"], ["--workers", "0"]])
def test_cli_usage_errors(extra: list[str]):
    res = CliRunner().invoke(main, ["deadlock", str(C01), "--failures", "1", *extra])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_a_sweep_modulo_symmetry_on_the_cluster_gives_the_serial_report(pool, tmp_path: Path,
                                                                       monkeypatch):
    """The driver decides to sweep modulo symmetry (threshold 0 here, as on a large fabric);
    the checker it ships decides each set on a worker the same way."""
    monkeypatch.setattr(sweep, "QUOTIENT_CLASSES", 0)
    f = fabric(small_rail(tmp_path))
    serial = check(f, failures=2, model=BOUNCE).as_dict()
    assert serial["sweep"]["method"].startswith("quotient") and serial["verdict"] == "deadlock"
    same(serial, check(f, failures=2, model=BOUNCE, pool=pool).as_dict())
