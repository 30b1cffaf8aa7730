"""The twin: real FRR routers in network namespaces carry ICMP between every pair of server
NICs. Expected figures are arithmetic on the inventories' topology (example: 32 servers x 8
NICs, one NIC per rail, 8 rail leaves with 32 server ports each, under 4 spines;
multivendor: 2 pods of 16 servers x 8 NICs and 8 rail leaves under 4 spines each, under 8
cores), not netcfg's own helpers.

In three parts: the twin on whole fabrics (and `verify --twin`); what it catches (designs and
files whose routing does not join every NIC to every other); a twin kept running, and twins
interrupted."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "inventories" / "example"
MULTIVENDOR = ROOT / "inventories" / "multivendor"
NICS = 32 * 8
NEIGH = Path("/proc/sys/net/ipv4/neigh/default")
#: how often a router may answer a sender "net unreachable" (jiffies; host-wide)
ERROR_COST = Path("/proc/sys/net/ipv4/route/error_cost")


def _can_run() -> str | None:
    if os.geteuid() != 0:
        return "needs root for network namespaces"
    if not Path("/usr/lib/frr/bgpd").is_file() or shutil.which("vtysh") is None:
        return "needs FRR (apt install frr)"
    if shutil.which("ping") is None:  # a test pings inside a kept twin, as docs/twin.md shows
        return "needs ping (apt install iputils-ping)"
    return None


_WHY = _can_run()
if _WHY is not None and os.environ.get("NETCFG_REQUIRE_TWIN"):
    raise RuntimeError(f"the twin tests are required here but cannot run: {_WHY}")
if _WHY is not None:
    pytest.skip(_WHY, allow_module_level=True)

# pytest runs with `--dist loadfile` (pyproject.toml): one worker runs every test of this file
# in turn. Twins take the machine's one twin lock anyway, so twin tests in several files would
# only wait for each other on workers the rest of the suite could use; and a kept twin (which
# outlives its process) must not be seen by a twin another worker starts meanwhile.


@pytest.fixture(autouse=True, scope="module")
def _routers_first_on_the_cpu():
    """The twin's FRR daemons keep real timers (BFD, BGP keepalives, the convergence bound)
    while the rest of the suite keeps both cores busy: this file's worker, and every router
    and NIC namespace it starts (they inherit it), runs at a higher priority than the other
    workers while its tests run, so the twin's timing is that of an idle machine and the
    longest chain of the suite does not stretch under the others' load."""
    before = os.getpriority(os.PRIO_PROCESS, 0)
    os.setpriority(os.PRIO_PROCESS, 0, before - 5)
    yield
    os.setpriority(os.PRIO_PROCESS, 0, before)


def host_settings() -> dict[str, str]:
    """The host-wide kernel settings a twin changes while it runs."""
    return {**{p.name: p.read_text() for p in NEIGH.glob("gc_thresh*")},
            "error_cost": ERROR_COST.read_text()}


def leftovers(prefix: str) -> tuple[set[str], set[str], set[int]]:
    """Namespaces, FRR run directories and live FRR daemons whose names start with `prefix`
    (the twin under test; others may run at the same time)."""
    spaces = {n for n in subprocess.run(["ip", "netns", "list"], capture_output=True,
                                         text=True).stdout.split() if n.startswith(prefix)}
    run = Path("/var/run/frr")
    runs = {p.name for p in run.iterdir() if p.name.startswith(prefix)} if run.is_dir() \
        else set()
    daemons = set()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            stat = (proc / "stat").read_text()
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        name, rest = stat.split("(", 1)[1].rsplit(")", 1)
        if name in ("zebra", "bgpd", "staticd", "bfdd") and rest.split()[0] != "Z" \
                and any(a.decode(errors="replace").startswith(prefix) for a in argv):
            daemons.add(int(proc.name))
    return spaces, runs, daemons


def tagged(tag: str) -> str:
    """The start of every name a test's twin creates (NETCFG_TWIN_PREFIX)."""
    return f"nt{tag}{os.getpid() % 10000}"


def twin_env(prefix: str) -> dict[str, str]:
    """The environment of a `netcfg twin` run whose names start with `prefix`."""
    return {**os.environ, "NETCFG_TWIN_PREFIX": prefix}


# ------------------------------------------------------------------ whole fabrics

