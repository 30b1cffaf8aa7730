"""Arista EOS configuration grammar: the modes and commands the emulator accepts.

Written from Arista's EOS configuration documentation and the syntax notes in the project's
vendor research (qos/pfc/mmu forms as EOS prints them in running-config). It covers what a
lossless-RoCE leaf or spine needs plus the usual base configuration; anything else is
rejected like EOS does (`Invalid input (at token N: 'x')`), unless the device is lenient.
"""

from __future__ import annotations

import re

from netcfg.lab.grammar import Grammar

_IFACE = re.compile(
    r"(ethernet|management|loopback|port-channel|vlan|vxlan|tunnel)\d+(/\d+)*(\.\d+)?"
    r"(-\d+(/\d+)*)?(,\s*\S+)*", re.I)


def _iface(tok: str) -> bool:
    return _IFACE.fullmatch(tok) is not None


_UNIT = "segments|bytes|kbytes|mbytes|milliseconds|microseconds"

_PFC_IF = [
    "priority-flow-control on",
    "priority-flow-control mode on",
    "priority-flow-control priority <0-7> = no-drop|drop",
    "priority-flow-control pause watchdog",
    "priority-flow-control pause watchdog port action = drop|notify-only|errdisable",
    "priority-flow-control pause watchdog port timer = timeout <num> polling-interval auto|<num>"
    " recovery-time <num> [forced]",
]

_QOS_IF = [
    "qos trust = dscp|cos",
    "no qos trust",
    "qos cos = <0-7>",
    "qos dscp = <0-63>",
    "service-policy type qos input = <word>",
    "shape rate = <num> [percent|kbps|pps]",
    ("tx-queue|uc-tx-queue|mc-tx-queue <0-7>", "txq"),
]

_BGP_NEIGHBOR = [
    "neighbor <word> remote-as = <word>",
    "neighbor <word> peer group = <word>",
    "neighbor <word> peer-group = <word>",
    "neighbor <word> peer group",
    "neighbor <word> description = <text>",
    "neighbor <word> update-source = <iface>",
    "neighbor <word> ebgp-multihop = [<1-255>]",
    "neighbor <word> send-community [standard|extended|large]+",
    # AVD eos_cli_config_gen router-bgp (pyavd 6.4): `maximum-routes <n> [warning-limit <l>
    # [percent]] [warning-only]`
    "neighbor <word> maximum-routes = <num> [warning-limit <num> [percent]] [warning-only]",
    "neighbor <word> password = [0|7] <text>",
    "neighbor <word> bfd",
    "neighbor <word> bfd interval = <num> min-rx <num> multiplier <num>",
    "neighbor <word> shutdown",
    "neighbor <word> timers = <num> <num>",
    "neighbor <word> route-map <word> = in|out",
    "neighbor <word> allowas-in = [<1-10>]",
    "neighbor <word> next-hop-self",
    "neighbor <word> local-as = <word> [no-prepend replace-as]",
]

_BGP_COMMON = _BGP_NEIGHBOR + [
    "router-id = <ip>",
    # AVD eos_cli_config_gen router-bgp `updates.wait_install` (pyavd 6.4); `no update
    # wait-install` as `show running-config all` prints it
    "update wait-install",
    "no update wait-install",
    "maximum-paths = <1-600> [ecmp <1-600>]",
    "bgp bestpath as-path multipath-relax",
    "bgp log-neighbor-changes",
    "bgp default ipv4-unicast",
    "no bgp default ipv4-unicast",
    "bgp asn notation asdot",
    "timers bgp = <num> <num>",
    "distance bgp = <1-255> <1-255> <1-255>",
    "graceful-restart",
    "graceful-restart restart-time = <num>",
    "network <prefix> [route-map <word>]",
    "redistribute connected|static|attached-host = [route-map <word>]",
    ("address-family ipv4|ipv6 [unicast]", "bgp-af"),
]

