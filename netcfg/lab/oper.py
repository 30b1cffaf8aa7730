"""Operational state for the lab: which port is cabled to which, and what follows from both
ends' running configurations (links up, LLDP neighbours, BGP sessions), with state faults.

A switch's state depends on its neighbours, so it cannot live in one emulator: one `Wiring`
per lab holds the cabling (from the fabric's links, the plan `netcfg lab` serves) and reads
each device's running config through its NOS's facts reader (netcfg/lab/<nos>/oper.py, which
reads the emulator's own tree, never netcfg's renderer). Each emulator's show commands ask it
and print the answer in the NOS's own format.

What follows from what (the model, kept small and stated):
- a link is up when both ends exist, neither is shut down and no `port_down` fault is on it;
  a far end the lab does not serve (a server, or a switch of a NOS without a facts reader)
  counts as up;
- LLDP on an up link shows the far device's hostname and port name (the far end must be a
  served device: nothing speaks LLDP for servers here);
- a BGP session is Established when the link under the local address is up, the far end
  holds the neighbour address on that port with the remote AS configured here, and it has
  a neighbour back to our address with our AS; otherwise Active (Idle when shut down). It
  receives the prefixes the peer originates itself (its `network` statements); the lab models
  no transit routes. An end whose NOS limits the prefixes per session (NeighborFacts.
  maximum_routes) takes a session that brings more down: Idle (reason MaxPath, as EOS
  shows it) at that end, not Established at the other.
Faults: `port_down(device, port)` (the link is down at both ends), `bgp_down(device,
address)` (that session never establishes), `swap(device, port_a, port_b)` (the two cables
are in each other's ports), and where a NOS's lab shows PFC state (SONiC: netcfg/lab/sonic/
oper.py) `pfc_storm`, `pfc_off` and `lossless_drops(device, port)`. Call them on the lab loop
(`lab.call(wiring.swap, ...)`).
"""

from __future__ import annotations

import copy
import functools
import ipaddress
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, TypeVar, cast

End = tuple[str, str]
#: the Idle reason of a session shut down by configuration (EOS's idleReason wording)
ADMIN_DOWN = "Administratively shut down"


@dataclass
class PortFacts:
    shutdown: bool = False
    address: str | None = None  # "a.b.c.d/len"
    mtu: int | None = None
    speed: int | None = None  # Mb/s

    @property
    def ip(self) -> str | None:
        return self.address.split("/")[0] if self.address else None


@dataclass
class NeighborFacts:
    remote_as: int | None
    description: str = ""
    shutdown: bool = False
    #: prefixes this end takes on the session before its NOS takes the session down (None:
    #: no limit); the NOS's reader fills it (EOS: `maximum-routes`, else EOS's default)
    maximum_routes: int | None = None


@dataclass
class ConfigFacts:
    """What the lab needs of a running config: ports, the BGP speaker and its neighbours."""

    hostname: str = ""
    asn: int | None = None
    router_id: str | None = None
    ports: dict[str, PortFacts] = field(default_factory=dict)
    neighbors: dict[str, NeighborFacts] = field(default_factory=dict)
    networks: int = 0
    #: the ports' subnets, made on the first `_port_of` once the reader is done: each
    #: session's link was found by parsing every port's address again (ports x sessions)
    _subnets: tuple[dict[Any, int], set[tuple[int, int]], list[str]] | None = field(
        default=None, init=False, repr=False, compare=False)


@dataclass
class Session:
    address: str
    local_as: int
    remote_as: int
    state: str  # Established | Active | Idle
    remote_id: str
    description: str
    port: str | None
    received: int
    sent: int
    idle_reason: str = ""

    @property
    def shut_down(self) -> bool:
        """Shut down by configuration (not merely Idle for another reason)."""
        return self.idle_reason == ADMIN_DOWN


@dataclass
class LldpNeighbor:
    device: str  # the far end's hostname
    port: str
    nos: str
    mac: str


#: NOS -> "module:function" reading an emulator's running config into ConfigFacts
READERS = {"eos": "netcfg.lab.eos.oper:facts", "nxos": "netcfg.lab.nxos.oper:facts",
           "junos": "netcfg.lab.junos.oper:facts", "sonic": "netcfg.lab.sonic.oper:facts",
           "cumulus": "netcfg.lab.cumulus.oper:facts"}