# The two whole fabrics run without BFD (`--without-bfd`): bfdd of their 256 (example) and
# 384 (multivendor) sessions at 300 ms keeps a core of the 2-core machine busy for as long
# as the twin lives, and what BFD proves (every session both NOS files give BFD is up at the
# files' timers) does not depend on the fabric's size: the twin of rails 2 and 5 below runs
# it for every NOS pairing of the multivendor fabric, the 4-server example below
# for the example's.


def test_every_nic_reaches_every_other_on_the_example():
    """All 256 x 255 pairs, with two leaf-spine cables cut in turn (without BFD: above)."""
    prefix = tagged("a")
    proc = subprocess.run([sys.executable, "-m", "netcfg", "twin", str(EXAMPLE),
                           "--without-bfd", "--format", "json"], capture_output=True,
                          text=True, timeout=600, env=twin_env(prefix))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] and report["switches"] == 12 and report["nics"] == NICS
    assert report["bfd_run"] is False and report["bfd"] == []
    assert report["pairs"] == NICS * (NICS - 1) and report["unreachable"] == []
    assert report["ecmp"] == []
    # two leaf-spine cables failed in turn; the 8 NICs of a server under the cut leaf still
    # reach all 255 others each time
    assert [(f["tier"], f["pairs"], f["unreachable"]) for f in report["failures"]] == [
        ("leaf-spine", 8 * 255, 0)] * 2
    assert all(f["reconverged_s"] is not None and f["restored"] for f in report["failures"])
    assert leftovers(prefix) == (set(), set(), set())  # nothing left behind


def test_every_nic_reaches_every_other_on_the_multivendor_fabric():
    """Three tiers, 2 pods x 16 servers x 8 NICs = 256 NICs; 16 leaves + 2 x 4 spines + 8
    cores = 32 switches. Its 256 NIC cables and 16 x 16 + 8 x 16 fabric cables need 1,280
    neighbour entries, more than Linux's default limit of 1,024 for all namespaces together:
    the twin raises the limit while it runs and puts it back after. Without BFD (above)."""
    prefix = tagged("m")
    limits = host_settings()
    proc = subprocess.run([sys.executable, "-m", "netcfg", "twin", str(MULTIVENDOR),
                           "--without-bfd", "--format", "json"], capture_output=True,
                          text=True, timeout=600, env=twin_env(prefix))
    assert proc.returncode == 0, proc.stdout[:3000] + proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] and report["switches"] == 32 and report["nics"] == 256
    assert report["bfd_run"] is False and report["bfd"] == []
    assert report["pairs"] == 256 * 255 and report["unreachable"] == []
    assert report["ecmp"] == []
    assert [(f["tier"], f["pairs"], f["unreachable"]) for f in report["failures"]] == [
        ("leaf-spine", 8 * 255, 0)] * 2 + [("spine-core", 8 * 255, 0)] * 2
    assert leftovers(prefix) == (set(), set(), set())
    assert host_settings() == limits


def test_a_twin_of_two_rails_keeps_every_switch_above_their_leaves_and_runs_bfd():
    """`--rail 2 --rail 5` of the multivendor fabric: the rail-2 and rail-5 leaves of each pod
    (4: EOS in pod 1; SONiC on rail 2 and Cumulus on rail 5 in pod 2), every spine (2 x 4,
    NX-OS) and every core (8, Junos) = 20 routers; two NICs per server of the 2 x 16 servers
    = 64 NICs, 64 x 63 pairs, crossing the cores between the pods. BFD runs as the NOS files
    state it, so every NOS meets BFD here: every session whose files on both ends state it
    is up at their timers (EOS and Cumulus leaves to the NX-OS spines, the spines to the Junos
    cores; the SONiC leaf states none, CAP011, and its sessions are not asked). A cut's
    nearest NICs are those the twin holds: the rail-2 and rail-5 NICs of the first server
    under the leaf (2 x 63 pairs), also for a spine-core cable, whose spine's first leaf (rail
    1) is not in the twin."""
    prefix = tagged("r")
    proc = subprocess.run([sys.executable, "-m", "netcfg", "twin", str(MULTIVENDOR), "--rail",
                           "2", "--rail", "5", "--failures", "1", "--format", "json"],
                          capture_output=True, text=True, timeout=600, env=twin_env(prefix))
    assert proc.returncode == 0, proc.stdout[:3000] + proc.stderr
    report = json.loads(proc.stdout)
    assert (report["switches"], report["nics"], report["rails"], report["pod"]) == (
        20, 64, [2, 5], None)
    assert report["ok"] and report["pairs"] == 64 * 63 and report["ecmp"] == []
    assert report["bfd_run"] and report["bfd"] == []  # every planned BFD session up
    assert [(f["tier"], f["pairs"], f["unreachable"]) for f in report["failures"]] == [
        ("leaf-spine", 2 * 63, 0), ("spine-core", 2 * 63, 0)]
    assert leftovers(prefix) == (set(), set(), set())


