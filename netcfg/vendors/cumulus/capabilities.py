"""What netcfg renders for NVIDIA Cumulus Linux (NVUE), with the source of each."""

from netcfg.nos import Capabilities

#: netcfg hash field -> `nv set system forwarding ecmp-hash <field>` (NVUE System-Forwarding ref).
HASH_FIELDS: dict[str, str] = {
    "src_ip": "source-ip", "dst_ip": "destination-ip", "ip_proto": "ip-protocol",
    "l4_src_port": "source-port", "l4_dst_port": "destination-port",
    "ipv6_flow_label": "ipv6-label", "ingress_port": "ingress-interface",
}

CAPABILITIES = Capabilities(
    # NVUE reference, System Forwarding: ecmp-hash fields (MAC/ethertype/VLAN are lag-hash only).
    hash_fields=frozenset(HASH_FIELDS),
    # Cumulus QoS docs, PFC watchdog: no action knob; the stormed lossless queue is dropped.
    watchdog_actions=frozenset({"drop"}),
    # Adaptive routing exists (`router adaptive-routing`) but is not flowlet/per-packet ECMP as
    # netcfg means it; only static hashing is rendered.
    ecmp_modes=frozenset({"static"}),
    # `interface <swp> qos pfc profile <p>`, each profile with its own xoff/xon/port-buffer.
    per_port_headroom=True,
    # QoS page (5.9, 5.14), "Flow Control Buffers": `qos traffic-pool default-lossless
    # memory-percent` and `default-lossy memory-percent`, at most 100 together; PFC traffic
    # uses the lossless service pool (flow_control.ingress/egress_service_pool = 1).
    lossless_pool=True,
    # NVUE's PFC profile reserves `port-buffer` per port and priority; no NVUE command or
    # qos_infra.conf key for a shared headroom pool is documented (5.9, 5.14 QoS pages).
    shared_headroom_pool=False,
    # `qos pfc <p> cable-length` in metres, 1-100000 (QoS page 5.9, 5.14; `nv show qos pfc`:
    # "Cable Length (in meters)"): Cumulus derives the headroom from whole metres, so netcfg's
    # numbers are those of the rounded-up length
    whole_metre_cables=True,
    # `system forwarding hash-seed` (NVUE System-Forwarding reference)
    hash_seed="configured",
    # BFD as each release writes it (netcfg/vendors/cumulus/releases.py), on the peer group of
    # each tier: 5.14 `bfd enable on` with its timers, 5.15 a `router bfd profile` the group
    # names ("Bidirectional Forwarding Detection - BFD", 5.14 and 5.15 pages; NVUE reference
    # `peer-group <id> bfd ...`, `peer-group <id> bfd profile` new in 5.15).
    unrendered={
        "cloudvision": "CloudVision's agent (TerminAttr) is EOS's; nothing is rendered here",
        # `qos pfc-watchdog` takes polling-interval and robustness only (detection = poll x
        # robustness) [NVIDIA Cumulus Linux 5.9/5.14 QoS docs, via the release notes]
        "qos.watchdog_default.restoration_ms": "NVUE's PFC watchdog sets polling-interval and "
                                               "robustness only, no restoration time",
        "qos.dynamic_th": "no NVUE shared-buffer alpha is rendered; the switch keeps its own",
        "qos.headroom_profiles[].xon": "NVUE's PFC profiles state the cable length; Cumulus "
                                       "derives xon, xoff and the reserve from it (NVIDIA: "
                                       "let Cumulus configure them dynamically); netcfg "
                                       "explain shows the values the switch must reach",
        "qos.headroom_profiles[].xoff": "Cumulus derives xoff from the profile's cable-length "
                                        "(netcfg explain shows the value it must reach)",
        "qos.pools.total": "NVUE states the pools as percents of the buffer "
                           "(qos.pools.lossless_percent), not their sizes in bytes",
        "qos.pools.shared": "NVUE states the pools as percents of the buffer "
                            "(qos.pools.lossless_percent), not their sizes in bytes",
        "lldp": "lldpd runs by default on Cumulus Linux; nothing is rendered for it",
        # the Syslog page (5.15): a severity is a selector's, and selectors without a facility
        # forwarded only `daemon` before 5.15; none is rendered, so every severity goes out
        # docs/render-cumulus.md, "AAA: TACACS+ and RADIUS": two readings of the server key
        # and of the order in NVIDIA's own pages, no YAML of either; none rendered is the
        # choice that can neither block the file nor lock anyone out
        "aaa": "no NVUE `system aaa tacacs|radius` is rendered: NVIDIA's pages key a TACACS+ "
               "server by its address (5.14/5.15 TACACS pages) or by its priority (NVUE "
               "reference), write the order `authentication-order <n> tacacs|local` (TACACS "
               "pages) or `authentication order radius local` (5.15 RADIUS page), and show "
               "no YAML of the order, which keeps local logins the fallback; the switch "
               "keeps its own (`system aaa` is kept by a push)",
        "syslog_severity": "no NVUE syslog selector is rendered: the servers receive every "
                           "severity (before 5.15 a selector without a facility forwarded "
                           "only the daemon facility)",
    },
)
