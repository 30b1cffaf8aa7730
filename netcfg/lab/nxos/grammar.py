"""Cisco NX-OS configuration grammar: the modes and commands the emulator accepts.

Written from Cisco's Nexus 9000 NX-OS configuration guides and command references (interfaces,
unicast routing/BGP, QoS: classification, queuing and scheduling, network-qos with PFC and the
PFC watchdog, WRED/ECN, system management: rollback and configuration replace). It covers what
a lossless-RoCE leaf or spine needs plus the usual base configuration; anything else is
rejected like NX-OS does (`% Invalid command at '^' marker.`), unless the device is lenient.

NX-OS specifics kept here as data:
* features gate commands: `router bgp` is an invalid command until `feature bgp` is on, and
  `no feature bgp` removes the BGP configuration (FEATURE_GATES, FEATURE_OWNS);
* interface names are canonicalised (`eth1/1` -> `Ethernet1/1`, `lo0` -> `loopback0`);
* `show running-config` prints top-level sections in a fixed order (SECTION_ORDER).
"""

from __future__ import annotations

import re

from netcfg.lab.grammar import Grammar

#: interface name prefixes NX-OS accepts (any unambiguous abbreviation) -> canonical spelling
_IFACE_KINDS = {
    "ethernet": "Ethernet", "loopback": "loopback", "mgmt": "mgmt", "port-channel": "port-channel",
    "vlan": "Vlan", "nve": "nve", "tunnel": "Tunnel",
}
_IFACE = re.compile(r"([a-z-]+?)(\d+(?:/\d+){0,2}(?:\.\d+)?)", re.I)


def canonical_iface(token: str) -> str | None:
    """`eth1/1` -> `Ethernet1/1`; None when `token` is not an interface name."""
    m = _IFACE.fullmatch(token)
    if m is None:
        return None
    kind = m.group(1).lower()
    matches = [full for full in _IFACE_KINDS if full.startswith(kind)]
    if len(matches) != 1 and kind not in _IFACE_KINDS:
        return None
    full = kind if kind in _IFACE_KINDS else matches[0]
    number = m.group(2)
    if full != "ethernet" and "/" in number:
        return None
    return _IFACE_KINDS[full] + number


def _iface(tok: str) -> bool:
    return canonical_iface(tok) is not None


def _asn(tok: str) -> bool:
    return re.fullmatch(r"\d+(\.\d+)?", tok) is not None


def _mask(tok: str) -> bool:
    return re.fullmatch(r"(\d{1,3}\.){3}\d{1,3}", tok) is not None


_FEATURES = ("bgp|lldp|nxapi|interface-vlan|lacp|ospf|ospfv3|bfd|vpc|scp-server|sftp-server|"
             "netconf|restconf|grpc|telemetry|ptp|hsrp|vrrp|pim|udld|dhcp|bash-shell|"
             "ssh|telnet|private-vlan|vn-segment-vlan-based|isis|evpn|ngoam|sflow|netflow")

_QUEUE_UNITS = "packets|bytes|kbytes|mbytes"