def test_a_slice_that_names_nothing_is_one_line():
    """A rail the pod does not have: exit 2, one line naming the rails it has, nothing built
    (the slices themselves: tests/test_twin_slice.py)."""
    prefix = tagged("s")
    proc = subprocess.run([sys.executable, "-m", "netcfg", "twin", str(MULTIVENDOR), "--pod",
                           "1", "--rail", "9"], capture_output=True, text=True, timeout=120,
                          env=twin_env(prefix))
    assert (proc.returncode, proc.stderr.strip()) == (
        2, "netcfg: no rail 9 in pod 1 (rails: 1-8)")
    assert leftovers(prefix) == (set(), set(), set())


def test_without_root_it_says_so_in_one_line(monkeypatch):
    from click.testing import CliRunner

    from netcfg.cli import main

    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    result = CliRunner().invoke(main, ["twin", str(EXAMPLE)])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and "needs root" in result.output


def test_the_probe_reads_replies_on_descriptors_past_1023():
    """A twin of 2,048 NICs holds a socket per sending NIC: past descriptor 1,023, select(2)
    cannot wait on them (Python's select.select raised "filedescriptor out of range"). Two
    NICs in one namespace, their sockets opened after 1,100 other descriptors, ping each
    other over the namespace's loopback."""
    from netcfg.twin.probe import Nic, reach

    netns = f"{tagged('f')}"
    subprocess.run(["ip", "netns", "add", netns], check=True)
    filler = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        subprocess.run(["ip", "-n", netns, "link", "set", "lo", "up"], check=True)
        nics = [Nic("a:eth0", netns, "127.0.0.1"), Nic("b:eth0", netns, "127.0.0.2")]
        assert reach(nics, [(0, 1), (1, 0)], settle_s=0.2) == {(0, 1), (1, 0)}
    finally:
        for fd in filler:
            os.close(fd)
        subprocess.run(["ip", "netns", "del", netns], check=False)


def test_verify_on_the_twin_of_a_rail_holds():
    """`netcfg verify --twin`: the BGP and ECMP checks against real FRR, on inventories/
    example's rail 1 (leaf-su1-r1 and the four spines). By hand, from the example's topology:
    the leaf has 32 uplinks, 8 to each spine, and 32 server ports, one /31 each; it announces
    its loopback and the 32 /31s (33 prefixes), each spine its loopback. So the leaf runs 32
    sessions, each spine 8 (the other rails' leaves are not in the twin), and each spine
    reaches each of the leaf's 32 server subnets over its 8 parallel links (its
    maximum-paths is 8 as well)."""
    proc = subprocess.run([sys.executable, "-m", "netcfg", "verify", str(EXAMPLE), "--twin",
                           "--rail", "1", "--format", "json"], capture_output=True,
                          text=True, timeout=600, env=twin_env(tagged("v")))
    doc = json.loads(proc.stdout) if proc.stdout.startswith("{") else {"devices": []}
    failed = [(d["device"], c["rule"], c["message"]) for d in doc["devices"]
              for c in d["checks"] if not c["ok"]]
    assert proc.returncode == 0, (failed[:10], proc.stderr)
    count: dict[str, dict[str, int]] = {}
    for dev in doc["devices"]:
        assert dev["errors"] == [] and all(c["ok"] for c in dev["checks"])
        for c in dev["checks"]:
            count.setdefault(dev["device"], {}).setdefault(c["rule"], 0)
            count[dev["device"]][c["rule"]] += 1
    # VFY022: each established session brings at most what the plan announces on it
    assert count == {"leaf-su1-r1": {"VFY007": 32, "VFY008": 32, "VFY009": 32, "VFY022": 32},
                     **{f"spine{i}": {"VFY007": 8, "VFY008": 8, "VFY009": 8, "VFY014": 32,
                                      "VFY022": 8}
                        for i in range(1, 5)}}
    spine1 = {c["message"] for d in doc["devices"] if d["device"] == "spine1"
              for c in d["checks"] if c["rule"] == "VFY014"}
    assert "10.2.0.0/31 (servers of leaf-su1-r1): 8 path(s), planned 8" in spine1


