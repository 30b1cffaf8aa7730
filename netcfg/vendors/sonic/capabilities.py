"""What netcfg renders into SONiC's CONFIG_DB, with the source of each."""

from netcfg.nos import Capabilities

#: netcfg hash field -> sonic-hash.yang `hash-field` enum (SWITCH_HASH|GLOBAL ecmp_hash).
HASH_FIELDS: dict[str, str] = {
    "src_ip": "SRC_IP", "dst_ip": "DST_IP", "ip_proto": "IP_PROTOCOL",
    "l4_src_port": "L4_SRC_PORT", "l4_dst_port": "L4_DST_PORT", "src_mac": "SRC_MAC",
    "dst_mac": "DST_MAC", "ethertype": "ETHERTYPE", "vlan": "VLAN_ID", "ingress_port": "IN_PORT",
    "ipv6_flow_label": "IPV6_FLOW_LABEL",
}

#: netcfg algorithm -> sonic-hash.yang `hash-algorithm` enum; "default" leaves the ASIC's own.
HASH_ALGORITHMS: dict[str, str | None] = {
    "default": None, "crc16": "CRC", "crc32": "CRC_32LO", "xor": "XOR"}

#: DEVICE_METADATA type per role, SONiC's tier names: the server-facing leaf is SONiC's T0
#: (ToRRouter), a spine T1 (LeafRouter), a core T2 (SpineRouter). The type selects the hash
#: seed (orchagent's switch.json.j2; there is no seed leaf in CONFIG_DB), the SKU's buffer
#: defaults file (buffers_config.j2: t0, t1, t2) and BGP template details (FACTS.md section 3).
DEVICE_TYPES: dict[str, str] = {"leaf": "ToRRouter", "spine": "LeafRouter",
                                "core": "SpineRouter"}

#: orchagent's switch.json.j2 (sonic-buildimage dockers/docker-orchagent): ecmp_hash_seed by
#: DEVICE_METADATA type, for the types netcfg writes: ToRRouter 0, LeafRouter 10, SpineRouter 25
#: (tests/test_vendors.py renders the template to check this)
SEED_OF_TYPE = {"ToRRouter": 0, "LeafRouter": 10, "SpineRouter": 25}

#: where netcfg's lossless headroom and its threshold go instead (docs/render-sonic.md,
#: "Buffer model")
HEADROOM = ("the lossless PG profile is SONiC's own: in the traditional model the SKU's "
            "pg_profile_lookup.ini row buffermgrd creates (on the 7060X6 its xoff counts "
            "against the SKU's shared headroom pool); in the dynamic model the buffer "
            "manager computes it from CABLE_LENGTH and LOSSLESS_TRAFFIC_PATTERN, equal to "
            "netcfg's")
THRESHOLD = ("traditional model: the SKU's pg_profile_lookup.ini threshold; dynamic model: "
             "DEFAULT_LOSSLESS_BUFFER_PARAMETER default_dynamic_th")