MODES: dict[str, list] = {
    "config": [
        "version = <text>",
        "hostname = <word>",
        "switchname = <word>",
        f"feature {_FEATURES}",
        "feature nv overlay",
        "feature fabric forwarding",
        "username <word> = [password [0|5] <word>] [role <word>]",
        "username <word> role = <word>",
        "username <word> sshkey = <text>",
        # `banner motd|exec <d>text<d>`, the text over several lines up to the delimiter again
        # (Cisco's cisco.nxos nxos_banner: `banner motd @` / lines / `@`, tested on NX-OS; the
        # NX-API REST SDK's MOTD banner keeps the delimiter): one line here, its text joined
        # by config.parse
        "banner motd|exec = <text>",
        # Cisco Nexus 9000 NX-OS Security Configuration Guide: "Configuring TACACS+"
        # (`feature tacacs+`, `tacacs-server host <addr> key [0|7] <key>`, `aaa group server
        # tacacs+ <group>` with `server`, `use-vrf`, `source-interface`), "Configuring RADIUS"
        # (`radius-server host <addr> key [0|7] <key> [authentication] [accounting]`),
        # "Configuring AAA" (`aaa authentication login default|console group <groups>`)
        "feature <tacacsplus>",
        "tacacs-server host <word> [key [0|7] <word>] [port <1-65535>] [timeout <1-60>]",
        "tacacs-server key = [0|7] <word>",
        "tacacs-server timeout = <1-60>",
        "radius-server host <word> [key [0|7] <word>] [auth-port <1-65535>] "
        "[acct-port <1-65535>] [authentication] [accounting]",
        "radius-server key = [0|7] <word>",
        ("aaa group server <aaaproto> <word>", "aaa-group"),
        "aaa authentication login default|console = group <word>+",
        "aaa authentication login default|console = local|none",
        "aaa authentication login default|console fallback error local",
        "no aaa authentication login default|console fallback error local",
        "aaa authorization commands|config-commands default = <text>",
        "aaa accounting default = <text>",
        "ip domain-name = <word> [use-vrf <word>]",
        "ip domain-lookup",
        "no ip domain-lookup",
        "ip name-server <ip>+ [use-vrf <word>]",
        "ip route <prefix> <word> [<iface>] [<1-255>] [tag <num>] [name <word>]",
        "ip prefix-list <word> seq <num> permit|deny <prefix> [ge <0-32>] [le <0-32>]",
        "ip prefix-list <word> permit|deny <prefix> [ge <0-32>] [le <0-32>]",
        "ip load-sharing = address source|destination|source-destination "
        "[port source|destination|source-destination] [universal-id <num>] [rotate <num>] "
        "[concatenation]",
        "ip access-list <word>",
        "system jumbomtu = <1500-9216>",
        "system default switchport [shutdown]",
        # lines every factory Nexus 9000 prints (../shared/factory/nxos: 9.3 and 10.x
        # captures): the default VDC's resource limits, the RMON events of the platform
        # manager, the iCAM scale monitor
        ("vdc <word> id <num>", "vdc"),
        "rmon event <1-65535> <text>",
        "icam monitor scale",
        "no system default switchport [shutdown]",
        "system routing = <word>",
        "copp profile = strict|moderate|lenient|dense",
        # Cisco Nexus 9000 NX-OS System Management Configuration Guide 10.5(x), "Configuring
        # SNMP": `snmp-server community name [group group | ro | rw]`, `snmp-server contact
        # name`, `snmp-server location name`, users, hosts, traps
        # Cisco Nexus 9000 NX-OS Programmability Guide (gNMI): `feature grpc`, `grpc port
        # <port>`, `grpc certificate <trustpoint>`, `grpc use-vrf <vrf>`
        "grpc port = <1024-65535>",
        "grpc certificate = <word>",
        "grpc use-vrf = <word>",
        "snmp-server contact = <text>",
        "snmp-server location = <text>",
        "snmp-server community <word> [group <word>]",
        "snmp-server community <word> ro|rw",
        "snmp-server user <text>",
        "snmp-server host <text>",
        "snmp-server enable traps [<text>]",
        "no snmp-server enable traps [<text>]",
        "ntp server <word> [prefer] [use-vrf <word>] [key <num>]",
        "ntp source-interface = <iface>",
        "logging server <word> [<0-7>] [use-vrf <word>]",
        "logging logfile <word> <0-7> [size <num>]",
        "logging timestamp = microseconds|milliseconds|seconds",
        "clock timezone = <word> <num> <num>",
        "clock protocol = ntp|ptp|none [vdc <num>]",
        "boot nxos = <word>",
        "cli alias name <word> <text>",
        "spanning-tree port type = edge|network [bpduguard|bpdufilter] default",
        "lldp timer = <5-254>",
        "lldp holdtime = <10-255>",
        "lldp reinit = <1-10>",
        "lldp tlv-select <word>",
        "no lldp tlv-select <word>",
        "nxapi http|https port = <1-65535>",
        "no nxapi http|https",
        "nxapi use-vrf = <word>",
        "hardware access-list tcam region <word> = <num> [double-wide]",
        "hardware qos <text>",
        "priority-flow-control watch-dog-interval = on|off",
        "priority-flow-control watch-dog interval = <100-1000>",
        "priority-flow-control watch-dog shutdown-multiplier = <1-10>",
        "priority-flow-control watch-dog internal-interface-multiplier = <0-10>",
        "priority-flow-control auto-restore multiplier = <0-100>",
        "priority-flow-control fixed-restore multiplier = <0-100>",
        "priority-flow-control recover mode = <word>",
        "interface breakout module <num> port <list> map <word>",
        ("class-map type qos [match-any|match-all] <word>", "cmap-qos"),
        ("class-map type queuing [match-any] <word>", "cmap-que"),
        ("class-map type network-qos [match-any] <word>", "cmap-nq"),
        ("policy-map type qos <word>", "pmap-qos"),
        ("policy-map type queuing <word>", "pmap-que"),
        ("policy-map type network-qos <word>", "pmap-nq"),
        ("system qos", "sys-qos"),
        ("vrf context <word>", "vrf"),
        ("vlan <list>", "vlan"),
        ("interface <iface>", "if"),
        ("router bgp <asn>", "bgp"),
        ("router ospf <word>", "ospf"),
        ("route-map <word> [permit|deny] [<0-65535>]", "route-map"),
        ("line console", "line"),
        ("line vty", "line"),
    ],
    "if": [
        "description = <text>",
        "shutdown",
        "no shutdown",
        "switchport",
        "no switchport",
        "switchport mode = access|trunk|fex-fabric|dot1q-tunnel",
        "switchport access vlan = <1-4094>",
        "switchport trunk allowed vlan = [add|remove|except] <text>",
        "switchport trunk native vlan = <1-4094>",
        "speed = auto",
        "speed = <10-800000>",
        "duplex = full|half|auto",
        "negotiate auto",
        "no negotiate auto",
        "fec = <word>",
        "link debounce time = <num>",
        "mtu = <576-9216>",
        "bandwidth = <num>",
        "mac-address = <word>",
        "medium = broadcast|p2p",
        "encapsulation dot1q = <1-4094>",
        "ip address = <prefix> [secondary] [tag <num>]",
        "ip address = <ip> <mask> [secondary] [tag <num>]",
        "ip unnumbered = <iface>",
        "ipv6 address <word> [eui64]",
        "ipv6 address use-link-local-only",
        "ipv6 link-local = <word>",
        "ip redirects",
        "no ip redirects",
        "ipv6 redirects",
        "no ipv6 redirects",
        "ip router ospf <word> area <word>",
        "ip ospf network = broadcast|point-to-point",
        "ip ospf cost = <num>",
        "vrf member = <word>",
        "channel-group = <num> [mode active|passive|on] [force]",
        "service-policy type qos input = <word>",
        "service-policy type queuing input|output = <word>",
        "priority-flow-control mode = auto|on|off",
        "priority-flow-control watch-dog-interval = on|off",
        # Cisco's DME interfaceMutiplier: 0-40 (0: the global shutdown multiplier applies)
        "priority-flow-control watch-dog interface-multiplier = <0-40>",
        "priority-flow-control send-tlv",
        "flowcontrol receive|send = on|off",
        "lldp transmit",
        "lldp receive",
        "no lldp transmit",
        "no lldp receive",
        "lldp tlv-set <word>",
        "load-interval [counter <1-3>] = <num>",
        "bfd <text>",
        "storm-control <text>",
        "spanning-tree port type = edge|network [trunk]",
        "spanning-tree bpduguard = enable|disable",
    ],
    "cmap-qos": [
        "match dscp <list>",
        "match cos <list>",
        "match precedence <list>",
        "match access-group name <word>",
        "match protocol <word>",
        "description = <text>",
    ],
    "cmap-que": ["match qos-group <0-7>"],
    "cmap-nq": ["match qos-group <0-7>", "match cos <list>"],
    "pmap-qos": [("class [type qos] <word>", "pmap-qos-c"), "description = <text>"],
    "pmap-qos-c": [
        "set qos-group = <0-7>",
        "set dscp = <0-63>",
        "set cos = <0-7>",
        "set precedence = <0-7>",
        "police <text>",
    ],
    "pmap-que": [("class type queuing <word>", "pmap-que-c"), "description = <text>"],
    "pmap-que-c": [
        "bandwidth percent = <0-100>",
        "bandwidth remaining percent = <0-100>",
        "priority [level <1-7>]",
        "shape min <num> <word> max <num> <word>",
        "queue-limit <text>",
        f"random-detect = minimum-threshold <num> {_QUEUE_UNITS} maximum-threshold <num> "
        f"{_QUEUE_UNITS} [drop-probability <0-100>] [weight <0-15>] [ecn|non-ecn]",
        "random-detect = threshold burst-optimized|mesh-optimized [ecn|non-ecn]",
        "random-detect cap-average",
        "congestion-control <text>",
    ],
    "pmap-nq": [("class type network-qos <word>", "pmap-nq-c"), "description = <text>"],
    "pmap-nq-c": [
        "mtu = <1500-9216>",
        "pause pfc-cos = <list>",
        "pause buffer-size <num> pause-threshold <num> resume-threshold <num>",
        "pause no-drop [pfc-cos <list>]",
        "congestion-control <text>",
    ],
    "aaa-group": [
        "server <word>",
        "use-vrf = <word>",
        "source-interface = <iface>",
        "deadtime = <0-1440>",
    ],
    "sys-qos": [
        "service-policy type network-qos = <word>",
        "service-policy type queuing input|output = <word>",
        "service-policy type qos input = <word>",
    ],
    "vrf": [
        "description = <text>",
        "ip route <prefix> <word> [<iface>] [<1-255>] [tag <num>] [name <word>]",
        "ip name-server <ip>+",
        "ip domain-name = <word>",
        "rd = <word>",
        "vni = <num>",
        "shutdown",
        ("address-family ipv4|ipv6 unicast", "vrf-af"),
    ],
    "vrf-af": ["route-target import|export|both <word> [evpn]"],
    "vlan": ["name = <word>", "vn-segment = <num>", "state = active|suspend", "shutdown"],
    "vdc": ["limit-resource <word> minimum <num> maximum <num>"],
    "line": ["exec-timeout = <0-525600>", "session-limit = <1-64>", "speed = <num>",
             "access-class <word> in|out"],
    "route-map": ["match <text>", "set <text>", "description = <text>", "continue = <num>"],
    "ospf": ["router-id = <ip>", "log-adjacency-changes [detail]", "passive-interface default",
             "maximum-paths = <1-64>", "auto-cost reference-bandwidth = <num> [Gbps|Mbps]"],
    "bgp": [
        "router-id = <ip>",
        "bestpath as-path multipath-relax",
        "bestpath compare-routerid",
        "bestpath med <text>",
        "log-neighbor-changes",
        "timers bgp = <num> <num>",
        "timers prefix-peer-timeout = <num>",
        "graceful-restart",
        "graceful-restart restart-time = <num>",
        "graceful-restart stalepath-time = <num>",
        "fast-external-fallover",
        "no fast-external-fallover",
        "enforce-first-as",
        "no enforce-first-as",
        ("address-family ipv4|ipv6 unicast", "bgp-af"),
        ("neighbor <word> [remote-as <asn>]", "bgp-nbr"),
        ("template peer <word>", "bgp-nbr"),
        ("vrf <word>", "bgp-vrf"),
    ],
    "bgp-vrf": [
        "router-id = <ip>",
        "bestpath as-path multipath-relax",
        "log-neighbor-changes",
        ("address-family ipv4|ipv6 unicast", "bgp-af"),
        ("neighbor <word> [remote-as <asn>]", "bgp-nbr"),
    ],
    "bgp-af": [
        "maximum-paths = <1-1024>",
        "maximum-paths ibgp = <1-1024>",
        "network <prefix> [route-map <word>]",
        "redistribute direct|static|connected route-map <word>",
        "aggregate-address <prefix> [summary-only] [as-set]",
        "additional-paths send|receive|selection <text>",
        "dampening <text>",
    ],
    "bgp-nbr": [
        "remote-as = <asn>",
        "description = <text>",
        "update-source = <iface>",
        "ebgp-multihop = <2-255>",
        "password = [0|3|7] <word>",
        "timers = <num> <num>",
        "shutdown",
        "bfd",
        "inherit peer = <word>",
        "local-as = <asn> [no-prepend] [replace-as] [dual-as]",
        "remove-private-as [all] [replace-as]",
        "low-memory exempt",
        "capability suppress 4-byte-as",
        ("address-family ipv4|ipv6 unicast", "bgp-nbr-af"),
    ],
    "bgp-nbr-af": [
        "send-community [extended|both]",
        "route-map <word> = in|out",
        "prefix-list <word> = in|out",
        "allowas-in [<1-10>]",
        "next-hop-self [all]",
        "soft-reconfiguration inbound [always]",
        "maximum-prefix <text>",
        "default-originate [route-map <word>]",
        "as-override",
        "disable-peer-as-check",
        "weight = <num>",
    ],
}