def test_verify_on_the_twin_names_the_switches_when_a_leaf_stops_announcing(monkeypatch):
    """The leaf's router runs without its first server subnet's announcement (10.2.0.0/31,
    gpu-su1-n1's): every spine misses the subnet (VFY014, naming the spine) and receives 32
    prefixes instead of 33 on each of its 8 sessions to the leaf (VFY009)."""
    from netcfg.render.plan import PlanBuilder
    from netcfg.twin.run import twinned_switches
    from netcfg.validate import validate
    from netcfg.verify.twin import verify_on_twin

    monkeypatch.setenv("NETCFG_TWIN_PREFIX", tagged("w"))
    spines = [f"spine{i}" for i in range(1, 5)]

    v = validate(EXAMPLE)
    assert v.fabric is not None and v.physics is not None
    builder = PlanBuilder(v.fabric, v.physics)
    plans = [builder.plan(d) for d in twinned_switches(v.fabric, None, {1})]
    leaf = next(p for p in plans if p.hostname == "leaf-su1-r1")
    assert leaf.bgp.networks[1] == "10.2.0.0/31"
    silent = dataclasses.replace(leaf, bgp=dataclasses.replace(leaf.bgp, networks=[
        n for n in leaf.bgp.networks if n != "10.2.0.0/31"]))
    run_plans = [silent if p is leaf else p for p in plans]

    result = verify_on_twin(v.fabric, plans, "fabric.yaml", run_plans=run_plans)
    assert result.exit_code == 1
    failed = {(c.device, c.rule, c.interface, c.message) for c in result.failed()}
    missing = {(d, r, m) for d, r, i, m in failed if r == "VFY014"}
    assert missing == {(s, "VFY014", "10.2.0.0/31 (servers of leaf-su1-r1) missing from the "
                        "routing table, planned 8 path(s)") for s in spines}
    fewer = [(d, m) for d, r, i, m in failed if r == "VFY009"]
    assert len(fewer) == 4 * 8 and {d for d, _ in fewer} == set(spines)
    assert all(m.endswith("32 prefix(es) received, leaf-su1-r1 originates 33")
               for _, m in fewer)
    assert {r for _, r, _, _ in failed} == {"VFY009", "VFY014"}


# ------------------------------------------------------------------ what it catches

# Each runs on the rails its finding needs (`twinned_switches`, as `netcfg twin --rail`):
# what a design or a file gets wrong between a leaf and the tiers above it shows on one
# leaf as on eight, at a fraction of the namespaces. Those about where routes go run
# without BFD, which proves nothing about that.


def test_the_loopback_only_design_is_caught(monkeypatch):
    """Announcing only loopbacks (the earlier design): a NIC reaches only the 31 other NICs
    on its own leaf. The example's rails 1 and 2 (2 leaves, 4 spines; 32 servers x 2 NICs):
    from the first 8 NICs (4 servers' rail-1 and rail-2 NICs), 8 x 63 pairs, 8 x 31
    answer, the 8 x 32 to the other leaf do not."""
    from netcfg.render.plan import PlanBuilder
    from netcfg.twin.run import run, twinned_switches, with_loopback_only, without_bfd
    from netcfg.validate import validate

    monkeypatch.setenv("NETCFG_TWIN_PREFIX", tagged("l"))
    result = validate(EXAMPLE / "fabric.yaml")
    builder = PlanBuilder(result.fabric, result.physics)
    plans = with_loopback_only(without_bfd(
        [builder.plan(d) for d in twinned_switches(result.fabric, rails={1, 2})]))
    report = run(result.fabric, plans, timeout=120, sources=8, failures=0)
    assert not report.ok and (report.switches, report.nics) == (2 + 4, 32 * 2)
    assert report.pairs == 8 * 63
    assert report.converged_s is not None  # sessions up; nothing more to wait for
    assert len(report.unreachable) == 8 * 32


