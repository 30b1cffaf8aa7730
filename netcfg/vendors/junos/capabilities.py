"""What netcfg renders for Juniper Junos OS Evolved (QFX5240), with the source of each."""

from netcfg.nos import Capabilities

CAPABILITIES = Capabilities(
    # `forwarding-options hash-key family inet { layer-3; layer-4; }` [JVD configlet_dlb.tf];
    # layer-3 is taken as addresses + protocol and layer-4 as both ports [M]. No finer field
    # choice, ingress port or flow label is known for QFX52xx.
    hash_fields=frozenset({"src_ip", "dst_ip", "ip_proto", "l4_src_port", "l4_dst_port"}),
    # on detection the queue is disabled for the recovery time, its packets flushed [V PFC
    # watchdog page]; a configurable forward/alert action was not confirmed [M].
    watchdog_actions=frozenset({"drop"}),
    # `enhanced-hash-key ecmp-dlb flowlet { inactivity-interval N; }` or `per-packet`
    # [JVD configlet_dlb.tf]; inactivity unit microseconds [M].
    ecmp_modes=frozenset({"static", "flowlet", "per_packet"}),
    # headroom comes from the shared-buffer partitions (switch-wide percents [JVD]); the
    # per-port CNP `cable-length`/`mru` inputs exist on QFX Junos only, not Evolved [V, M].
    per_port_headroom=False,
    # No hash-seed statement under `forwarding-options enhanced-hash-key` was verified.
    hash_seed="unsupported",
    # On Junos OS Evolved the management default route belongs in the `mgmt_junos` routing
    # instance (`system management-instance`); a route in inet.0 would draw fabric traffic
    # [V "Management Interface in a Dedicated Instance"]. Rendered there (routing-instances
    # is in the Juniper YANG netcfg checks every file with); without a gateway the switch
    # keeps its own instance and route (deploy.device_local) and validate warns (CAP027).
    root_authentication=True,
    # Juniper, hold-time (Protocols BGP): "The hold time is three times the interval at which
    # keepalive messages are sent"; the configuration YANG has no keepalive leaf
    bgp_keepalive=False,
    unrendered={
        "cloudvision": "CloudVision's agent (TerminAttr) is EOS's; nothing is rendered here",
        # `protocols bgp group multipath` has no path count [Juniper BGP multipath page]
        "bgp.maximum_paths": "BGP multipath has no path count; the platform's ECMP limit "
                             "applies",
        # headroom is the ingress `lossless-headroom` partition, one switch-wide percent
        # [Apstra 6.1 DCQCN configlet; render.INGRESS_PARTITIONS]
        "qos.headroom_profiles[].xon": "headroom is the shared buffer's lossless-headroom "
                                       "partition (a switch-wide percent), not per port",
        "qos.headroom_profiles[].xoff": "headroom is the shared buffer's lossless-headroom "
                                        "partition (a switch-wide percent), not per port",
        "qos.headroom_profiles[].size": "headroom is the shared buffer's lossless-headroom "
                                        "partition (a switch-wide percent), not per port",
        "qos.dynamic_th": "no shared-buffer dynamic threshold is rendered; the switch keeps "
                          "its own",
        "qos.pools.total": "the shared-buffer partitions are Juniper's own AI percents (lossless "
                           "66 % in and out), not netcfg's pool sizes",
        "qos.pools.shared": "the shared-buffer partitions are Juniper's own AI percents "
                            "(lossless 66 % in and out), not netcfg's pool sizes",
    },
)
