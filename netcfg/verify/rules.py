"""The VFY rules: what `netcfg verify` checks on a running switch (registered beside lint's
rules, so docs/rules.md, SARIF and JUnit describe them the same way).

Sources are the NAPALM getter each check reads (napalm/base/base.py documents their models)
and the command behind it per NOS (docs/verify.md).
"""

from __future__ import annotations

from netcfg.findings import Rule

RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("VFY001", "error", "running configuration differs from the rendered one",
         "what the switch runs is not what was reviewed: drift by hand, a failed or partial "
         "push, or a config the switch rewrote", "netcfg diff (the device's own compare)"),
    Rule("VFY002", "error", "LLDP neighbour of a planned link is not the planned device and port",
         "a cable in the wrong port breaks the rail plan: ECMP, PFC headroom (cable length) "
         "and BGP sessions all assume the planned wiring",
         "NAPALM get_lldp_neighbors_detail; IEEE 802.1AB"),
    Rule("VFY003", "error", "no LLDP neighbour on a planned link between switches",
         "the link is down, uncabled, or its far end does not run LLDP",
         "NAPALM get_lldp_neighbors_detail; IEEE 802.1AB"),
    Rule("VFY004", "error", "planned port not operationally up",
         "a planned link that is down removes ECMP width and can black-hole a rail",
         "NAPALM get_interfaces (is_up)"),
    Rule("VFY005", "error", "planned port runs at another speed",
         "headroom and ECN thresholds are derived from the planned speed",
         "NAPALM get_interfaces (speed, Mb/s)"),
    Rule("VFY006", "error", "planned port has another MTU",
         "an MTU below the planned one drops RoCE frames of the planned size",
         "NAPALM get_interfaces (mtu, the NOS's own unit: docs/verify.md)"),
    Rule("VFY007", "error", "planned BGP session not established",
         "every planned session carries ECMP paths; one down narrows the fabric",
         "NAPALM get_bgp_neighbors (is_up); RFC 4271 section 8"),
    Rule("VFY008", "error", "planned BGP session missing on the switch or with another AS",
         "the switch runs no session toward the planned peer address and AS",
         "NAPALM get_bgp_neighbors; RFC 7938"),
    Rule("VFY009", "error", "an established BGP session receives fewer prefixes than its peer "
         "originates",
         "every switch announces its loopback and its server subnets (SONiC: the blocks "
         "holding them); a session that brings fewer lost an announcement or filters it, and "
         "the fabric's ECMP toward those servers narrows",
         "NAPALM get_bgp_neighbors (received_prefixes); the peer's plan"),
    Rule("VFY010", "error", "PFC watchdog does not watch a planned lossless queue",
         "the watchdog watches the queues PFC is on for; a lossless queue it does not watch "
         "has PFC or the watchdog off, so a storm there is never broken",
         "SONiC `pfcwd show stats --empty` (sonic-utilities pfcwd/main.py)"),
    Rule("VFY011", "error", "PFC storm on a lossless queue",
         "a queue paused for good stops its traffic and backs pauses up the fabric; the "
         "watchdog has declared a storm", "SONiC `pfcwd show stats` (STATUS stormed)"),
    Rule("VFY012", "warning", "PFC pause frames received over the interval above the threshold",
         "pauses are congestion's signal, not a failure, but a port pausing much more than "
         "the rest points at an incast or a slow receiver",
         "SONiC `show pfc counters` (sonic-utilities scripts/pfcstat); EOS `show "
         "priority-flow-control counters` (per port)"),
    Rule("VFY013", "error", "packets dropped on a lossless queue over the interval",
         "a lossless queue must never drop: headroom too small, PFC off on the peer, or the "
         "watchdog dropping a storm", "SONiC `show queue counters` (scripts/queuestat); EOS "
         "`show interfaces counters queue detail`; Junos `show interfaces queue`"),
    Rule("VFY014", "error", "a server subnet is missing from a switch's routing table or has "
         "another ECMP width than planned",
         "every switch must reach every other switch's servers over every path the topology "
         "offers (up to its maximum-paths); a subnet missing or on fewer paths means an "
         "announcement lost or filtered, or a session down, and narrows RoCE's ECMP",
         "FRR `show ip route bgp json` on the fabric's twin (netcfg verify --twin)"),
    Rule("VFY021", "error", "ECN marking not configured on a planned ECN queue",
         "RoCE's congestion control (DCQCN) starts from ECN marks on the lossless queue: a "
         "queue that does not mark leaves PFC as the only brake, with pause storms and "
         "head-of-line blocking",
         "EOS `show qos interfaces ecn counters queue` (`-`: ECN not configured on the queue; "
         "ANTA VerifyInterfacesECNCounters)"),
    Rule("VFY022", "error", "an established BGP session receives more prefixes than the plan "
         "announces on it",
         "the plan bounds what each session carries (every switch's loopback and server "
         "subnets, passed on by eBGP: lint's RTE006 count); more means routes the plan does "
         "not make (a leak, a static or connected route redistributed, a foreign announcement)",
         "NAPALM get_bgp_neighbors (received_prefixes); netcfg/lint/prefixes.py"),
    Rule("VFY023", "error", "an established BGP session receives more prefixes than the "
         "receiving switch's limit",
         "past its per-session limit the NOS takes the session down and keeps it down (EOS: "
         "Idle(MaxPath) past maximum-routes)",
         "NAPALM get_bgp_neighbors (received_prefixes); the NOS's limit as its file leaves it "
         "(Vendor.prefix_limit, docs/render-eos.md)"),
    Rule("VFY024", "error", "a lossless PG's programmed headroom is below what netcfg derives",
         "the headroom after PAUSE (xoff) must hold every byte in flight once the PG asks its "
         "peer to stop (cable, MAC/PHY and peer response delays: docs/physics.md); less, and "
         "a lossless queue drops under congestion",
         "SONiC `show buffer information` (sonic-utilities scripts/mmuconfig: STATE_DB "
         "BUFFER_PROFILE_TABLE as programmed)"),
    Rule("VFY019", "warning", "part of a switch's state not read: its driver has no getter",
         "that part of the plan is not checked on that switch, and the report says so",
         "napalm/base/base.py (NotImplementedError)"),
    Rule("VFY020", "error", "switch could not be verified",
         "a switch that cannot be reached or read proves nothing (exit 4)",
         "netcfg verify"),
)}