def test_a_junos_core_that_rejects_transit_cuts_the_pods_apart(monkeypatch):
    """The review's Junos finding, run: the cores' export policy gets a term rejecting every
    route before the transit term, in the rendered text the twin reads back. Pod 1's spines
    then never learn pod 2's servers. Rail 1 (a leaf per pod, every spine and core; 32
    servers x 1 NIC): from the first 8 NICs (all pod 1's), the 16 NICs of pod 2 stay
    unreachable, 8 x 16 = 128 of 8 x 31 pairs."""
    from netcfg.render.engine import render_plan
    from netcfg.render.plan import PlanBuilder
    from netcfg.twin import run as twin_run
    from netcfg.validate import validate
    from netcfg.vendors import vendor

    def broken_read_back(plan):
        text = render_plan(plan)
        if plan.nos == "junos":
            text = text.replace("        term transit {", "        term early {\n"
                                "            then reject;\n        }\n        term transit {")
        return vendor(plan.nos).read_routing(text)

    monkeypatch.setenv("NETCFG_TWIN_PREFIX", tagged("j"))
    monkeypatch.setattr(twin_run, "read_back", broken_read_back)
    result = validate(MULTIVENDOR / "fabric.yaml")
    builder = PlanBuilder(result.fabric, result.physics)
    plans = twin_run.without_bfd([builder.plan(d) for d in twin_run.twinned_switches(
        result.fabric, rails={1})])
    report = twin_run.run(result.fabric, plans, timeout=15, sources=8, failures=0)
    assert not report.ok and report.converged_s is None
    assert (report.switches, report.nics) == (2 + 8 + 8, 32)
    assert report.pairs == 8 * 31 and len(report.unreachable) == 8 * 16
    assert all(dst.startswith("gpu-su2-") for _, dst in report.unreachable)
    assert set(report.differences) == {f"core{i}" for i in range(1, 9)}
    assert report.differences["core1"] == [
        "BGP-learned routes are not passed on to other neighbours"]


def test_session_keys_are_enforced_between_the_routers(monkeypatch, tmp_path):
    """The example with routing.authentication, and the key dropped from leaf-su1-r1's file
    alone: its 32 sessions never establish (TCP MD5 between the namespaces refuses them),
    every other, keyed at both ends, does. Rails 1-3 (3 leaves, 4 spines; 32 servers x 3
    NICs): from the first server's 3 NICs, its rail-1 NIC (on that leaf) reaches only the 31
    others on the leaf (64 lost) and each of the other 2 loses exactly the 32 rail-1 NICs
    (2 x 32 = 64): 128 of 3 x 95 pairs, so the 63 rail-2 to rail-3 pairs among the rest
    cross keyed sessions."""
    from dataclasses import replace

    from netcfg.render.plan import PlanBuilder
    from netcfg.twin import run as twin_run
    from netcfg.validate import validate

    text = (EXAMPLE / "fabric.yaml").read_text()
    asn = "  asn: {leaf: unique, spine: shared}\n"
    assert asn in text
    (tmp_path / "fabric.yaml").write_text(
        text.replace(asn, asn + "  authentication: {password_env: NETCFG_BGP_KEY}\n"))
    result = validate(tmp_path / "fabric.yaml")
    builder = PlanBuilder(result.fabric, result.physics)
    plans = twin_run.without_bfd([builder.plan(d) for d in twin_run.twinned_switches(
        result.fabric, rails={1, 2, 3})])
    monkeypatch.setenv("NETCFG_TWIN_PREFIX", tagged("y"))
    original = twin_run.read_back

    def one_leaf_without_key(plan):
        facts = original(plan)
        return replace(facts, keyed=frozenset()) if plan.hostname == "leaf-su1-r1" else facts

    monkeypatch.setattr(twin_run, "read_back", one_leaf_without_key)
    cut = twin_run.run(result.fabric, plans, timeout=15, sources=3, failures=0)
    assert not cut.ok and cut.converged_s is None
    assert (cut.switches, cut.nics) == (3 + 4, 32 * 3)
    assert cut.pairs == 3 * 95 and len(cut.unreachable) == 128
    assert cut.differences["leaf-su1-r1"][0].endswith(": no session key")


