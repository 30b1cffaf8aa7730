"""The facts of one NOS that the layers below rendering read (netcfg/nos/__init__.py): what it
can configure (`Capabilities`), how it carves a switch's buffer (`NosFacts.pool_layout`), and
what its raw-config lines and banners must look like. Each NOS package declares one `NosFacts`
(netcfg/vendors/<nos>/facts.py, or a plugin's), and its `Vendor` renders with the same."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from netcfg.intent.qos import WatchdogOverride
from netcfg.nos.grammar import exec_line

#: every watchdog field a port override may set (the fields of the intent's override)
WATCHDOG_FIELDS: frozenset[str] = frozenset(WatchdogOverride.model_fields)

#: how a NOS takes the intent's ECMP hash seed
SeedSupport = Literal["configured", "unsupported", "by_role"]


@dataclass(frozen=True)
class Capabilities:
    """What the NOS can configure, as netcfg renders it. Every value carries its vendor source
    in a comment where it is defined (netcfg/vendors/<nos>/capabilities.py)."""

    #: intent hash fields (`ecmp.fields`) the NOS hashes on
    hash_fields: frozenset[str]
    #: PFC watchdog actions (`qos.pfc.watchdog.action`)
    watchdog_actions: frozenset[str]
    #: ECMP modes (`ecmp.mode`) netcfg renders
    ecmp_modes: frozenset[str]
    #: one PFC headroom per port (False: one value for the whole switch)
    per_port_headroom: bool
    #: `ecmp.algorithm` values the NOS renders; "default" keeps the ASIC's own
    hash_algorithms: frozenset[str] = frozenset({"default"})
    #: `ecmp.resilient` can be rendered
    resilient_hashing: bool = False
    #: how `ecmp.seeds` reaches the device
    hash_seed: SeedSupport = "configured"
    #: for hash_seed == "by_role": the seed the NOS derives itself for each role
    seed_by_role: Mapping[str, int] = field(default_factory=dict)
    #: watchdog fields a port override may set (the others are switch-wide)
    watchdog_per_port: frozenset[str] = WATCHDOG_FIELDS
    #: how the rendered config announces the server-facing subnets in BGP: "each" one as it
    #: is, or only as "blocks" of several (Device.server_blocks); a subnet that is a block of
    #: its own then goes unannounced, and CAP009 says so
    server_subnets: Literal["each", "blocks"] = "each"
    #: the NOS file holds routing only (FRR): QoS, PFC, buffers and hashing are the box's own
    #: business, CAP012 warns once and the QoS/hash capability checks do not apply
    routing_only: bool = False
    #: BFD on the BGP sessions (`routing.bfd`) is rendered; where not, CAP011 warns
    bfd: bool = True
    #: a TCP MD5 key on a BGP session (`routing.authentication`) can be stated; where not, the
    #: sessions to and from this NOS run without one and CAP013 warns
    session_key: bool = True
    #: the management VRF's default route (`management.gateway`) is rendered; where not,
    #: CAP014 warns (a push from beyond the management subnet cannot reach the switch)
    management_route: bool = True
    #: why not, and what to do instead (CAP014's message)
    management_route_note: str = ""
    #: rendered lines no vendor text confirms (the spelling, as a prefix of the line -> what is
    #: known of it): CAP019 names them for every platform of the NOS until a source is found
    unverified_lines: Mapping[str, str] = field(default_factory=dict)
    #: hash fields the intent may ask for but the file cannot state, because no keyword for
    #: them is verified on the NOS (EOS: the IP protocol); the switch's own choice applies and
    #: CAP018 says so
    unstated_hash_fields: frozenset[str] = frozenset()
    #: the file states the BGP keepalive (`routing.timers.keepalive`); where not (Junos), the
    #: NOS sends one every third of the stated hold time and CAP032 warns where the intent's
    #: keepalive is another
    bgp_keepalive: bool = True
    #: the file states root's password (`management.root_authentication`), because the NOS
    #: refuses to commit a configuration without one (Junos); elsewhere the switch keeps its
    #: own and CAP016 notes it where the intent gives a hash
    root_authentication: bool = False
    #: lossless traffic has a shared pool of its own, `qos.buffer.lossless_pool` percent of
    #: the shared buffer (the lossy pool has the rest): the lossless queues' dynamic limit is
    #: taken of that share, and the plan carries the percent (`qos.pools.lossless_percent`)
    lossless_pool: bool = False
    #: the NOS config can state a shared headroom pool (`qos.buffer.shared_headroom_pool`:
    #: lossless PGs reserve only xon per port, their xoff comes from one pool); where not,
    #: CAP015 refuses the intent
    shared_headroom_pool: bool = True
    #: the NOS states cable lengths in whole metres and derives or checks headroom from that
    #: (SONiC's CABLE_LENGTH): netcfg computes the headroom of the rounded-up length too, so
    #: both sides agree
    whole_metre_cables: bool = False
    #: the prefixes one BGP session may carry to this switch before the NOS tears it down: the
    #: limit the rendered file states, else the NOS's own default (None: no limit the vendor
    #: states). RTE006 compares each session's prefixes with it (netcfg/lint/prefixes.py)
    prefix_limit: int | None = None
    #: where prefix_limit comes from (RTE006's message names it)
    prefix_limit_source: str = ""
    #: DevicePlan fields (paths as in tests/test_coverage.py: `qos.pools.total`,
    #: `interfaces[].lanes`) the rendered config does not state, each with why: the switch then
    #: keeps its own value, and CAP010 says so
    unrendered: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PoolLayout:
    """How a NOS carves a switch's buffer into pools, as the physics budget needs it."""

    #: bytes the pools divide
    buffer: int
    #: what the NOS keeps back before any pool, beyond the lossless PGs' headroom
    reserved: int = 0
    #: lossless PGs draw on a pool of their own, `qos.buffer.lossless_pool` percent of the rest
    lossless_pool: bool = False
    #: where `buffer` comes from ("" = the catalog's ASIC buffer) and where `reserved` does;
    #: explain prints them
    source: str = ""
    reserves_source: str = ""



