"""SONiC's own BGP configuration of netcfg's CONFIG_DB, run in real FRR: every server pair of
an all-SONiC fabric with an odd server count answers.

Independent of netcfg's twin and routing readers: each switch's FRR configuration is what
SONiC itself makes of the rendered config_db.json, from SONiC's sources in
../shared/sonic-skus (sonic-buildimage 086b03bd):

- `bgpd/bgpd.main.conf.j2` as sonic-cfggen renders it at the bgp container's start (CONFIG_DB
  keys with `|` become tuples, sonic-cfggen's address filters, `constants.yml.j2`);
- what bgpcfgd adds at run time: `policies.conf.j2` and `peer-group.conf.j2` once
  (BGPPeerGroupMgr), `instance.conf.j2` per BGP_NEIGHBOR inside `router bgp <asn>` with
  `bgp suppress-fib-pending` (BGPPeerMgrBase.add_peer/apply_op), and for each STATIC_ROUTE the
  commands of managers_static_rt.py (`ip route <prefix> blackhole tag 1`, then once
  `route-map STATIC_ROUTE_FILTER permit 10` / `match tag 1` and `redistribute static
  route-map STATIC_ROUTE_FILTER` in both address families): written out here as that code
  sends them (sonic-buildimage src/sonic-bgpcfgd/bgpcfgd; code, not in ../shared).

One value differs from SONiC's: constants.yml's `maximum-paths 514`, which needs SONiC's own
FRR build, is 256 here (the most Debian's FRR takes; the fabric has 2 paths).

Interface addresses are the kernel's, as SONiC's intfmgrd sets them (zebra learns them);
Loopback0's address sits on the namespace's `lo` (SONiC makes a `Loopback0` interface; the
templates read the address from CONFIG_DB, not the interface's name). Expected values are
hand arithmetic: a fabric of 2 rails x 3 servers, 2 spines; runs of 3 server links start on
multiples of 2, so rail 1 has links 0-2 (10.128.0.0/31, .2/31, .4/31) and rail 2 links 4-6
(10.128.0.8/31, .10/31, .12/31); links 3 and 7 are nobody's, so the lone /31s (.4, .12) go
out in 10.128.0.0/29 and 10.128.0.8/29. Needs root and FRR (skipped otherwise;
NETCFG_REQUIRE_TWIN=1 makes it fail).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import jinja2
import netaddr
import pytest
import yaml

from netcfg.render import render_plan
from netcfg.render.plan import PlanBuilder
from netcfg.validate import validate

ROOT = Path(__file__).resolve().parent.parent
SONIC = ROOT.parent / "shared" / "sonic-skus" / "sonic-buildimage"
FRR_TEMPLATES = SONIC / "dockers" / "docker-fpm-frr" / "frr"
CONSTANTS = SONIC / "files" / "build_templates" / "constants.yml.j2"
FRR_BIN = Path("/usr/lib/frr")
FRR_RUN = Path("/var/run/frr")
DAEMONS = ("zebra", "bgpd", "staticd")


def _why_not() -> str | None:
    if not FRR_TEMPLATES.is_dir():
        return "SONiC's FRR templates (../shared/sonic-skus) not present next to the repo"
    if os.geteuid() != 0:
        return "needs root for network namespaces"
    if not (FRR_BIN / "bgpd").is_file() or shutil.which("vtysh") is None:
        return "needs FRR (apt install frr)"
    if shutil.which("ping") is None:
        return "needs ping (apt install iputils-ping)"
    return None


_WHY = _why_not()
if _WHY is not None and os.environ.get("NETCFG_REQUIRE_TWIN") and FRR_TEMPLATES.is_dir():
    raise RuntimeError(f"the FRR tests are required here but cannot run: {_WHY}")
pytestmark = pytest.mark.skipif(_WHY is not None, reason=str(_WHY))

FABRIC = """
fabric: {name: oddsonic, mtu: 9216}
topology:
  kind: rail_optimized
  tiers: 2
  scalable_units: 1
  nodes_per_su: 3
  node: {gpus: 2, nics: 2, nic: connectx-7}
  spines: 2
  leaf_uplinks: 2
  host_leaf: {speed: 400G, cable: 3m, medium: dac}
  leaf_spine: {speed: 400G, cable: 30m, medium: fiber}