def test_a_cut_cable_that_was_the_only_one_to_its_spine_reconverges(tmp_path):
    """The example with 4 servers: each leaf has 4 uplinks, one to each of the 4 spines (as
    on gpu2048, where each leaf has one cable to each of 32 spines). A cut leaves that spine
    without the leaf's server subnets: the other spines share its ASN, so nobody may pass
    them back to it (AS-path loop), and the leaves route around it. The fabric has
    reconverged although that spine no longer holds every subnet (the twin used to wait for
    it until the bound ran out); the 8 NICs of the first server under the cut leaf still
    reach the other 31 NICs (8 x 31 pairs). BFD runs as the example's Cumulus files state it,
    and every one of its 32 sessions is up at their timers."""
    text = (EXAMPLE / "fabric.yaml").read_text()
    assert "nodes_per_su: 32" in text
    (tmp_path / "fabric.yaml").write_text(text.replace("nodes_per_su: 32", "nodes_per_su: 4"))
    prefix = tagged("c")
    proc = subprocess.run([sys.executable, "-m", "netcfg", "twin", str(tmp_path), "--failures",
                           "1", "--format", "json"], capture_output=True, text=True,
                          timeout=600, env=twin_env(prefix))
    assert proc.returncode == 0, proc.stdout[:3000] + proc.stderr
    report = json.loads(proc.stdout)
    assert (report["switches"], report["nics"], report["pairs"]) == (12, 32, 32 * 31)
    assert report["ok"] and report["ecmp"] == []
    assert report["bfd_run"] and report["bfd"] == []  # every planned BFD session up
    [cut] = report["failures"]
    assert (cut["tier"], cut["pairs"], cut["unreachable"]) == ("leaf-spine", 8 * 31, 0)
    assert cut["reconverged_s"] is not None and cut["restored"]
    assert leftovers(prefix) == (set(), set(), set())


# ------------------------------------------------------------------ kept, interrupted


def test_a_kept_twin_can_be_looked_into_and_removed():
    """Rails 1 and 2 of one pod of the multivendor fabric (`--pod 1 --rail 1 --rail 2`: 2 EOS
    leaves and the pod's 4 NX-OS spines, 16 servers x 2 NICs), kept running without BFD
    (`--without-bfd`: its routers run no bfdd): vtysh inside a leaf sees the other leaf's 16
    server /31s as BGP routes, its bgpd runs the twin's `coalesce-time 0`, a NIC pings a NIC
    on another rail, a second twin is refused while it runs, and `twin down` removes every
    namespace and daemon and puts the host-wide settings back (neighbour-table limits, the
    rate of "net unreachable" answers)."""
    prefix = tagged("k")
    env = twin_env(prefix)
    before = host_settings()
    netcfg = [sys.executable, "-m", "netcfg", "twin"]
    try:
        up = subprocess.run(netcfg + [str(MULTIVENDOR), "--pod", "1", "--rail", "1", "--rail",
                                      "2", "--keep", "--failures", "0", "--sources", "1",
                                      "--without-bfd", "--format", "json"],
                            capture_output=True, text=True, timeout=600, env=env)
        assert up.returncode == 0, up.stdout + up.stderr
        report = json.loads(up.stdout)
        assert (report["kept"], report["pod"], report["rails"], report["switches"],
                report["nics"]) == (prefix, 1, [1, 2], 2 + 4, 16 * 2)
        assert report["ok"] and report["pairs"] == 31 and report["ecmp"] == []
        assert report["bfd_run"] is False and report["bfd"] == []
        spaces, runs, daemons = leftovers(prefix)
        assert len(spaces) == 6 + 32 and len(runs) == 6 and daemons
        # routers answer every packet they have no route for, at once (the probe's "no route")
        assert ERROR_COST.read_text().strip() == "0"

        routes = subprocess.run(netcfg + ["exec", "--prefix", prefix, "leaf-su1-r1", "--",
                                          "vtysh", "-c", "show ip route bgp json"],
                                capture_output=True, text=True, timeout=60, env=env)
        assert routes.returncode == 0, routes.stderr
        servers = [p for p in json.loads(routes.stdout) if p.startswith("10.128.")]
        assert len(servers) == 16
        # the twin's own questions go to the daemons' vty sockets, not through vtysh: the
        # same routes as vtysh shows, and a command the daemon does not know is an error
        from netcfg.twin.network import FRR_RUN, Twin
        from netcfg.twin.vty import Vty, VtyError

        _, places = Twin.kept(prefix)
        zebra = Vty(FRR_RUN / places["leaf-su1-r1"] / "zebra.vty")
        try:
            assert json.loads(zebra.ask("show ip route bgp json")).keys() == \
                json.loads(routes.stdout).keys()
            with pytest.raises(VtyError, match="Unknown command"):
                zebra.ask("show no-such-thing")
            assert json.loads(zebra.ask("show ip route bgp json"))  # still usable after
        finally:
            zebra.close()
        bgpd = Vty(FRR_RUN / places["leaf-su1-r1"] / "bgpd.vty")
        try:
            assert "\n coalesce-time 0\n" in bgpd.ask("show running-config")
        finally:
            bgpd.close()
        # without BFD and without static routes (an EOS leaf announces its connected
        # subnets) the router runs zebra and bgpd only: no bfdd, no staticd
        assert sorted(p.name for p in (FRR_RUN / places["leaf-su1-r1"]).glob("*.vty")) == [
            "bgpd.vty", "zebra.vty"]
        _held_prefixes_follow_frr(places)

        # gpu-su1-n2's rail-2 NIC: the second server's second port (addresses in link order)
        target = subprocess.run(netcfg + ["exec", "--prefix", prefix, "gpu-su1-n2:eth1", "--",
                                          "ip", "-4", "-o", "addr", "show", "dev", "e0"],
                                capture_output=True, text=True, timeout=60, env=env)
        address = target.stdout.split()[3].split("/")[0]
        ping = subprocess.run(netcfg + ["exec", "--prefix", prefix, "gpu-su1-n1:eth0", "--",
                                        "ping", "-c", "1", "-W", "5", address],
                              capture_output=True, text=True, timeout=60, env=env)
        assert ping.returncode == 0, ping.stdout + ping.stderr

        second = subprocess.run(netcfg + [str(EXAMPLE), "--failures", "0"],
                                capture_output=True, text=True, timeout=120,
                                env=twin_env(tagged("k2")))
        assert second.returncode == 2 and f"a kept twin ({prefix}) still runs" in second.stderr
        assert leftovers(tagged("k2")) == (set(), set(), set())
    finally:
        down = subprocess.run(netcfg + ["down", "--prefix", prefix], capture_output=True,
                              text=True, timeout=120, env=env)
    assert down.returncode == 0, down.stderr
    assert leftovers(prefix) == (set(), set(), set())
    assert host_settings() == before
    again = subprocess.run(netcfg + ["down", "--prefix", prefix], capture_output=True,
                           text=True, timeout=60, env=env)
    assert again.returncode == 2 and "no kept twin" in again.stderr


