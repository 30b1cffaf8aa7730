"""NVIDIA Cumulus Linux: a DevicePlan as an NVUE startup document, and NVUE YAML back into facts.

The rendered file is the full `- set:` document `nv config replace` loads, in the spelling of
the plan's release and only that one (netcfg/vendors/cumulus/releases.py: 5.14 `ip address`,
`enable on`; 5.15 `ipv4 address`, `state enabled`). All NVUE names, units and values are
decided here; the template only lays them out. PFC follows NVIDIA's documented way for 5.14 and
5.15: each profile states its priorities and the `cable-length` of its ports, and Cumulus
derives the thresholds and the reserve ("NVIDIA recommends that you do not change these
settings but, instead, let Cumulus Linux configure the settings dynamically", QoS page 5.14);
the meaning of a hand-set `xon-threshold` differs between NVIDIA's pages, so none is written.
netcfg's own headroom stays what the switch must end up with: `expected_pfc` gives it in
NVIDIA's field names for `netcfg explain` and the post-deploy check. One PFC profile per
distinct headroom; a switch with PFC gets its lossless traffic pool first, as NVIDIA's "Flow
Control Buffers" asks.
"""

from __future__ import annotations

import functools
import math
import pickle
from typing import Any

from netcfg.render.facts import Ecn, QosFacts, WatchdogFacts, facts_of
from netcfg.render.plan import HEADROOM_PREFIX, DevicePlan, user_hash
from netcfg.vendors.cumulus.capabilities import HASH_FIELDS
from netcfg.vendors.cumulus.model import (
    BfdProfile,
    Bgp,
    Breakout,
    CumulusConfig,
    EcnProfile,
    EcnQueue,
    Interface,
    Neighbor,
    PeerGroup,
    PfcProfile,
    PfcWatchdog,
    Scheduler,
    TrafficPool,
)
from netcfg.vendors.cumulus.releases import spelling
from netcfg.vendors.raw import merged
from netcfg.vendors.units import frame_size, ip_packet, whole_polls

#: NVUE `link mtu` is the Linux interface MTU: the largest IP packet (Linux netdev convention;
#: NVIDIA's RoCE examples set `link mtu 9216`), so the intent's frame less its header
#: (units.ip_packet); NVUE takes 552-9216.


WATCHDOG_ROBUSTNESS_MAX = 1000  # `qos pfc-watchdog robustness` 1-1000
CABLE_MIN, CABLE_MAX = 1, 100000  # `qos pfc <p> cable-length` 1-100000 m (QoS page 5.9, 5.14)
MAPPING = "default-global"
#: the management port, a member of the `mgmt` VRF in NVIDIA's factory startup.yaml
MANAGEMENT_PORT, MANAGEMENT_VRF = "eth0", "mgmt"
#: `qos traffic-pool` names (QoS page, Traffic Pools): the pool PFC traffic uses when RoCE
#: mode is off, and the pool every switch priority is in by default (100 %)
LOSSLESS_POOL, LOSSY_POOL = "default-lossless", "default-lossy"


def link_mtu(l2_mtu: int) -> int:
    return ip_packet(l2_mtu)


def robustness(detection_ms: int, poll_ms: int) -> int:
    """Polls before mitigation: detection ≈ polling-interval × robustness, never shorter."""
    return min(WATCHDOG_ROBUSTNESS_MAX, whole_polls(detection_ms, poll_ms))


def pfc_profile(name: str) -> str:
    return name.replace(HEADROOM_PREFIX, "pfc", 1)


def cable_length(metres: float) -> int:
    """NVUE's `cable-length`: whole metres, 1-100000 (the plan's length is already rounded up
    to whole metres for Cumulus: `whole_metre_cables`)."""
    return max(CABLE_MIN, min(CABLE_MAX, math.ceil(metres)))


