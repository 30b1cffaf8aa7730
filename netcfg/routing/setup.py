"""What the deadlock checker assumes about forwarding: model, traffic, rules, rewrites.

`RoutingSetup` is plain data, so the checker can be driven from an intent (`from_intent`) or
directly from the neutral case format of `shared/cases/deadlock-public.yaml` in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from netcfg.intent.model import Intent

MODELS = ("updown", "shortest_path", "bounce_on_failure", "k_bounce", "all_simple_paths")
FLOOD = "all_except_ingress"


@dataclass(frozen=True, slots=True)
class Rule:
    """Ingress-aware override applied before the policy (static route, flood, drop)."""

    at: str
    dst: str
    in_from: str | None  # None = any ingress (and locally originated traffic)
    out_to: tuple[str, ...] | Literal["all_except_ingress"]
    #: position of the rule in the intent (routing.deadlock.rules[i]) for findings
    index: int | None = None


@dataclass(slots=True)
class RoutingSetup:
    model: str = "updown"
    max_bounces: int = 1
    k: int = 1
    max_hops: int = 6
    traffic: str | list[tuple[str, str]] = "all_leaf_pairs"
    dead_hosts: list[str] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    #: priority carried by tag i; without a rewrite this is [the RoCE priority]
    tags_to_priorities: list[int] = field(default_factory=lambda: [3])
    rewrite: Literal["tag_on_bounce", "increment_on_channel"] | None = None
    #: dateline channels (from, to): a packet entering the channel from -> to (not the
    #: other way) carries the next tag, as a virtual channel does on one ring direction
    dateline: set[tuple[str, str]] = field(default_factory=set)
    #: priorities with PFC enabled (a tag mapped elsewhere is lossy)
    pfc_priorities: set[int] = field(default_factory=lambda: {3})
    #: what flows run between: `host` (a multi-port server is one endpoint; a flow between
    #: two servers is delivered when any of their ports reach each other) or `port`
    endpoints: Literal["host", "port"] = "host"

    def label(self) -> str:
        """The model as the spec writes it, e.g. `bounce_on_failure(max_bounces=1)`."""
        extra = {"bounce_on_failure": f"max_bounces={self.max_bounces}",
                 "k_bounce": f"k={self.k}", "all_simple_paths": f"max_hops={self.max_hops}"}
        return f"{self.model}({extra[self.model]})" if self.model in extra else self.model


def resolve_model(intent: Intent) -> tuple[str, str]:
    """The routing model `auto` stands for, and why (the one place this is decided).

    RFC 7938 eBGP where every spine layer shares an ASN (`shared`, or `per_pod` with pods)
    rejects valley routes by AS-path loop detection, so converged routing is valley-free:
    `updown`. Unique spine ASNs accept them: `shortest_path`. Explicit topologies have no ASN
    plan to go by and use `shortest_path` (the safe, more permissive assumption).
    """
    dl = intent.routing.deadlock
    if dl.model != "auto":
        return dl.model, "set in routing.deadlock.model"
    if intent.topology.kind == "explicit":
        return "shortest_path", "explicit topology: no ASN plan proves valley-free routing"
    if intent.routing.asn.spine in ("shared", "per_pod"):
        return "updown", (f"spine ASNs are {intent.routing.asn.spine}: eBGP loop detection "
                          "rejects valley routes (RFC 7938)")
    return "shortest_path", "unique spine ASNs accept valley routes"


def from_intent(intent: Intent, has_hosts: bool) -> RoutingSetup:
    """The setup an intent describes (`routing.deadlock`, QoS lossless priorities)."""
    from netcfg.intent.model import IncrementOnChannel, TagOnBounce

    dl = intent.routing.deadlock
    qos = intent.qos
    pfc = set(qos.pfc_priorities())
    roce = qos.classes.get(qos.roce_class)
    initial = roce.traffic_class if roce is not None and roce.lossless else min(pfc, default=3)
    model, _why = resolve_model(intent)
    traffic: str | list[tuple[str, str]]
    if isinstance(dl.traffic, list):
        traffic = [(p[0], p[1]) for p in dl.traffic if len(p) == 2]
    elif dl.traffic == "auto":
        traffic = "all_host_pairs" if has_hosts else "all_leaf_pairs"
    else:
        traffic = dl.traffic
    rules = [Rule(r.at, r.dst, None if r.in_from == "any" else r.in_from,
                  r.out_to if isinstance(r.out_to, str) else tuple(r.out_to), i)
             for i, r in enumerate(dl.rules)]
    setup = RoutingSetup(model=model, max_bounces=dl.max_bounces, k=dl.k, max_hops=dl.max_hops,
                         traffic=traffic, dead_hosts=list(dl.dead_hosts), rules=rules,
                         tags_to_priorities=[initial], pfc_priorities=pfc,
                         endpoints=dl.endpoints)
    rw = dl.priority_rewrite
    if isinstance(rw, TagOnBounce):
        setup.rewrite = "tag_on_bounce"
        setup.tags_to_priorities = list(rw.tags_to_priorities)
    elif isinstance(rw, IncrementOnChannel):
        setup.rewrite = "increment_on_channel"
        setup.tags_to_priorities = list(rw.tags_to_priorities)
        setup.dateline = {(c[0], c[1]) for c in rw.channels if len(c) == 2}
    return setup