def _reader(nos: str) -> Callable[[Any], ConfigFacts] | None:
    spec = READERS.get(nos)
    if spec is None:
        return None
    module, name = spec.split(":")
    fn: Callable[[Any], ConfigFacts] = getattr(import_module(module), name)
    return fn


def _inputs(nos: str) -> Callable[[Any], object] | None:
    """The NOS's `inputs(dev)`: everything its facts reader reads, as a value equal to an
    earlier one exactly when the reader would read the same (None: the NOS has none; its
    facts are read again for each answer)."""
    spec = READERS.get(nos)
    if spec is None:
        return None
    fn: Callable[[Any], object] | None = getattr(import_module(spec.split(":")[0]), "inputs",
                                                  None)
    return fn


def chassis_mac(name: str) -> str:
    """A stable locally administered MAC per device (LLDP chassis id)."""
    import hashlib

    d = hashlib.sha256(name.encode()).digest()
    return "02:" + ":".join(f"{b:02x}" for b in d[:5])


def dotted_mac(mac: str) -> str:
    """A MAC as Cisco and Arista print it in LLDP: xxxx.xxxx.xxxx."""
    h = mac.replace(":", "")
    return f"{h[0:4]}.{h[4:8]}.{h[8:12]}"


def system_description(nos: str) -> str:
    """The LLDP system description a neighbour of this NOS sends (its first words)."""
    return {"eos": "Arista Networks EOS", "nxos": "Cisco Nexus Operating System (NX-OS)",
            "junos": "Juniper Networks, Inc. Junos OS", "sonic": "SONiC Software Version",
            "cumulus": "Cumulus Linux"}.get(nos, nos)