platforms: {leaf: nvidia-sn5600-sonic, spine: nvidia-sn5600-sonic}
qos:
  classes:
    roce: {dscp: [26], traffic_class: 3, lossless: true, scheduling: {mode: ets, weight: 50}}
    cnp: {dscp: [48], traffic_class: 6, scheduling: {mode: strict}}
    best-effort: {dscp: [0], traffic_class: 0, scheduling: {mode: ets, weight: 50}}
routing:
  asn: {leaf: unique, spine: shared}
  bfd: {enabled: false}
  timers: {keepalive: 4s, hold: 12s}
"""


# --------------------------------------------------------------------------- SONiC's side


def _version(value: object) -> int | None:
    try:
        return netaddr.IPNetwork(str(value)).version if value else None
    except (netaddr.AddrFormatError, netaddr.AddrConversionError, ValueError):
        return None


def _attr(attr: str, value: object) -> str | None:
    try:
        return str(getattr(netaddr.IPNetwork(str(value).strip()), attr)) if value else None
    except (netaddr.AddrFormatError, netaddr.AddrConversionError, ValueError):
        return None


def _pfx_filter(table: object) -> dict:
    """Entries keyed (name, prefix) only; an address without a length becomes a host."""
    out: dict = {}
    for key, value in (table or {}).items():  # type: ignore[attr-defined]
        if not isinstance(key, tuple):
            continue
        name, prefix = key
        if "/" not in prefix:
            prefix = f"{prefix}/{32 if _version(prefix) == 4 else 128}"
        out[(name, prefix)] = value
    return out


def templates(trim_blocks: bool) -> jinja2.Environment:
    """Jinja2 as SONiC's renderers set it up for the bgpd templates: sonic-cfggen
    (`_get_jinja2_env`: trim_blocks on) for bgpd.main.conf.j2, bgpcfgd (TemplateFabric:
    trim_blocks off) for the peer templates; both filters ipv4/ipv6 (address family),
    ip/network/prefixlen/ip_network (parts of a prefix) and pfx_filter."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(FRR_TEMPLATES)),
                             trim_blocks=trim_blocks)
    env.filters["ipv4"] = lambda v: _version(v) == 4
    env.filters["ipv6"] = lambda v: _version(v) == 6
    for name, attr in (("ip", "ip"), ("network", "network"), ("prefixlen", "prefixlen"),
                       ("ip_network", "network")):
        env.filters[name] = lambda v, a=attr: _attr(a, v)
    env.filters["pfx_filter"] = _pfx_filter
    env.filters["file_exists"] = lambda p: False
    return env


def typed(db: dict) -> dict:
    """CONFIG_DB as sonic-cfggen hands it to a template: keys with `|` as tuples."""
    return {table: {tuple(k.split("|")) if "|" in k else k: v for k, v in body.items()}
            for table, body in db.items()}