def expected_pfc(size: int, xoff: int, frame: int) -> tuple[int, int, int]:
    """(xoff-threshold, xon-threshold, port-buffer) the switch must end up with for one PG of
    netcfg's headroom, read in the 5.9/5.14 QoS pages' meanings: `port-buffer` the PG's
    reserve, `xoff-threshold` the fill at which PAUSE goes out (so size − xoff is left for what
    still arrives), `xon-threshold` a delta below it (one frame, at most half the way). Not
    rendered: Cumulus derives the three from `cable-length`; these are what a post-deploy look
    at `nv show qos pfc <profile>` should find (an older NVIDIA page reads `xon-threshold` as an
    absolute fill, so compare it with care).
    """
    before_pause = size - xoff
    if before_pause <= 0:  # xoff held in a shared headroom pool: not expressible (CAP015)
        raise ValueError(f"headroom size {size} leaves no room below xoff {xoff}; NVUE PFC "
                         "profiles cannot use a shared headroom pool")
    return before_pause, max(1, min(frame, before_pause // 2)), size


def explain_headroom(size: int, xoff: int, frame: int) -> list[tuple[str, int, str]]:
    """What the switch must end up with, in NVIDIA's field names, for `netcfg explain`;
    nothing where a shared headroom pool holds the xoff (CAP015 refuses that intent)."""
    if size <= xoff:
        return []
    xoff_th, xon_th, port_buffer = expected_pfc(size, xoff, frame)
    derived = "Cumulus derives it from cable-length; expected"
    return [
        ("port-buffer", port_buffer, f"size {size}: the PG's reserve ({derived})"),
        ("xoff-threshold", xoff_th, f"size {size} − xoff {xoff}: PAUSE leaves xoff free "
                                    f"({derived})"),
        ("xon-threshold", xon_th, f"min(frame {frame}, xoff-threshold / 2): resume one frame "
                                  f"below ({derived}; 5.9/5.14 meaning, a delta)"),
    ]


def ecn_profile(names: tuple[str, ...]) -> str:
    return "-".join(names)


# --------------------------------------------------------------------------- view


#: management.users roles as NVUE's (NVIDIA "User Accounts": system-admin, nvue-admin,
#: nvue-monitor; an operator reads only)
USER_ROLES = {"admin": "system-admin", "operator": "nvue-monitor"}


def build(plan: DevicePlan) -> CumulusConfig:
    """The plan as an NVUE configuration: values in NVUE's units and spellings."""
    q = plan.qos
    ecn: dict[str, EcnProfile] = {}
    interfaces = []
    #: PFC profile -> (priorities, cable length)
    headrooms: dict[str, tuple[tuple[int, ...], int]] = {}
    for i in plan.interfaces:
        pfc_name = ecn_name = None
        if i.headroom is not None and i.pfc_priorities:
            pfc_name = pfc_profile(i.headroom.name)
            if i.headroom.xoff >= i.headroom.size:
                raise ValueError(f"{plan.hostname}: headroom {i.headroom.name} keeps its xoff "
                                 "in a shared headroom pool; NVUE PFC profiles have none")
            wanted = (tuple(i.pfc_priorities), cable_length(i.cable_m))
            if headrooms.setdefault(pfc_name, wanted) != wanted:
                pfc_name = f"{pfc_name}_{wanted[1]}m"  # same numbers, another length
                headrooms[pfc_name] = wanted
        if i.ecn:
            ecn_name = ecn_profile(tuple(e.name for e in i.ecn))
            ecn[ecn_name] = EcnProfile(ecn_name, tuple(
                EcnQueue(e.queue, e.min, e.max, e.probability) for e in i.ecn))
        interfaces.append(Interface(i.name, i.description, i.speed_text, link_mtu(i.mtu),
                                    i.address, pfc_name, ecn_name,
                                    i.watchdog is not None and i.watchdog.enabled))
    pfc = {name: PfcProfile(name, prios, cable) for name, (prios, cable) in headrooms.items()}
    pools: tuple[TrafficPool, ...] = ()
    if pfc:
        lossless = q.pools.lossless_percent
        if lossless is None or not 0 < lossless < 100:
            raise ValueError(f"{plan.hostname}: PFC needs a lossless traffic pool of 1-99 "
                             f"percent, the plan has {lossless}")
        pools = (TrafficPool(LOSSLESS_POOL, lossless), TrafficPool(LOSSY_POOL, 100 - lossless))
    poll = q.watchdog_poll_ms
    b = plan.bgp
    words = spelling(plan.release)
    profiles = tuple(BfdProfile(g.name, g.bfd) for g in b.groups if g.bfd is not None) \
        if words.bfd_profiles else ()
    breakouts = []
    for cage in plan.breakouts:
        if cage.parent is None:
            raise ValueError(f"{plan.hostname}: cage {cage.cage} has no unsplit port name to "
                             "break out")
        breakouts.append(Breakout(cage.parent, f"{cage.ports}x"))
    return CumulusConfig(
        words=words, hostname=plan.hostname,
        ecmp_hash=tuple((name, f in plan.ecmp.fields) for f, name in HASH_FIELDS.items()),
        hash_seed=plan.ecmp.seed, loopback=plan.loopback, management_address=plan.management,
        management_gateway=plan.management_gateway, ntp_servers=tuple(plan.ntp_servers),
        ntp_listen=MANAGEMENT_PORT if plan.ntp_source and plan.ntp_servers else None,
        dns_servers=tuple(plan.dns_servers), syslog_servers=tuple(plan.syslog_servers),
        # the gNMI server needs a listening address: none without a management address
        gnmi=plan.gnmi if plan.management else None, banners=plan.banners,
        snmp=plan.snmp if plan.management else None,
        users=tuple((name, user_hash(name), USER_ROLES[role])
                    for name, role in plan.users.items()),
        management_ip=plan.management_ip,
        breakouts=tuple(breakouts), interfaces=tuple(interfaces),
        bgp=Bgp(b.asn, b.router_id, b.multipath_relax, b.maximum_paths, tuple(b.networks),
                tuple(PeerGroup(g.name, g.bfd) for g in b.groups),
                tuple(Neighbor(n.address, n.remote_as, n.group or None, n.description, n.keyed)
                      for n in b.neighbors), profiles, b.keepalive_s, b.hold_s),
        qos_profile=MAPPING,
        dscp_to_switch_priority=tuple(sorted(q.dscp_to_tc.items())),
        # switch-priority = traffic class = queue (netcfg keeps them equal)
        switch_priority_to_traffic_class=tuple((c.tc, c.tc) for c in q.classes),
        schedulers=tuple(Scheduler(c.tc, "strict" if c.mode == "strict" else "dwrr",
                                   None if c.mode == "strict" else c.weight)
                         for c in q.classes),
        traffic_pools=pools, pfc_profiles=tuple(pfc.values()), ecn_profiles=tuple(ecn.values()),
        pfc_watchdog=PfcWatchdog(poll, robustness(q.watchdog_default.detection_ms, poll)))


# --------------------------------------------------------------------------- reading


def sets(text: str) -> dict[str, Any]:
    """The `set` documents of an NVUE YAML config merged into one tree, later ones over
    earlier ones key by key, as `nv config patch` applies them. A fresh tree each call (the
    caller may change it), made from the last few documents' trees kept pickled: a push reads
    the same candidate and running documents four or five times over (sections, what the
    device keeps, QoS and routing facts), and unpickling costs a seventieth of the YAML
    parse."""
    return pickle.loads(_sets_pickled(text))  # bytes this process pickled itself


@functools.lru_cache(maxsize=32)
def _sets_pickled(text: str) -> bytes:
    from netcfg.yamlfast import safe_load

    out: dict[str, Any] = {}
    for part in safe_load(text) or []:
        if isinstance(part, dict) and isinstance(part.get("set"), dict):
            out = merged(out, part["set"])
    return pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)


def nvue_document(tree: dict[str, Any]) -> str:
    """`tree` as an NVUE startup document (`- set: {...}`), keys in their order, strings
    quoted wherever YAML would read them as another type (`'on'`, `'10'`)."""
    import yaml

    return str(yaml.safe_dump([{"set": tree}], sort_keys=False, default_flow_style=False,
                              width=1 << 16, allow_unicode=True))


def read(text: str) -> QosFacts:
    """QoS facts of an NVUE document (rendered, or `nv config show -o yaml` of the switch)."""
    cfg = sets(text)
    qos = cfg.get("qos", {})
    f = QosFacts()
    sp = {int(d): int(v["switch-priority"]) for d, v in
          qos.get("mapping", {}).get(MAPPING, {}).get("dscp", {}).items()}
    tc = {int(s): int(v["traffic-class"]) for s, v in
          qos.get("egress-queue-mapping", {}).get(MAPPING, {}).get("switch-priority", {}).items()}
    f.dscp_to_tc = {d: tc.get(s, 0) for d, s in sp.items()}
    poll = int(qos.get("pfc-watchdog", {}).get("polling-interval", 100))
    robust = int(qos.get("pfc-watchdog", {}).get("robustness", 3))
    prios: set[int] = set()
    for name, iface in cfg.get("interface", {}).items():
        iq = iface.get("qos", {})
        if "mtu" in iface.get("link", {}):
            f.mtu[name] = frame_size(int(iface["link"]["mtu"]))
        prof = iq.get("pfc", {}).get("profile")
        if prof is not None:
            f.pfc_ports[name] = tuple(sorted(int(p) for p in
                                             qos["pfc"][prof].get("switch-priority", {})))
            prios.update(f.pfc_ports[name])
        prof = iq.get("congestion-control", {}).get("profile")
        if prof is not None:
            for t, e in qos["congestion-control"][prof].get("traffic-class", {}).items():
                if e.get("ecn") == "enable":
                    f.ecn.setdefault(name, {})[int(t)] = Ecn(
                        int(e["min-threshold"]), int(e["max-threshold"]), int(e["probability"]))
        if iq.get("pfc-watchdog", {}).get("state") == "enable":
            f.watchdog[name] = WatchdogFacts(poll * robust, 0, "drop")
    # PFC priorities are lossless only with a lossless pool to go to ("Flow Control Buffers";
    # `qos roce` makes its own): without one they stay in the 100 % lossy pool
    pools = qos.get("traffic-pool", {})
    has_pool = any(int((pools.get(n) or {}).get("memory-percent", 0) or 0) > 0
                   for n in (LOSSLESS_POOL, "roce-lossless"))
    roce = qos.get("roce")
    roce_on = isinstance(roce, dict) and roce.get("enable", "on") in ("on", True) \
        and roce.get("state", "enabled") == "enabled"
    f.lossless_priorities = tuple(sorted(prios)) if has_pool or roce_on else ()
    back = {v: k for k, v in HASH_FIELDS.items()}
    hashed = cfg.get("system", {}).get("forwarding", {}).get("ecmp-hash", {})
    f.hash_fields = tuple(back[k] for k, v in hashed.items() if v in ("enabled", "on"))
    return f


def expected(plan: DevicePlan) -> QosFacts:
    """facts_of(plan), but the watchdog as NVUE can say it: detection = poll × robustness
    (one global robustness), no restoration timer (0), action drop."""
    f = facts_of(plan)
    q = plan.qos
    poll = q.watchdog_poll_ms
    detection = poll * robustness(q.watchdog_default.detection_ms, poll)
    f.watchdog = {name: WatchdogFacts(detection, 0, "drop") for name in f.watchdog}
    return f