class Wiring:
    """The lab's cabling and the state that follows from it (see the module docstring)."""

    def __init__(self, links: Mapping[End, End]) -> None:
        self.links: dict[End, End] = {}
        for a, b in links.items():
            self.links[a], self.links[b] = b, a
        self.emulators: dict[str, Any] = {}
        self.down: set[End] = set()
        self.bgp_faults: set[tuple[str, str]] = set()
        #: (kind, device, port): pfc_storm | pfc_off | lossless_drops (the NOS's oper module
        #: says what each does to its counters)
        self.pfc_faults: set[tuple[str, str, str]] = set()
        #: how often each faulted counter was read (counters move per reading)
        self.readings: dict[tuple[str, str, str], int] = {}
        self._memo: dict[str, ConfigFacts | None] | None = None
        #: per device, a copy of its facts' inputs and the facts read from them: kept across
        #: answers while the config they come from is the same (`_read`)
        self._kept: dict[str, tuple[object, ConfigFacts]] = {}

    @classmethod
    def from_fabric(cls, fabric: Any) -> Wiring:
        """Every link of the fabric's switches, as the topology cables it."""
        links: dict[End, End] = {}
        for dev in fabric.switches():
            for port in dev.ports:
                if port.peer is not None:
                    links[(dev.name, port.name)] = (port.peer.device.name, port.peer.name)
        return cls(links)

    def bind(self, lab: Any) -> Wiring:
        """Know the lab's emulators (call once the lab has started)."""
        for name, device in lab.devices.items():
            self.emulators[name] = device.do(lambda e: e)
        return self

    # --- faults (on the lab loop) -------------------------------------------------------------
    def port_down(self, device: str, port: str) -> None:
        self.down.add((device, port))

    def bgp_down(self, device: str, address: str) -> None:
        self.bgp_faults.add((device, address))

    def pfc_storm(self, device: str, port: str) -> None:
        self.pfc_faults.add(("pfc_storm", device, port))

    def pfc_off(self, device: str, port: str) -> None:
        self.pfc_faults.add(("pfc_off", device, port))

    def lossless_drops(self, device: str, port: str) -> None:
        self.pfc_faults.add(("lossless_drops", device, port))

    def swap(self, device: str, port_a: str, port_b: str) -> None:
        far_a, far_b = self.links.get((device, port_a)), self.links.get((device, port_b))
        for port, far in ((port_a, far_b), (port_b, far_a)):
            if far is None:
                self.links.pop((device, port), None)
            else:
                self.links[(device, port)] = far
                self.links[far] = (device, port)

    def clear(self, links: Mapping[End, End] | None = None) -> None:
        """Drop every fault (and restore `links`, the original cabling, when given)."""
        self.down.clear()
        self.bgp_faults.clear()
        self.pfc_faults.clear()
        self.readings.clear()
        if links is not None:
            self.links = {}
            for a, b in links.items():
                self.links[a], self.links[b] = b, a

    # --- state --------------------------------------------------------------------------------
    def facts(self, device: str) -> ConfigFacts | None:
        """The device's running-config facts; read once per answer inside `answering()`."""
        if self._memo is not None and device in self._memo:
            return self._memo[device]
        emu = self.emulators.get(device)
        got = self._read(device, emu) if emu is not None else None
        if self._memo is not None:
            self._memo[device] = got
        return got

    def _read(self, device: str, emu: Any) -> ConfigFacts | None:
        """The facts of the device's config as it is now. Where its NOS says what its reader
        reads (`inputs`, SONiC's and Cumulus's: dicts, compared in C), the facts are kept
        with a copy of those inputs and read again only when the config differs from that
        copy: a switch's state answers ask its neighbours' configs too, so each verify of
        a switch read every neighbour's config again (93 reads a switch at gpu32768).
        Comparing is a tenth of reading there; for the tree configs (EOS, NX-OS, Junos)
        comparing costs about what reading does, so they are read for each answer."""
        reader = _reader(emu.nos)
        if reader is None:
            return None
        inputs = _inputs(emu.nos)
        if inputs is None:
            return reader(emu)
        now = inputs(emu)
        kept = self._kept.get(device)
        if kept is not None and kept[0] == now:
            return kept[1]
        got = reader(emu)
        self._kept[device] = (copy.deepcopy(now), got)
        return got

    @contextmanager
    def answering(self) -> Iterator[None]:
        """While one command is answered, each device's config is read once (a spine's LLDP
        table asks every far end about every port; configs do not change within one answer,
        which runs on the lab loop to its end)."""
        outer = self._memo is not None
        if not outer:
            self._memo = {}
        try:
            yield
        finally:
            if not outer:
                self._memo = None

    def far_end(self, device: str, port: str) -> End | None:
        return self.links.get((device, port))

    def link_up(self, device: str, port: str, mine: ConfigFacts | None = None) -> bool:
        mine = mine or self.facts(device)
        own = mine.ports.get(port) if mine else None
        if own is None or own.shutdown or (device, port) in self.down:
            return False
        far = self.far_end(device, port)
        if far is None:
            return False
        if far in self.down:
            return False
        theirs = self.facts(far[0]) if far[0] in self.emulators else None
        if theirs is None:
            return True
        other = theirs.ports.get(far[1])
        return other is not None and not other.shutdown

    def lldp(self, device: str, only: str | None = None) -> dict[str, LldpNeighbor]:
        """The device's LLDP neighbours by local port; `only`: that port's alone (NAPALM's
        Junos driver asks a port at a time: the whole table for each made a core's LLDP
        quadratic in its ports)."""
        mine = self.facts(device)
        out: dict[str, LldpNeighbor] = {}
        if mine is None:
            return out
        for port in mine.ports if only is None else [p for p in (only,) if p in mine.ports]:
            far = self.far_end(device, port)
            if far is None or far[0] not in self.emulators or not self.link_up(device, port,
                                                                                mine):
                continue
            theirs = self.facts(far[0])
            emu = self.emulators[far[0]]
            out[port] = LldpNeighbor(theirs.hostname if theirs and theirs.hostname else far[0],
                                     far[1], emu.nos, chassis_mac(far[0]))
        return out

    def sessions(self, device: str) -> list[Session]:
        mine = self.facts(device)
        if mine is None or mine.asn is None:
            return []
        out = []
        for address, n in mine.neighbors.items():
            port = _port_of(mine, address)
            state, remote_id, received, reason = "Active", "0.0.0.0", 0, ""
            if n.shutdown:
                state, reason = "Idle", ADMIN_DOWN
            elif port is not None and self.link_up(device, port, mine):
                up = self._established(device, mine, port, address, n)
                if up is not None and n.maximum_routes is not None \
                        and up[1] > n.maximum_routes:
                    state, reason = "Idle", "MaxPath"  # EOS: Idle(MaxPath)
                elif up is not None:
                    state, remote_id, received = "Established", up[0], up[1]
            out.append(Session(address, mine.asn, n.remote_as or 0, state, remote_id,
                               n.description, port, received,
                               mine.networks if state == "Established" else 0, reason))
        return out

    def _established(self, device: str, mine: ConfigFacts, port: str, address: str,
                     n: NeighborFacts) -> tuple[str, int] | None:
        """(peer router id, prefixes it sends) when both ends agree, else None."""
        far = self.far_end(device, port)
        if far is None or (device, address) in self.bgp_faults:
            return None
        theirs = self.facts(far[0])
        if theirs is None or theirs.asn != n.remote_as:
            return None
        other = theirs.ports.get(far[1])
        ours = mine.ports[port].ip
        if other is None or other.ip != address or ours is None:
            return None
        back = theirs.neighbors.get(ours)
        if back is None or back.shutdown or back.remote_as != mine.asn \
                or (far[0], ours) in self.bgp_faults:
            return None
        if back.maximum_routes is not None and mine.networks > back.maximum_routes:
            return None  # the far end took the session down: more prefixes than it takes
        return theirs.router_id or "0.0.0.0", theirs.networks