def sonic_frr_config(db: dict) -> str:
    """What SONiC's bgp container configures FRR with for this CONFIG_DB (module doc)."""
    env = templates(trim_blocks=False)
    constants = yaml.safe_load(jinja2.Template(CONSTANTS.read_text()).render(
        ENABLE_FRR_SNMP_AGENT="n"))["constants"]
    # the one change: constants.yml's maximum-paths 514 needs SONiC's FRR build; Debian's
    # takes at most 256 (its MULTIPATH_NUM), and this fabric has 2 paths
    for family in ("ipv4", "ipv6"):
        constants["bgp"]["maximum_paths"][family] = 256
    asn = db["DEVICE_METADATA"]["localhost"]["bgp_asn"]
    out = [templates(trim_blocks=True).get_template("bgpd/bgpd.main.conf.j2").render(
        **typed(db), constants=constants)]
    bbr = db.get("BGP_BBR", {}).get("all", {})
    meta = db["DEVICE_METADATA"]
    common = {"CONFIG_DB__DEVICE_METADATA": meta, "CONFIG_DB__BGP_BBR": bbr,
              "constants": constants, "bgp_asn": asn, "vrf": "default"}
    out.append(env.get_template("bgpd/templates/general/policies.conf.j2").render(**common))
    out.append(f"router bgp {asn}\n"
               + env.get_template("bgpd/templates/general/peer-group.conf.j2").render(**common)
               + "\nexit")
    instance = env.get_template("bgpd/templates/general/instance.conf.j2")
    for address, session in db.get("BGP_NEIGHBOR", {}).items():
        out.append(f"router bgp {asn}\n bgp suppress-fib-pending\n" + instance.render(
            **common, neighbor_addr=address, is_interface_neighbor=False,
            bgp_session=dict(session)) + "\nexit")
    statics = db.get("STATIC_ROUTE", {})
    for key, entry in statics.items():
        vrf, prefix = key.split("|", 1)
        assert vrf == "default" and entry["blackhole"] == "true"
        tag = "2" if entry.get("advertise") == "false" else "1"
        out.append(f"ip route {prefix} blackhole tag {tag}")
    if statics:
        out.append("route-map STATIC_ROUTE_FILTER permit 10\n match tag 1\nexit")
        out.append(f"router bgp {asn}\n" + "".join(
            f" address-family {af}\n  redistribute static route-map STATIC_ROUTE_FILTER\n"
            " exit-address-family\n" for af in ("ipv4", "ipv6")) + "exit")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- the network


