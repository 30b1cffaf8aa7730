"""What netcfg renders for Arista EOS (7060X/7800 XGS and Sand), with the source of each."""

from netcfg.nos import Capabilities

#: the floor of `neighbor <group> maximum-routes` on each peer group: Arista's reference
#: underlay value (AVD eos_designs `bgp_peer_groups.ipv4_underlay_peers.maximum_routes` default
#: 256000 since AVD PR 6353; pyavd 6.4 renders `neighbor IPv4-UNDERLAY-PEERS maximum-routes
#: 256000`). EOS's own default is 12,000 (below); RTE006 checks that no session of the fabric
#: carries more than the limit rendered
MAXIMUM_ROUTES = 256_000
#: above the floor, the limit is this many times the prefixes the whole fabric originates
#: (netcfg's headroom: the fabric may double before a session reaches it; no vendor number)
HEADROOM = 2


def maximum_routes(fabric_prefixes: int) -> int:
    """The `maximum-routes` of a fabric originating `fabric_prefixes` prefixes (no session
    carries more): HEADROOM times that, rounded up to a thousand, never below AVD's 256,000."""
    return max(MAXIMUM_ROUTES, -(-HEADROOM * fabric_prefixes // 1000) * 1000)


def prefix_limit_source(fabric_prefixes: int) -> str:
    """Where the limit of a fabric of `fabric_prefixes` comes from (RTE006's message)."""
    limit = maximum_routes(fabric_prefixes)
    why = ("Arista AVD's underlay default" if limit == MAXIMUM_ROUTES
           else f"{HEADROOM} x the fabric's {fabric_prefixes} prefixes")
    return f"the rendered `neighbor <group> maximum-routes {limit}`, {why}"

CAPABILITIES = Capabilities(
    # `ip load-sharing trident fields ip source-ip source-port destination-ip destination-port
    # ingress-interface` [V public configs, per the EOS notes: the field set a network
    # automation project found EOS hides as its default]. No public EOS text names a keyword
    # for the IP protocol, so ip_proto is taken in the intent but not stated (CAP018): RoCEv2
    # is always UDP, so its spread does not depend on it. MAC, VLAN, flow label and the RoCE QP
    # (Sand UDP-payload hashing only) are not offered on XGS.
    hash_fields=frozenset({"src_ip", "dst_ip", "ip_proto", "l4_src_port", "l4_dst_port",
                           "ingress_port"}),
    unstated_hash_fields=frozenset({"ip_proto"}),
    # global `priority-flow-control pause watchdog action drop|no-drop` and port
    # `... port action drop|notify-only` [AVD schema]; no-drop read as "forward" [M].
    watchdog_actions=frozenset({"drop", "forward", "alert"}),
    # DLB/flowlet CLI not retrieved (EOS TOI 4.30, [M]); only static hashing is rendered.
    ecmp_modes=frozenset({"static"}),
    # XGS headroom is one `platform trident mmu queue profile` applied to the whole switch
    # [AVD platform-trident.j2]; no per-interface headroom command is known.
    per_port_headroom=False,
    # No ECMP hash seed command found for XGS or Sand in AVD (load-balance.j2, platform.j2,
    # ip load-sharing) or Arista's TOIs: validate warns (CAP005) instead of guessing a line.
    hash_seed="unsupported",
    # Every peer group gets `maximum-routes`: twice the fabric's prefixes, at least 256000
    # (MAXIMUM_ROUTES above, Arista AVD's underlay default; the limit of a fabric is
    # Eos.prefix_limit, the floor is stated here); without the line EOS allows 12,000 per
    # session and a session past it goes Idle(MaxPath): `show running-config all` prints
    # `neighbor <group> maximum-routes 12000` for an unconfigured group (EOS 4.22.3M capture,
    # ../shared/factory/eos), sonic-mgmt PR 4821 (cEOS: "Idle(MaxPath)" past 12K routes),
    # AVD issue 1885 ("12000 for underlay" as the default then).
    prefix_limit=MAXIMUM_ROUTES,
    prefix_limit_source=f"the rendered `neighbor <group> maximum-routes`, at least "
                        f"{MAXIMUM_ROUTES}",
    # No hash-algorithm or resilient-ECMP line is rendered (none verified for XGS).
    unrendered={
        "breakouts[].parent": "no EOS line splits a cage: the split ports (Ethernet1/1, 1/5, ...) "
                              "must already run in that mode on the switch",
        "breakouts[].ports": "no EOS line splits a cage: the split ports must already run in "
                             "that mode on the switch",
        # the queue profile states threshold, headroom (xoff) and resume (xon) [AVD
        # platform-trident.j2]; a PG's total reservation has no line of its own
        "qos.headroom_profiles[].size": "the queue profile states headroom (xoff) and resume "
                                        "(xon) only; EOS derives the reservation",
        "qos.pools.total": "EOS carves the MMU into pools itself; no pool-size line is rendered",
        "qos.pools.shared": "EOS carves the MMU into pools itself; no pool-size line is rendered",
    },
)