def _port_of(facts: ConfigFacts, address: str) -> str | None:
    """The local port whose subnet holds `address` (the session's link): the first, in the
    config's order, where several do."""
    if facts._subnets is None:
        first: dict[Any, int] = {}
        names = list(facts.ports)
        for at, name in enumerate(names):
            own = facts.ports[name].address
            if own:
                first.setdefault(ipaddress.ip_interface(own).network, at)
        facts._subnets = (first, {(n.version, n.prefixlen) for n in first}, names)
    first, lengths, names = facts._subnets
    ip = ipaddress.ip_address(address)
    found = [first[net] for version, length in lengths if version == ip.version
             and (net := ipaddress.ip_network(f"{ip}/{length}", strict=False)) in first]
    return names[min(found)] if found else None


F = TypeVar("F", bound=Callable[..., Any])


def answered(fn: F) -> F:
    """For a NOS's state entry point `fn(dev, wiring, ...)`: the whole answer reads each
    device's config once (Wiring.answering)."""
    @functools.wraps(fn)
    def wrapped(dev: Any, wiring: Wiring, *args: Any, **kwargs: Any) -> Any:
        with wiring.answering():
            return fn(dev, wiring, *args, **kwargs)
    return cast(F, wrapped)


def wiring_of(spec_options: Mapping[str, Any]) -> Wiring | None:
    """The lab's Wiring from an emulator's DeviceSpec options (None: no operational state)."""
    got = spec_options.get("oper")
    return got if isinstance(got, Wiring) else None


#: state fault kind -> what follows the device (the fault's arguments), for `netcfg lab
#: --state-fault KIND,DEVICE,ARG[,ARG]`
STATE_FAULTS = {"port_down": ("port",), "bgp_down": ("address",),
                "swap": ("port", "port"), "pfc_storm": ("port",), "pfc_off": ("port",),
                "lossless_drops": ("port",)}


def parse_state_fault(text: str) -> tuple[str, tuple[str, ...]]:
    """`KIND,DEVICE,ARG[,ARG]` -> (kind, (device, args...)); commas, since port names hold
    colons (Junos `et-0/0/0:1`). Raises ValueError naming what is allowed."""
    kind, *rest = [p.strip() for p in text.split(",")]
    if kind not in STATE_FAULTS:
        raise ValueError(f"unknown state fault {kind!r}; one of {', '.join(STATE_FAULTS)}")
    want = STATE_FAULTS[kind]
    if len(rest) != 1 + len(want) or not all(rest):
        raise ValueError(f"{kind} takes DEVICE,{','.join(w.upper() for w in want)}")
    return kind, tuple(rest)


