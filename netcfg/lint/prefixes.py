"""Prefix limits: how many prefixes each BGP session carries, against the receiving NOS's limit.

A NOS may cap the prefixes one session may bring (EOS: `neighbor ... maximum-routes`, 12,000
when the file states none) and take the session down past it. Which prefixes a session carries
follows from the plan: every switch announces its loopback and its server subnets (each one, or
only blocks of several where its NOS announces blocks: `Capabilities.server_subnets`), and eBGP
passes routes on. The count is a model of BGP path-vector routing, stated here so that it can
be checked by hand:

- a switch advertises to each neighbour one path per prefix it holds: its best, the shortest
  AS path (ties keep every neighbour AS they came from);
- a switch drops a path whose AS path holds its own AS (RFC 4271 section 9.1.2, loop
  detection): a prefix originated in its own AS, or one whose best path at the sender came
  only through neighbours in the receiver's AS. AS repeats deeper in a path, iBGP rules and
  route maps are not modelled (netcfg renders eBGP between different ASes and no route maps);
  where the best path at the sender is a tie between several neighbour ASes, the prefix is
  counted as carried (a count from above);
- what a session carries to the receiver is every prefix the sender holds and the receiver
  does not drop by that rule, whether or not the receiver then prefers another path.

For a leaf of RFC 7938's Clos that is every other leaf's prefixes, the loopback of the spine
at the far end, and what reaches that spine from above. Counts are per prefix origin: origins
are bits of Python integers, so a fabric of thousands of switches is counted in seconds, and
only when some switch's NOS has a limit the fabric's prefixes could reach.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from netcfg.findings import Finding, Rule
from netcfg.lint.consistency import Collect
from netcfg.topology.fabric import Device, Fabric
from netcfg.vendors import vendor

RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("RTE006", "error", "a BGP session would carry more prefixes than the receiving "
         "switch's NOS allows", "the NOS takes the session down past its limit (EOS: "
         "Idle(MaxPath) past maximum-routes, 12,000 when none is configured) and keeps it "
         "down: the links of that session carry no traffic", "netcfg/lint/prefixes.py; "
         "docs/render-eos.md, docs/render-nxos.md (prefix limit)"),
)}


@dataclass(frozen=True, slots=True)
class Session:
    """One BGP session, seen from the switch that receives: the prefixes it carries."""

    receiver: str
    sender: str
    prefixes: int


def originated(fabric: Fabric, dev: Device) -> int:
    """The prefixes `dev` announces: its loopback and its server subnets, each one or only the
    blocks of several (its NOS's `server_subnets`), as the plan and the NOS readers state."""
    subnets, blocks = dev.server_prefixes()
    if vendor(fabric.platform(dev).nos).capabilities.server_subnets == "blocks":
        return 1 + len(set(blocks) - set(subnets))
    return 1 + len(subnets)


def _peers(fabric: Fabric) -> tuple[list[Device], list[set[int]]]:
    """The switches, and per switch the indices of the switches it has a BGP session with
    (a link between two switches with addresses and ASes, as the plans make neighbours)."""
    switches = [d for d in fabric.switches()]
    index = {d.name: i for i, d in enumerate(switches)}
    peers: list[set[int]] = [set() for _ in switches]
    for i, dev in enumerate(switches):
        for p in dev.ports:
            far = p.peer
            if far is None or not far.device.is_switch or far.address is None \
                    or p.address is None or far.device.asn is None or dev.asn is None:
                continue
            peers[i].add(index[far.device.name])
    return switches, peers


def sessions(fabric: Fabric, receivers: set[str] | None = None) -> list[Session]:
    """Every BGP session's prefix count (only those received by `receivers`, when given)."""
    switches, peers = _peers(fabric)
    count = [originated(fabric, d) for d in switches]
    asn = [d.asn for d in switches]
    in_as: dict[int | None, int] = defaultdict(int)
    for i, a in enumerate(asn):
        in_as[a] |= 1 << i
    weights: dict[int, int] = defaultdict(int)  # prefixes per origin -> origins with that many
    for i, n in enumerate(count):
        weights[n] |= 1 << i

    def weigh(bits: int) -> int:
        return sum(n * (bits & mask).bit_count() for n, mask in weights.items())

    held = [1 << i for i in range(len(switches))]
    frontier = list(held)
    # per switch: neighbour AS -> origins whose best paths came (also) through it; and the
    # origins whose best paths came through several ASes
    via: list[dict[int | None, int]] = [{} for _ in switches]
    several = [0] * len(switches)

    def only_via(u: int, a: int | None) -> int:
        return via[u].get(a, 0) & ~several[u]

    while any(frontier):
        offered = [0] * len(switches)
        came: list[dict[int | None, int]] = [defaultdict(int) for _ in switches]
        for u, bits in enumerate(frontier):
            if not bits:
                continue
            for x in peers[u]:
                offer = bits & ~held[x] & ~in_as[asn[x]] & ~only_via(u, asn[x])
                if offer:
                    offered[x] |= offer
                    came[x][asn[u]] |= offer
        for x, bits in enumerate(offered):
            if not bits:
                continue
            held[x] |= bits
            total = 0
            for a, got in came[x].items():
                several[x] |= got & total
                total |= got
                via[x][a] = via[x].get(a, 0) | got
        frontier = offered
    out = []
    for u, dev in enumerate(switches):
        for x in sorted(peers[u]):
            receiver = switches[x].name
            if receivers is not None and receiver not in receivers:
                continue
            carried = held[u] & ~in_as[asn[x]] & ~only_via(u, asn[x])
            out.append(Session(receiver, dev.name, weigh(carried)))
    return out


def limits(fabric: Fabric) -> dict[str, tuple[int, str, str]]:
    """Switch name -> (the per-session limit its NOS's file leaves it in this fabric, the NOS,
    where the limit comes from), for the switches whose NOS has one (Vendor.prefix_limit: EOS
    sizes its rendered maximum-routes from the fabric's prefixes; NX-OS states no default)."""
    return _limits(fabric, _upper_bound(fabric))


def _limits(fabric: Fabric, total: int) -> dict[str, tuple[int, str, str]]:
    """`limits` with the fabric's upper bound of prefixes already counted."""
    out = {}
    by_nos: dict[str, tuple[int, str] | None] = {}
    for dev in fabric.switches():
        nos = fabric.platform(dev).nos
        if nos not in by_nos:
            by_nos[nos] = vendor(nos).prefix_limit(total)
        got = by_nos[nos]
        if got is not None:
            out[dev.name] = (got[0], nos, got[1])
    return out


def _upper_bound(fabric: Fabric) -> int:
    """At most this many prefixes in the whole fabric (a loopback and a subnet per server
    port per switch), without building a subnet."""
    return sum(1 + sum(1 for p in d.ports if p.peer is not None and p.peer.device.tier <= 0)
               for d in fabric.switches())


def check(fabric: Fabric, limit: dict[str, tuple[int, str, str]] | None = None
          ) -> list[Finding]:
    """RTE006 on every switch whose NOS limits the prefixes per session (`limit`: the limits
    to judge by instead of each NOS's own, by switch name)."""
    total = _upper_bound(fabric)  # a walk of every switch port: once
    limit = _limits(fabric, total) if limit is None else limit
    if not limit or total <= min(n for n, _, _ in limit.values()):
        return []  # no session can carry more prefixes than the whole fabric has
    c = Collect(fabric, RULES)
    # one finding per intent line that chose the receivers' platform (as the capability rules
    # name a NOS's switches once), with the session that carries the most
    over: dict[tuple, list[Session]] = defaultdict(list)
    for s in sessions(fabric, set(limit)):
        if s.prefixes > limit[s.receiver][0]:
            dev = fabric.devices[s.receiver]
            over[(limit[s.receiver][1], dev.platform_path)].append(s)
    for (nos, path), found in sorted(over.items(), key=lambda kv: str(kv[0])):
        worst = max(found, key=lambda s: (s.prefixes, s.receiver, s.sender))
        cap, _, source = limit[worst.receiver]
        receivers = sorted({s.receiver for s in found})
        others = (f"; {len(found)} sessions of {len(receivers)} {nos} switches are past their "
                  "limit" if len(found) > 1 else "")
        c.add("RTE006", path, f"{worst.receiver} would receive {worst.prefixes} prefixes from "
              f"{worst.sender} on one BGP session, more than its {nos} config allows ({cap}: "
              f"{source}){others}: such a session goes down and stays down",
              device=worst.receiver)
    return c.findings()