CAPABILITIES = Capabilities(
    # sonic-hash.yang (sonic-buildimage src/sonic-yang-models) hash-field enum: no RoCE QP field.
    hash_fields=frozenset(HASH_FIELDS),
    # sonic-pfcwd.yang PFC_WD action enum drop|forward|alert; pfcwd/main.py `--action`.
    watchdog_actions=frozenset({"drop", "forward", "alert"}),
    # community CONFIG_DB has no flowlet / adaptive-routing knob (sonic-hash.yang,
    # Configuration.md).
    ecmp_modes=frozenset({"static"}),
    # BUFFER_PG|<port>|<pg> -> BUFFER_PROFILE, one profile per port (sonic-buffer-pg.yang).
    per_port_headroom=True,
    # SWITCH_HASH|GLOBAL ecmp_hash_algorithm (sonic-hash.yang hash-algorithm enum)
    hash_algorithms=frozenset(HASH_ALGORITHMS),
    # No seed leaf in CONFIG_DB's YANG: orchagent picks it by device type; other seeds are
    # reported (CAP005).
    hash_seed="by_role",
    # bgpcfgd's bgpd.main.conf.j2 (docker-fpm-frr) announces Loopback0 and VLAN_INTERFACE
    # prefixes, routed ports' subnets only with sub_role FrontEnd (multi-ASIC); a STATIC_ROUTE
    # is announced (managers_static_rt.py). So the server /31s go out as blackhole blocks.
    server_subnets="blocks",
    seed_by_role={role: SEED_OF_TYPE[kind] for role, kind in DEVICE_TYPES.items()},
    # bgpcfgd's templates (docker-fpm-frr/frr/bgpd/templates/general/instance.conf.j2,
    # peer-group.conf.j2) put every neighbour in PEER_V4 and render no BFD; the BGP_NEIGHBOR
    # `bfd` leaf (sonic-bgp-common.yang) is read only by frrcfgd (frrcfgd.py), the FRR
    # management framework netcfg does not target. So BFD is reported (CAP011).
    bfd=False,
    # Nor a session key: no bgpcfgd template (docker-fpm-frr/frr/bgpd/templates) or bgpcfgd
    # manager reads a password; BGP_NEIGHBOR `auth_password` (sonic-bgp-common.yang) is again
    # frrcfgd's only (CAP013).
    session_key=False,
    # CABLE_LENGTH values match `[0-9]+m` (sonic-cable-length.yang); buffermgrd names and
    # looks up lossless profiles by that string (cfgmgr/buffermgr.cpp)
    whole_metre_cables=True,
    # bgpd.main.conf.j2 takes both from constants.yml.j2 (docker-fpm-frr; FACTS.md section 4),
    # not from CONFIG_DB
    unrendered={
        "ntp_source": "NTP|global is the switch's own: its first-boot src_intf eth0 already "
                      "sends NTP from the management port (../shared/factory/sonic)",
        "users": "no user is rendered: logins are the Linux host's, outside CONFIG_DB; the "
                 "switch keeps its own",
        "cloudvision": "CloudVision's agent (TerminAttr) is EOS's; nothing is rendered here",
        "gnmi": "no GNMI table is rendered: what its fields do on the image is not yet read "
                "in SONiC's code; the switch keeps its own",
        "breakouts[].parent": "the PORT table lists the split ports themselves; "
                              "BREAKOUT_CFG is not rendered",
        "breakouts[].ports": "the PORT table lists the split ports themselves; BREAKOUT_CFG "
                             "is not rendered",
        "bgp.maximum_paths": "bgpd takes maximum-paths from constants.yml (514), not CONFIG_DB",
        "bgp.multipath_relax": "bgpd takes multipath-relax from constants.yml (on), not "
                               "CONFIG_DB",
        "bgp.neighbors[].peer_port": "BGP_NEIGHBOR has a name (the peer switch) but no "
                                     "description for the peer's port",
        "lldp": "the lldp feature runs by default [M]; no FEATURE entry is rendered",
        "qos.pools.total": "the egress lossless pool is the SKU's own size "
                           "(buffers_defaults_t*.j2)",
        "qos.pools.shared": "on a Broadcom SKU the pools keep the SKU's own sizes; on "
                            "Spectrum the ingress and egress lossy pools divide it",
        "qos.pools.reserved": "on a Broadcom SKU the pools keep the SKU's own sizes; on "
                              "Spectrum it is what the pools leave out",
        "interfaces[].headroom.xon": HEADROOM,
        "qos.headroom_profiles[].xon": HEADROOM,
        "interfaces[].headroom.xoff": HEADROOM,
        "qos.headroom_profiles[].xoff": HEADROOM,
        "interfaces[].headroom.size": HEADROOM,
        "qos.headroom_profiles[].size": HEADROOM,
        "interfaces[].headroom.dynamic_th": HEADROOM,
        "qos.headroom_profiles[].dynamic_th": HEADROOM,
        "qos.dynamic_th": THRESHOLD,
        "qos.queue_limit": THRESHOLD,
        "bgp.groups[].name": "bgpcfgd puts every neighbour in its own peer group PEER_V4",
        "bgp.neighbors[].group": "bgpcfgd puts every neighbour in PEER_V4",
    },
)