#: a line needs a feature when it starts with these tokens (in a mode) -> the feature
FEATURE_GATES: dict[str, list[tuple[tuple[str, ...], str]]] = {
    "config": [(("router", "bgp"), "bgp"), (("router", "ospf"), "ospf"), (("lldp",), "lldp"),
               (("interface", "vlan"), "interface-vlan"), (("grpc",), "grpc"),
               (("tacacs-server",), "tacacs+"), (("aaa", "group", "server", "tacacs+"), "tacacs+")],
    "if": [(("lldp",), "lldp"), (("bfd",), "bfd"), (("ip", "router", "ospf"), "ospf")],
}

#: top-level sections that `no feature X` removes with the feature
FEATURE_OWNS: dict[str, list[tuple[str, ...]]] = {
    "bgp": [("router", "bgp")],
    "ospf": [("router", "ospf")],
    "interface-vlan": [("interface", "vlan")],
    "tacacs+": [("tacacs-server",), ("aaa", "group", "server", "tacacs+")],
}


def nxos_grammar() -> Grammar:
    return Grammar(MODES, types={"iface": _iface, "asn": _asn, "mask": _mask,
                                 "tacacsplus": lambda t: t.lower() == "tacacs+",
                                 "aaaproto": lambda t: t.lower() in ("tacacs+", "radius")})