MODES: dict[str, list] = {
    "config": [
        "hostname = <word>",
        "ip domain-name = <word>",
        "dns domain = <word>",
        "ip name-server [vrf <word>] <ip>+",
        "ip routing [vrf <word>]",
        "no ip routing [vrf <word>]",
        "ipv6 unicast-routing [vrf <word>]",
        "ip route [vrf <word>] <prefix> <word> [<1-255>] [name <word>]",
        "ip prefix-list <word> [seq <num>] permit|deny <prefix> [ge <0-32>] [le <0-32>]",
        ("ip prefix-list <word>", "prefix-list"),
        "ip icmp rate-limit-unreachable = <num>",
        "ip hardware fib optimize = <text>",
        # the `fields ip` keywords EOS shows (and hides as its default): source-ip source-port
        # destination-ip destination-port ingress-interface [public configs, EOS notes]
        "ip load-sharing trident|tomahawk|sand fields ip = "
        "source-ip|destination-ip|source-port|destination-port|ingress-interface+",
        "ip load-sharing trident|tomahawk|sand fields ipv6 = <text>",
        # Arista's AVD (local-users: `sha512_password`, a SHA-512 crypt hash) and the EOS
        # manual's `secret [0 | 5 | sha512]`: a hash given as sha512 must be one
        "username <word> = [privilege <0-15>] [role <word>] secret sha512 <sha512>",
        "username <word> = [privilege <0-15>] [role <word>] secret 0|5 <word>",
        "username <word> = [privilege <0-15>] [role <word>] secret <word>",
        "username <word> = [privilege <0-15>] [role <word>] nopassword",
        "username <word> ssh-key = <text>",
        "enable password|secret = <text>",
        "aaa authorization|authentication|accounting = <text>",
        "aaa root = <text>",
        # AVD eos_cli_config_gen tacacs-servers.j2 (tacacs_servers.schema.yml: key types 0, 7,
        # 8a), radius-server.j2, aaa-server-groups-tacacs-plus|radius.j2,
        # ip-tacacs|radius-source-interfaces.j2
        "tacacs-server host <word> [single-connection] [vrf <word>] [timeout <1-1000>] "
        "[key 0|7|8a <word>]",
        "tacacs-server timeout = <1-1000>",
        "tacacs-server policy unknown-mandatory-attribute ignore",
        "radius-server host <word> [vrf <word>] [timeout <1-1000>] [retransmit <0-100>] "
        "[key 0|7 <word>]",
        ("aaa group server <aaaproto> <word>", "aaa-group"),
        "ip tacacs|radius [vrf <word>] source-interface <iface>",
        "service routing protocols model = ribd|multi-agent",
        "spanning-tree mode = mstp|rstp|rapid-pvst|none",
        "no spanning-tree vlan-id <list>",
        ("vlan <list>", "vlan"),
        ("vrf instance <word>", "vrf"),
        ("interface <iface>+", "if"),
        ("router bgp <word>", "router-bgp"),
        ("router multicast", "generic"),
        ("management api http-commands", "mgmt-api"),
        ("management ssh", "mgmt-ssh"),
        # AVD eos_cli_config_gen management-api-gnmi.j2 and daemon-terminattr.j2
        ("management api gnmi", "mgmt-gnmi"),
        ("daemon <word>", "daemon"),
        "lldp run",
        "no lldp run",
        "lldp timer = <5-32768>",
        "lldp hold-time = <10-65535>",
        "lldp timer reinitialization = <1-20>",
        "lldp management-address = <iface>",
        "lldp tlv-select <word>",
        "no lldp tlv-select <word>",
        "ntp server [vrf <word>] <word> [prefer] [iburst] [source <iface>]",
        "ntp local-interface = [vrf <word>] <iface>",
        # AVD eos_cli_config_gen logging.j2: `logging [vrf <vrf>] host <host> [<ports>...]
        # [protocol tcp|tls]`, `logging trap <level>` (logging.schema.yml's trap values)
        "logging host <word> [<num>] [protocol tcp|udp|tls]",
        "logging vrf <word> host <word> [<num>] [protocol tcp|udp|tls]",
        "logging trap = alerts|critical|debugging|emergencies|errors|informational|"
        "notifications|system|warnings",
        "logging buffered = <num> [<word>]",
        "logging console = <word>",
        "logging source-interface = <iface>",
        # AVD eos_cli_config_gen snmp-server.j2: contact, location, community (access ro by
        # default), vrf, host, user, group, view, engineID, enable traps, local-interface
        "snmp-server contact = <text>",
        "snmp-server location = <text>",
        "snmp-server community <word> [view <word>] ro|rw [ipv6 <word>] [<word>]",
        "snmp-server vrf <word>",
        "no snmp-server vrf <word>",
        "snmp-server [vrf <word>] local-interface <iface>",
        "snmp-server ipv4|ipv6 access-list <word> [vrf <word>]",
        "snmp-server engineID local = <word>",
        "snmp-server view <word> <word> included|excluded",
        "snmp-server group <word> v1|v2c|v3 [auth|noauth|priv] [read <word>] [write <word>] "
        "[notify <word>]",
        "snmp-server user <text>",
        "snmp-server host <word> [vrf <word>] version <text>",
        "snmp-server enable traps [<word>]",
        "no snmp-server enable traps [<word>]",
        "clock timezone = <word>",
        "banner login|motd",
        "transceiver qsfp default-mode 4x10G",
        "queue-monitor length",
        "queue-monitor length notifying",
        "qos map dscp <0-63>+ to traffic-class <0-7> [drop-precedence <0-2>]",
        "qos map traffic-class <0-7>+ to tx-queue|uc-tx-queue|mc-tx-queue <0-7>",
        "qos map traffic-class <0-7>+ to cos|dscp <0-63>",
        "qos map cos <0-7>+ to traffic-class <0-7>",
        "qos map exp <0-7>+ to traffic-class <0-7>",
        "qos rewrite dscp",
        "qos rewrite cos",
        "qos random-detect ecn allow non-ect [chip-based]",
        "qos tx-queue shape rate percent adaptive",
        ("qos profile <word>", "qos-profile"),
        ("class-map type qos [match-any|match-all] <word>", "class-map"),
        ("policy-map type quality-of-service <word>", "policy-map"),
        "priority-flow-control all off",
        "priority-flow-control pause watchdog default timeout = <num>",
        "priority-flow-control pause watchdog default recovery-time = <num>",
        "priority-flow-control pause watchdog default polling-interval = <num>",
        "priority-flow-control pause watchdog action = drop|no-drop",
        "priority-flow-control pause watchdog override action drop",
        "platform trident|tomahawk mmu queue profile <word> apply",
        ("platform trident|tomahawk mmu queue profile <word>", "mmu-profile"),
        "port-channel load-balance trident|tomahawk fields ip|ipv6|mac = <word>+",
        "port-channel load-balance sand profile = <word>",
        "port-channel load-balance trident|tomahawk|sand hash-seed = <num>",
        ("load-balance policies", "lb-policies"),
        ("route-map <word> permit|deny <num>", "route-map"),
        ("peer-filter <word>", "generic"),
        "ip virtual-router mac-address = <word>",
        "interface defaults mtu = <68-9214>",
        "system l1 unsupported speed action error",
        "dot1x system-auth-control",
        "event-handler <word>",
        "terminal length <num>",
    ],
    "if": [
        "description = <text>",
        "shutdown",
        "speed = [forced] <word>",
        "speed auto = [<word>]",
        "mtu = <68-9214>",
        "l2 mtu = <68-9216>",
        "no switchport",
        "switchport",
        "switchport mode = access|trunk|routed",
        "switchport access vlan = <1-4094>",
        "switchport trunk allowed vlan = <text>",
        "switchport trunk native vlan = <1-4094>",
        "ip address = <prefix> [secondary]",
        "ip address = unnumbered <iface>",
        "ipv6 address <word>",
        "ipv6 enable",
        "vrf = <word>",
        "channel-group = <num> mode active|passive|on",
        "service-profile = <word>",
        "flowcontrol send|receive = on|off|desired",
        "dcbx mode = ieee|cee",
        "lldp transmit|receive",
        "load-interval = <num>",
        "error-correction encoding = <text>",
        "bfd interval = <num> min-rx <num> multiplier <num>",
        "ip proxy-arp",
        "mac-address = <word>",
        "arp timeout = <num>",
        "storm-control <text>",
        "logging event link-status",
    ]
    + _QOS_IF
    + _PFC_IF,
    "qos-profile": _QOS_IF + _PFC_IF,
    "txq": [
        "priority = strict",
        "no priority",
        "bandwidth percent = <1-100>",
        "bandwidth guaranteed = percent <1-100>",
        "bandwidth guaranteed = <num> kbps|pps",
        "shape rate = <num> [percent|kbps|pps]",
        f"random-detect ecn = minimum-threshold <num> {_UNIT} maximum-threshold <num> {_UNIT}"
        " [max-mark-probability <1-100>] [weight <0-15>]",
        "random-detect ecn count",
        f"random-detect drop = minimum-threshold <num> {_UNIT} maximum-threshold <num> {_UNIT}"
        " drop-probability <1-100> [weight <0-15>]",
        "random-detect ecn delay threshold = <num> microseconds",
    ],
    "mmu-profile": [
        "ingress threshold = <fraction>",
        "ingress headroom = [bytes|cells] <num>",
        "ingress resume = [bytes|cells] <num>",
        "ingress reserved = [bytes|cells] <num>",
        "ingress priority-group <0-7> reserved|threshold|headroom|resume = [bytes|cells] "
        "<fraction>",
        "egress unicast|multicast queue <0-7> threshold|reserved = [bytes|cells] <fraction>",
        "egress unicast|multicast queue <0-7> drop-precedence <0-2> drop-threshold = <fraction>",
    ],
    "router-bgp": _BGP_COMMON + [("vrf <word>", "bgp-vrf")],
    "bgp-vrf": _BGP_COMMON + ["rd = <word>", "route-target import|export = [evpn] <word>"],
    "bgp-af": [
        "neighbor <word> activate",
        "no neighbor <word> activate",
        "neighbor <word> route-map <word> = in|out",
        "neighbor <word> additional-paths = receive|send <text>",
        "network <prefix> [route-map <word>]",
        "redistribute connected|static = [route-map <word>]",
        "maximum-paths = <1-600> [ecmp <1-600>]",
        "bgp additional-paths = <text>",
    ],
    "vlan": ["name = <word>", "state = active|suspend", "trunk group = <word>"],
    "vrf": ["description = <text>", "rd = <word>"],
    "mgmt-api": [
        "shutdown",
        "no shutdown",
        "protocol http|https|https-ssl|unix-socket = [port <1-65535>]",
        "no protocol http|https|unix-socket",
        ("vrf <word>", "mgmt-api-vrf"),
    ],
    "mgmt-api-vrf": ["shutdown", "no shutdown"],
    "mgmt-ssh": [
        "idle-timeout = <num>",
        "authentication mode = <text>",
        "shutdown",
        "no shutdown",
        ("vrf <word>", "mgmt-api-vrf"),
    ],
    "lb-policies": [("load-balance sand|trident profile <word>", "lb-profile")],
    "lb-profile": [
        "fields ip|ipv6|l4|mac = [outer] <word>+",
        ("fields udp dst-port <1-65535>", "lb-udp"),
        "no fields <word>",
    ],
    "lb-udp": [
        "match payload bits <word> pattern <hex> hash payload bytes <word>",
        "payload bytes <word>",
    ],
    "prefix-list": ["seq <num> = permit|deny <prefix> [ge <0-128>] [le <0-128>]"],
    "route-map": ["match <text>", "set <text>", "description = <text>", "continue [<num>]"],
    "class-map": ["match ip access-group <word>", "match dscp <list>", "match cos <list>"],
    "policy-map": [("class <word>", "policy-class")],
    "policy-class": ["set dscp|traffic-class|cos|drop-precedence = <num>", "police <text>"],
    "generic": [],
    "mgmt-gnmi": [
        ("transport grpc <word>", "gnmi-transport"),
        "provider = <word>",
    ],
    "gnmi-transport": [
        "ssl profile = <word>",
        "port = <1-65535>",
        "vrf = <word>",
        "ip access-group = <word>",
        "notification timestamp = <word>",
    ],
    "aaa-group": [
        "server <word> [vrf <word>]",
    ],
    "daemon": [
        "exec = <text>",
        "shutdown",
        "no shutdown",
    ],
}