def _held_prefixes_follow_frr(places: dict[str, str]) -> None:
    """The twin's incremental reading of a BGP table (`HeldPrefixes`) against FRR's whole
    table, on spine-pod1-1 of the kept twin: its 4 cables to leaf-su1-r2 (16 uplinks over 4
    spines) are cut, so it loses every prefix that leaf originates (the pod's other spines
    share its ASN and cannot pass them back); a prefix that goes is seen only by reading the
    whole table again, and when the cables come back the returning prefixes are read from the
    table's versions alone."""
    from netcfg.render.plan import PlanBuilder
    from netcfg.twin.held import HeldPrefixes
    from netcfg.twin.network import Router, Twin
    from netcfg.twin.run import bgp_state, linux_names
    from netcfg.validate import validate

    result = validate(MULTIVENDOR / "fabric.yaml")
    plan = PlanBuilder(result.fabric, result.physics).plan(
        result.fabric.devices["spine-pod1-1"])
    cables = [linux_names(plan)[i.name] for i in plan.interfaces
              if i.peer.startswith("leaf-su1-r2:")]
    assert len(cables) == 4
    spine = Router("spine-pod1-1", places["spine-pod1-1"], "")
    with Twin(prefix="asker") as asker:  # asks only: builds and removes nothing
        def whole() -> tuple[int, set[str]]:
            table = json.loads(asker.show(spine, "bgpd", "show ip bgp json"))
            return table["tableVersion"], set(table["routes"])

        def held_when(settled: Callable[[set[str]], bool]) -> set[str]:
            """What HeldPrefixes says once the table is `settled` and has not moved for a
            second (as the twin asks: run.QUIET_S), checked against the whole table."""
            last, since = None, time.monotonic()
            for _ in range(240):  # the bound only ends a hung run
                version, routes = whole()
                if (version, routes) != last:
                    last, since = (version, routes), time.monotonic()
                elif settled(routes) and time.monotonic() - since >= 1.0:
                    now = held.of(spine, bgp_state(asker, spine)[2])
                    if now is not None and whole() == (version, routes):
                        assert now == routes
                        return now
                time.sleep(0.25)
            raise AssertionError("spine-pod1-1's table did not settle")

        leaf_as = json.loads(asker.show(Router("leaf-su1-r2", places["leaf-su1-r2"], ""),
                                        "bgpd", "show bgp summary json"))["ipv4Unicast"]["as"]
        table = json.loads(asker.show(spine, "bgpd", "show ip bgp json"))["routes"]
        from_leaf = {net for net, paths in table.items()
                     if {p["path"] for p in paths} == {str(leaf_as)}}
        assert len(from_leaf) >= 2  # its loopback and its server subnets

        held = HeldPrefixes(asker)
        before = held_when(lambda routes: True)
        assert from_leaf <= before
        reads = held.whole_reads  # the first read lists the whole table by its versions
        asker.configure(spine.netns, [f"link set {c} down" for c in cables])
        after = held_when(lambda routes: not routes & from_leaf)
        # seen by reading the whole table again (more than once when the table was still
        # moving at the first look)
        assert after == before - from_leaf and held.whole_reads > reads
        reads = held.whole_reads
        asker.configure(spine.netns, [f"link set {c} up" for c in cables])
        again = held_when(lambda routes: from_leaf <= routes)
        assert again == before and held.whole_reads == reads

        # a bgpd without the `version` filter refuses it (the twin reads a refusal as ""):
        # every look reads the whole table, with the same answer
        class WithoutVersions:
            def show(self, router, daemon, command):  # noqa: ANN001, ANN201
                return "" if " version " in command else asker.show(router, daemon, command)

        version = bgp_state(asker, spine)[2]
        plain = HeldPrefixes(WithoutVersions())  # type: ignore[arg-type]
        assert plain.of(spine, version) == again and plain.of(spine, version) == again
        assert plain.whole_reads == 2


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_twin_leaves_nothing_behind(sig):
    """The example's rail 1 (5 routers, 32 NICs: the signal lands while the routers start,
    which needs no more of the fabric) stopped by SIGINT or SIGTERM: no namespace, FRR run
    directory or daemon of it is left."""
    prefix = tagged(f"i{int(sig)}")
    proc = subprocess.Popen([sys.executable, "-m", "netcfg", "twin", str(EXAMPLE), "--rail",
                             "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=twin_env(prefix))
    # wait until the build is under way: FRR daemons of this twin are running (the bound only
    # ends a hung run; a busy machine slows the start, never the verdict)
    for _ in range(6000):
        if leftovers(prefix)[2] or proc.poll() is not None:
            break
        time.sleep(0.05)
    if not leftovers(prefix)[2]:
        proc.terminate()  # its teardown runs
        out, err = proc.communicate()
        pytest.fail(f"the twin never started its routers (exit {proc.returncode}): {err}")
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode in (130, 143), (proc.returncode, err)
    assert "Traceback" not in err
    assert leftovers(prefix) == (set(), set(), set())


def test_a_killed_twin_is_removed_by_the_next_one():
    """SIGKILL leaves a twin no teardown: its namespaces, FRR run directories and daemons stay,
    and the kernel settings it raised. The next twin finds the record of a process that is
    gone and removes all of it, putting the settings back, before it builds anything."""
    from netcfg.twin.network import RUNNING, Twin

    prefix, later = tagged("k"), tagged("n")
    before = host_settings()
    proc = subprocess.Popen([sys.executable, "-m", "netcfg", "twin", str(EXAMPLE), "--rail",
                             "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=twin_env(prefix))
    for _ in range(6000):  # until its routers run (the bound only ends a hung run)
        if leftovers(prefix)[2] or proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    _, err = proc.communicate(timeout=60)
    spaces, runs, daemons = leftovers(prefix)
    assert spaces and runs and daemons, err  # what SIGKILL leaves
    assert (RUNNING / f"{prefix}.json").is_file()
    with Twin(prefix=later) as twin:
        twin.add_namespaces([later + "a"])
        assert leftovers(prefix) == (set(), set(), set())
        assert not (RUNNING / f"{prefix}.json").exists()
        assert (RUNNING / f"{later}.json").is_file()
    assert not (RUNNING / f"{later}.json").exists()
    assert leftovers(later) == (set(), set(), set())
    assert host_settings() == before