# Top-level order of `show running-config`; a line's rank is that of its longest matching prefix.
SECTION_ORDER = [
    "version", "switchname", "hostname", "vdc", "feature", "cli alias", "username", "banner",
    "ip domain-lookup",
    "no ip domain-lookup", "ip domain-name", "ip name-server", "radius-server",
    "tacacs-server", "aaa group server", "aaa", "system default",
    "no system default", "system jumbomtu", "system routing", "ip load-sharing", "copp",
    "ip access-list", "class-map type qos", "policy-map type qos", "class-map type queuing",
    "policy-map type queuing", "class-map type network-qos", "policy-map type network-qos",
    "system qos", "hardware", "priority-flow-control", "snmp-server", "rmon", "ntp", "clock",
    "ip route", "ip prefix-list", "vlan", "spanning-tree", "route-map", "vrf context",
    "nxapi", "interface breakout", "interface", "icam", "line", "boot", "router", "lldp",
    "logging",
]
_IFACE_ORDER = ["vlan", "port-channel", "ethernet", "mgmt", "loopback", "nve", "tunnel"]


def section_key(line: str) -> tuple:
    low = line.lower()
    rank, best = len(SECTION_ORDER), -1
    for i, prefix in enumerate(SECTION_ORDER):
        if (low == prefix or low.startswith(prefix + " ")) and len(prefix) > best:
            rank, best = i, len(prefix)
    if low.startswith("interface ") and not low.startswith("interface breakout"):
        name = low.split()[1]
        kind = re.match(r"[a-z-]+", name)
        numbers = [int(n) for n in re.findall(r"\d+", name)]
        order = _IFACE_ORDER.index(kind.group(0)) if kind and kind.group(0) in _IFACE_ORDER else 99
        return (rank, order, numbers)
    return (rank, 0, [])