@dataclass(frozen=True, slots=True)
class Switch:
    """One switch as a NOS needs it to carve its buffer: plain values from the catalog and the
    topology (physics builds it), so the facts need neither."""

    #: the platform's catalog name and the switch's role
    platform: str
    role: str
    #: the catalog's ASIC buffer, bytes
    buffer: int
    #: the ASIC's pipeline latency where it is a Spectrum (SONiC's ASIC_TABLE), else None
    pipeline_latency_kib: float | None
    #: (speed in Mb/s, SerDes lanes) of every port with a peer, in port order
    ports: tuple[tuple[int, int], ...]
    #: ports with lossless PGs
    lossless_ports: int
    #: the intent asks for a shared headroom pool
    shared_headroom_pool: bool


class NosFacts:
    """What a NOS is: its name, capabilities, buffer carving and raw-config grammar. The
    defaults suit a line NOS whose pools divide the catalog's ASIC buffer."""

    #: the name used in the platform catalog (`nos:`) and both entry points
    name: ClassVar[str]
    capabilities: ClassVar[Capabilities]
    #: how `raw_config` reaches this NOS's file: "lines" of its own syntax at the start or
    #: the end of the file, or a "tree" laid over its document (netcfg/vendors/raw.py)
    raw_form: ClassVar[Literal["lines", "tree"]] = "lines"

    def banner_refusal(self, text: str) -> str | None:
        """Why this NOS's file cannot carry banner `text` as written (None: it can, or the NOS
        renders no banner)."""
        return None

    def raw_refusal(self, lines: str | None, merge: Mapping[str, Any] | None) -> str | None:
        """Why a `raw_config` entry cannot go into this NOS's file (None: it can): the wrong
        form, or lines that would do more than configure (`raw_line_refusal`)."""
        if self.raw_form == "lines":
            if lines is None:
                return "this NOS takes 'lines' in its own syntax, not a 'merge' mapping"
            return self.raw_line_refusal(lines)
        if merge is None:
            return "this NOS takes a 'merge' mapping laid over its document, not 'lines'"
        return self.raw_tree_refusal(merge)

    def raw_line_refusal(self, lines: str) -> str | None:
        """A line that leaves configuration mode or acts on the switch (EOS's and NX-OS's CLI:
        grammar.EXEC_WORDS)."""
        return exec_line(lines)

    def raw_tree_refusal(self, merge: Mapping[str, Any]) -> str | None:
        """What the NOS's document cannot take (none by default: the lab's schema checks it)."""
        return None

    def pool_layout(self, switch: Switch) -> PoolLayout:
        """How this NOS carves the switch's buffer: by default the catalog's ASIC buffer,
        nothing kept back, and the capability's pools."""
        return PoolLayout(switch.buffer, lossless_pool=self.capabilities.lossless_pool)
