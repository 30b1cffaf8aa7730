"""What netcfg renders for Cisco NX-OS (Nexus 9000, CloudScale), with the source of each."""

from netcfg.nos import Capabilities

CAPABILITIES = Capabilities(
    # `ip load-sharing address source-destination port source-destination [universal-id S]`
    # [V 10.3 interfaces guide]. The line has no IP-protocol keyword; whether the switch hashes
    # on the protocol is not documented, so ip_proto is taken but not stated (CAP018).
    hash_fields=frozenset({"src_ip", "dst_ip", "ip_proto", "l4_src_port", "l4_dst_port"}),
    unstated_hash_fields=frozenset({"ip_proto"}),
    # the watchdog shuts (drops) the stuck no-drop queue [V QoS guide]; no forward/alert form.
    watchdog_actions=frozenset({"drop"}),
    # DLB (`hardware profile dlb`, flowlet/per-packet) needs a reload [V genielibs]; not rendered.
    ecmp_modes=frozenset({"static"}),
    # headroom is derived from the no-drop class MTU; ingress pause thresholds are [M].
    per_port_headroom=False,
    # the seed is the `universal-id` of `ip load-sharing` [V 10.3 interfaces guide]
    hash_seed="configured",
    # Per interface: `priority-flow-control watch-dog-interval on|off` [V roce_enable.py; `off`
    # printed by `show running-config all`, a 7.0(3)I7 capture] and an interface multiplier
    # that replaces the shutdown multiplier for that port [V 10.5(x) QoS guide, PFC watchdog
    # workflow; DME interfaceMutiplier 0-40]; its CLI spelling `priority-flow-control
    # watch-dog interface-multiplier` is confirmed by no Cisco text (CAP019 where rendered,
    # Nxos._port_multiplier). Poll interval, restore multiplier and action are switch-wide.
    watchdog_per_port=frozenset({"enabled", "detection"}),
    # The switch-wide watchdog timers: their CLI spellings appear in no Cisco text retrieved
    # (the QoS guide's PFC watchdog workflow names the interval and the shutdown and restore
    # multipliers; Cisco's NX-API reference confirms only `priority-flow-control fixed-restore
    # multiplier` and the `watch-dog-interval on|off` form).
    unverified_lines={
        "priority-flow-control watch-dog interval": "the watchdog poll interval (ms)",
        "priority-flow-control watch-dog shutdown-multiplier": "polls before the queue is shut",
        "priority-flow-control auto-restore multiplier": "polls before the queue is restored",
    },
    # No `maximum-prefix` is rendered and NX-OS states no default limit: Cisco's Nexus 3000
    # NX-OS Unicast Routing Configuration Guide 5.0(3)U1(1), "Configuring Advanced BGP", lists
    # none among its "Default BGP Parameters" (Table 6-1) and advises "Use the maximum-prefix
    # configuration option per peer to restrict the number of routes received"; no Nexus 9000
    # text found says otherwise. RTE006 then has no NX-OS limit to compare with.
    prefix_limit=None,
    unrendered={
        "cloudvision": "CloudVision's agent (TerminAttr) is EOS's; nothing is rendered here",
        "qos.headroom_profiles[].xon": "no ingress pause-threshold line is rendered [M]; the "
                                       "switch sizes no-drop headroom from the class MTU",
        "qos.headroom_profiles[].xoff": "no ingress pause-threshold line is rendered [M]; the "
                                        "switch sizes no-drop headroom from the class MTU",
        "qos.headroom_profiles[].size": "no buffer-size line is rendered [M]; the switch sizes "
                                        "no-drop headroom from the class MTU",
        "qos.dynamic_th": "no queue-limit (alpha) line is rendered; the switch keeps its own",
        "qos.pools.total": "no buffer-pool line is rendered; the switch keeps its own carving",
        "qos.pools.shared": "no buffer-pool line is rendered; the switch keeps its own carving",
    },
)