class Net:
    """Namespaces, veths and FRR daemons of this test, named with a prefix of its own."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.spaces: list[str] = []
        self.rundirs: list[Path] = []

    def ns(self, name: str) -> str:
        space = f"{self.prefix}{len(self.spaces)}"
        subprocess.run(["ip", "netns", "add", space], check=True, timeout=30)
        self.spaces.append(space)
        return space

    def ip(self, space: str, *commands: str) -> None:
        proc = subprocess.run(["ip", "-n", space, "-batch", "-"], input="\n".join(commands)
                              + "\n", capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, (space, commands, proc.stderr)

    def veth(self, a: str, ia: str, b: str, ib: str) -> None:
        proc = subprocess.run(["ip", "link", "add", ia, "netns", a, "type", "veth", "peer",
                               "name", ib, "netns", b], capture_output=True, text=True,
                              timeout=30)
        assert proc.returncode == 0, proc.stderr

    def frr(self, space: str, config: str) -> Path:
        run = FRR_RUN / space
        run.mkdir(parents=True, exist_ok=True)
        self.rundirs.append(run)
        shutil.chown(run, "frr", "frr")
        empty = run / "empty.conf"
        empty.write_text("")
        for daemon in DAEMONS:
            subprocess.run(["ip", "netns", "exec", space, str(FRR_BIN / daemon), "-d", "-N",
                            space, "-u", "frr", "-g", "frr", "-i", str(run / f"{daemon}.pid"),
                            "--vty_socket", str(run), "-f", str(empty)], check=True,
                           capture_output=True, timeout=60)
        conf = run / "frr.conf"
        conf.write_text(config)
        shutil.chown(conf, "frr", "frr")
        load = subprocess.run(["vtysh", "--vty_socket", str(run), "-f", str(conf)],
                              capture_output=True, text=True, timeout=120)
        refused = [line for line in (load.stdout + load.stderr).splitlines()
                   if line.lstrip().startswith("%") or "line " in line]
        assert load.returncode == 0 and not refused, (space, refused, load.returncode)
        return run

    def close(self) -> None:
        pids = []
        for run in self.rundirs:
            for pid_file in run.glob("*.pid"):
                try:
                    pids.append(int(pid_file.read_text().strip()))
                    os.kill(pids[-1], signal.SIGTERM)
                except (OSError, ValueError):
                    pass
        for pid in pids:  # each daemon's own exit, then SIGKILL: none outlives the test
            for _ in range(100):
                if not Path(f"/proc/{pid}").exists():
                    break
                time.sleep(0.05)
            else:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        for space in self.spaces:
            subprocess.run(["ip", "netns", "del", space], capture_output=True, timeout=30)
        for run in self.rundirs:
            shutil.rmtree(run, ignore_errors=True)


def vtysh(run: Path, command: str) -> dict:
    proc = subprocess.run(["vtysh", "--vty_socket", str(run), "-c", command],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def fabric(tmp_path_factory) -> Iterator[tuple]:
    path = tmp_path_factory.mktemp("oddsonic") / "fabric.yaml"
    path.write_text(FABRIC)
    result = validate(path)
    assert result.ok, [f.text() for f in result.findings]
    fab = result.fabric
    builder = PlanBuilder(fab, result.physics)
    dbs = {d.name: json.loads(render_plan(builder.plan(d))) for d in fab.switches()}
    net = Net(f"nso{os.getpid() % 10000}-")
    try:
        # a namespace per switch and per server NIC (port), as on the fabric
        space = {d.name: net.ns(d.name) for d in fab.switches()}
        space |= {p.id: net.ns(p.id) for d in fab.hosts() for p in d.ports if p.peer}

        def where(port) -> str:
            return space[port.device.name] if port.device.is_switch else space[port.id]

        for link in fab.links:
            net.veth(where(link.a), link.a.name, where(link.b), link.b.name)
        for dev in fab.switches():
            net.ip(space[dev.name], "link set lo up",
                   *[f"link set {p.name} up" for p in dev.ports if p.peer is not None],
                   *[f"addr add {p.ip} dev {p.name}" for p in dev.ports if p.ip],
                   f"addr add {dev.loopback_ip}/32 dev lo")
            subprocess.run(["ip", "netns", "exec", space[dev.name], "sysctl", "-qw",
                            "net.ipv4.ip_forward=1"], check=True, timeout=30)
        for dev in fab.hosts():  # a NIC: its address, the default route toward its leaf
            for p in dev.ports:
                net.ip(space[p.id], "link set lo up", f"link set {p.name} up",
                       f"addr add {p.ip} dev {p.name}",
                       f"route add default via {p.peer.ip.split('/')[0]}")
        # the routers start side by side: starting one is mostly waiting for its daemons
        # to come up and take their configuration
        switches = list(fab.switches())
        with ThreadPoolExecutor(max_workers=len(switches)) as pool:
            started = pool.map(lambda d: net.frr(space[d.name], sonic_frr_config(dbs[d.name])),
                               switches)
            runs = {d.name: run for d, run in zip(switches, started)}
        yield fab, dbs, space, runs
    finally:
        net.close()


def _ok_routes(run: Path, wanted: set[str]) -> bool:
    table = vtysh(run, "show ip route bgp json")
    return wanted <= {p for p, entries in table.items()
                      if any(e.get("installed") for e in entries)}


def _answers(space: dict, src: str, address: str) -> bool:
    """One echo, asked again with three before the pair counts as silent."""
    for count in ("1", "3"):
        if subprocess.run(["ip", "netns", "exec", space[src], "ping", "-c", count, "-W", "2",
                           address], capture_output=True, timeout=30).returncode == 0:
            return True
    return False


def test_every_server_pair_answers_on_an_odd_server_count(fabric):
    fab, dbs, space, runs = fabric
    leaves = sorted(d.name for d in fab.switches() if d.role == "leaf")
    assert leaves == ["leaf-su1-r1", "leaf-su1-r2"]
    # by hand (module doc): each leaf announces one /29 holding its 3 server /31s
    assert dbs["leaf-su1-r1"]["STATIC_ROUTE"] == {
        "default|10.128.0.0/29": {"advertise": "true", "blackhole": "true"}}
    assert dbs["leaf-su1-r2"]["STATIC_ROUTE"] == {
        "default|10.128.0.8/29": {"advertise": "true", "blackhole": "true"}}
    other = {"leaf-su1-r1": "10.128.0.8/29", "leaf-su1-r2": "10.128.0.0/29"}
    deadline = time.monotonic() + 120
    while not all(_ok_routes(runs[leaf], {other[leaf]}) for leaf in leaves):
        assert time.monotonic() < deadline, {
            leaf: sorted(vtysh(runs[leaf], "show ip route bgp json")) for leaf in leaves}
        time.sleep(0.5)
    nics = sorted((p.id, p.ip.split("/")[0]) for d in fab.hosts() for p in d.ports)
    assert len(nics) == 6  # 3 servers x 2 NICs
    missing = [(src, dst) for (src, _), (dst, address) in itertools.permutations(nics, 2)
               if not _answers(space, src, address)]
    assert missing == [], missing
    # the third server of each leaf sits on the lone /31: .5 and .13 answer too
    assert {a for _, a in nics} >= {"10.128.0.5", "10.128.0.13"}


def test_the_intents_timers_run_in_sonics_frr(fabric):
    """routing.timers 4 s / 12 s reach bgpd through SONiC's instance.conf.j2 on every
    session, as FRR itself reports them."""
    fab, dbs, space, runs = fabric
    for leaf in ("leaf-su1-r1", "leaf-su1-r2"):
        peers = vtysh(runs[leaf], "show bgp neighbors json")
        assert len(peers) == 2  # one uplink to each of the 2 spines
        for addr, peer in peers.items():
            assert (peer["bgpTimerConfiguredHoldTimeMsecs"],
                    peer["bgpTimerConfiguredKeepAliveIntervalMsecs"]) == (12000, 4000), addr


def test_spines_sharing_an_asn_reach_each_others_loopback(fabric):
    """The spines share one ASN (routing.asn.spine: shared); SONiC's peer-group.conf.j2 gives
    a LeafRouter `allowas-in 1` only with BGP_BBR enabled, which netcfg renders, so each
    spine takes the other's loopback through a leaf (its own ASN in the path). Loopbacks by
    hand: 10.0.0.0/16 from .1 in build order, leaves then spines: spine1 10.0.0.3, spine2
    10.0.0.4."""
    fab, dbs, space, runs = fabric
    assert [dbs[s].get("BGP_BBR") for s in ("spine1", "spine2")] == [
        {"all": {"status": "enabled"}}] * 2
    deadline = time.monotonic() + 120
    while not (_ok_routes(runs["spine1"], {"10.0.0.4/32", "10.0.0.1/32", "10.0.0.2/32"})
               and _ok_routes(runs["spine2"], {"10.0.0.3/32"})):
        assert time.monotonic() < deadline, sorted(vtysh(runs["spine1"],
                                                         "show ip route bgp json"))
        time.sleep(0.5)


def test_without_the_covering_block_the_lone_server_is_cut_off(fabric):
    """The check has teeth: leaf-su1-r1 announcing only the blocks that hold exactly its
    subnets (10.128.0.0/30; 10.128.0.4/31 alone, which a STATIC_ROUTE cannot carry) leaves
    its third server's NIC (10.128.0.5) reachable from its own leaf's NICs only, while the
    first two still answer from rail 2. (Runs last: it changes leaf-su1-r1.)"""
    fab, dbs, space, runs = fabric
    leaf = runs["leaf-su1-r1"]
    change = leaf / "narrow.conf"
    change.write_text("no ip route 10.128.0.0/29 blackhole tag 1\n"
                      "ip route 10.128.0.0/30 blackhole tag 1\n")
    shutil.chown(change, "frr", "frr")
    subprocess.run(["vtysh", "--vty_socket", str(leaf), "-f", str(change)], check=True,
                   capture_output=True, timeout=60)
    deadline = time.monotonic() + 120
    while not _ok_routes(runs["leaf-su1-r2"], {"10.128.0.0/30"}) or _ok_routes(
            runs["leaf-su1-r2"], {"10.128.0.0/29"}):
        assert time.monotonic() < deadline, sorted(vtysh(runs["leaf-su1-r2"],
                                                         "show ip route bgp json"))
        time.sleep(0.5)
    far = "gpu-su1-n1:eth1"  # rail 2: 10.128.0.9
    assert _answers(space, far, "10.128.0.1") and _answers(space, far, "10.128.0.3")
    assert not subprocess.run(["ip", "netns", "exec", space[far], "ping", "-c", "1", "-W",
                               "2", "10.128.0.5"], capture_output=True,
                              timeout=30).returncode == 0
    assert _answers(space, "gpu-su1-n1:eth0", "10.128.0.5")  # same leaf: connected


def test_without_allowas_in_a_spine_loses_the_others_loopback(fabric):
    """The check has teeth: spine1 without the `allowas-in 1` that BGP_BBR gives it
    (`no neighbor PEER_V4 allowas-in 1`, then its stored routes evaluated again: PEER_V4 keeps
    them, `soft-reconfiguration inbound`) drops spine2's loopback, whose path holds its own
    ASN, and keeps the leaves'. (Runs after the others: it changes spine1.)"""
    fab, dbs, space, runs = fabric
    spine = runs["spine1"]
    asn = dbs["spine1"]["DEVICE_METADATA"]["localhost"]["bgp_asn"]
    change = spine / "no-bbr.conf"
    change.write_text(f"router bgp {asn}\n address-family ipv4\n"
                      "  no neighbor PEER_V4 allowas-in 1\n exit-address-family\nexit\n")
    shutil.chown(change, "frr", "frr")
    subprocess.run(["vtysh", "--vty_socket", str(spine), "-f", str(change)], check=True,
                   capture_output=True, timeout=60)
    subprocess.run(["vtysh", "--vty_socket", str(spine), "-c", "clear bgp ipv4 * soft in"],
                   check=True, capture_output=True, timeout=60)
    deadline = time.monotonic() + 120
    while _ok_routes(spine, {"10.0.0.4/32"}):
        assert time.monotonic() < deadline, "spine2's loopback stays without allowas-in"
        time.sleep(0.5)
    assert _ok_routes(spine, {"10.0.0.1/32", "10.0.0.2/32"})