def eos_grammar() -> Grammar:
    # `banner login|motd` take their text up to a line `EOF` (Arista AVD banners.j2; NAPALM's
    # EOS driver sends it as the command's input)
    return Grammar(MODES, types={"iface": _iface,
                                 "aaaproto": lambda t: t.lower() in ("tacacs+", "radius")},
                   heredocs=frozenset({"banner login", "banner motd"}))


# Top-level order of `show running-config` (EOS prints sections in a fixed order whatever order
# they were entered in); a line's rank is that of the longest matching prefix.
SECTION_ORDER = [
    "transceiver", "service", "logging", "hostname", "ip domain-name", "dns", "ip name-server",
    "ntp", "snmp-server", "radius-server", "tacacs-server", "ip radius", "ip tacacs",
    "spanning-tree", "no spanning-tree", "aaa group server", "aaa", "enable", "username",
    "clock", "vlan", "vrf", "interface defaults", "management api", "qos profile",
    "platform", "interface", "lldp", "no lldp", "qos", "class-map", "policy-map",
    "priority-flow-control", "port-channel", "ip load-sharing", "load-balance",
    "ip virtual-router", "ip routing", "no ip routing", "ipv6", "ip prefix-list", "ip route",
    "route-map", "peer-filter", "router", "management ssh", "banner", "event-handler",
]
_IFACE_ORDER = ["ethernet", "loopback", "management", "port-channel", "tunnel", "vlan", "vxlan"]


def section_key(line: str) -> tuple:
    low = line.lower()
    rank, best = len(SECTION_ORDER), -1
    for i, prefix in enumerate(SECTION_ORDER):
        if (low == prefix or low.startswith(prefix + " ")) and len(prefix) > best:
            rank, best = i, len(prefix)
    if low.startswith("platform") and low.endswith(" apply"):
        rank = len(SECTION_ORDER)  # applied near the end, after the profile exists
    if low.startswith("interface ") and not low.startswith("interface defaults"):
        name = low.split()[1]
        kind = re.match(r"[a-z-]+", name)
        numbers = [int(n) for n in re.findall(r"\d+", name)]
        order = _IFACE_ORDER.index(kind.group(0)) if kind and kind.group(0) in _IFACE_ORDER else 99
        return (rank, order, numbers)
    return (rank, 0, [])