# --- FRR and lldpd, as SONiC and Cumulus Linux run them ---------------------------------------
# Both NOSes route with FRR and discover with lldpd; their labs answer `vtysh -c 'show ip bgp
# summary json'` and `lldpctl -f json` in those programs' own JSON (tests/verify compares them
# key by key with captures of real FRR and real lldpd).

#: FRR's FSM state of a session that is not up, by the lab's Session state
_FRR_STATE = {"Active": "Active", "Idle": "Idle"}


def frr_bgp_summary(wiring: Wiring, device: str) -> dict[str, Any]:
    """FRR 8's `show ip bgp summary json` for `device` (its IPv4 unicast table)."""
    mine = wiring.facts(device)
    if mine is None or mine.asn is None:
        return {}
    peers: dict[str, Any] = {}
    for s in wiring.sessions(device):
        up = s.state == "Established"
        if s.shut_down:
            state, peer_state = "Idle (Admin)", "Admin"
        else:
            state, peer_state = ("Established" if up else _FRR_STATE.get(s.state, "Idle")), "OK"
        peer: dict[str, Any] = {}
        far = wiring.far_end(device, s.port) if up and s.port else None
        theirs = wiring.facts(far[0]) if far else None
        if theirs is not None:  # the hostname the peer advertises (FRR's hostname capability)
            peer["hostname"] = theirs.hostname or far[0]  # type: ignore[index]
        peers[s.address] = peer | {
            "remoteAs": s.remote_as, "localAs": s.local_as,
            "version": 4, "msgRcvd": 0, "msgSent": 0, "tableVersion": 0, "outq": 0, "inq": 0,
            "peerUptime": "never", "peerUptimeMsec": 0, "peerUptimeEstablishedEpoch": 0,
            "pfxRcd": s.received if up else 0, "pfxSnt": s.sent if up else 0,
            "state": state, "peerState": peer_state,
            "connectionsEstablished": 1 if up else 0, "connectionsDropped": 0,
            "desc": s.description, "idType": "ipv4"}
    count = len(peers)
    return {"ipv4Unicast": {
        "routerId": mine.router_id or "0.0.0.0", "as": mine.asn, "vrfId": 0,
        "vrfName": "default", "tableVersion": 0, "ribCount": 0, "ribMemory": 0,
        "peerCount": count, "peerMemory": 0, "peerGroupCount": 0, "peerGroupMemory": 0,
        "peers": peers, "failedPeers": sum(1 for p in peers.values()
                                           if p["state"] != "Established"),
        "displayedPeers": count, "totalPeers": count, "dynamicPeers": 0}}


def lldpctl_json(wiring: Wiring, device: str) -> dict[str, Any]:
    """lldpd's `lldpctl -f json` for `device`: one interface is an object keyed by its name,
    several a list of such objects (lldpd's JSON writer); the neighbour's chassis is keyed by
    its system name, its port ID is the interface name (subtype `ifname`)."""
    entries = []
    for rid, (port, n) in enumerate(sorted(wiring.lldp(device).items()), start=1):
        entries.append({port: {
            "via": "LLDP", "rid": str(rid), "age": "0 day, 00:00:01",
            "chassis": {n.device: {
                "id": {"type": "mac", "value": n.mac},
                "descr": system_description(n.nos),
                "capability": [{"type": "Bridge", "enabled": False},
                               {"type": "Router", "enabled": True}]}},
            "port": {"id": {"type": "ifname", "value": n.port}, "descr": n.port,
                     "ttl": "120"}}})
    if not entries:
        return {"lldp": {}}
    return {"lldp": {"interface": entries[0] if len(entries) == 1 else entries}}


def run_linux_state(wiring: Wiring, device: str, argv: list[str]) -> str | None:
    """The answer of `vtysh -c 'show ip bgp summary json'` or `lldpctl -f json` (after any
    `sudo`), None for any other command."""
    import json

    if argv[:1] == ["sudo"]:
        argv = argv[1:]
    if argv == ["vtysh", "-c", "show ip bgp summary json"]:
        with wiring.answering():
            return json.dumps(frr_bgp_summary(wiring, device), indent=2)
    if argv == ["lldpctl", "-f", "json"]:
        with wiring.answering():
            return json.dumps(lldpctl_json(wiring, device), indent=2)
    return None