def test_frrs_own_file_runs_the_intents_timers_in_bgpd(tmp_path):
    """netcfg's FRR rendering (`timers bgp 4 12` under `router bgp`, templates/frr) loaded
    into a real bgpd: every neighbour, each through its peer group, runs 4 s / 12 s, as FRR
    itself reports them (FRR's own default would be 60/180, or 3/9 under `frr defaults
    datacenter`, which the file names)."""
    doc = yaml.safe_load(FABRIC)
    doc["platforms"] = {"leaf": "nvidia-sn5600-frr", "spine": "nvidia-sn5600-frr"}
    path = tmp_path / "fabric.yaml"
    path.write_text(yaml.safe_dump(doc))
    result = validate(path)
    assert result.ok, [f.text() for f in result.findings]
    leaf = result.fabric.devices["leaf-su1-r1"]
    text = render_plan(PlanBuilder(result.fabric, result.physics).plan(leaf))
    assert "\n timers bgp 4 12\n" in text
    net = Net(f"nsf{os.getpid() % 10000}-")
    try:
        run = net.frr(net.ns(leaf.name), text)
        peers = vtysh(run, "show bgp neighbors json")
        assert sorted(peers) == ["10.64.0.0", "10.64.0.2"]  # its two spines, by hand
        for addr, peer in peers.items():
            assert (peer["bgpTimerConfiguredHoldTimeMsecs"],
                    peer["bgpTimerConfiguredKeepAliveIntervalMsecs"]) == (12000, 4000), addr
    finally:
        net.close()
