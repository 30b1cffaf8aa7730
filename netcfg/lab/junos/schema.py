"""Junos configuration hierarchy: which statements exist where, as data.

Written from Juniper's configuration statement reference (statement hierarchy levels) and the
project's vendor notes; it covers base system, interfaces, routing, BGP, LLDP, class of
service (classifiers, forwarding classes, PFC congestion-notification profiles and watchdog,
drop profiles, schedulers, shared buffer) and hashing. A statement not listed at its level is
rejected with Junos's `syntax error` and the offending element, like `load` on a device.
Subtrees marked `ANY` are accepted without checking (kept out of scope on purpose).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Flag:
    """`statement;` with no value."""


@dataclass(frozen=True)
class Leaf:
    """`statement value;` (one value, or a bracketed list); a new value replaces the old."""


@dataclass
class Named:
    """`statement NAME { ... }`; `ids` restricts NAME (e.g. family inet|inet6)."""

    body: dict = field(default_factory=dict)
    ids: tuple[str, ...] = ()


@dataclass
class Presence:
    """`statement;` on its own, or `statement { ... }` with options."""

    body: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Anything:
    """A subtree accepted as written."""


FLAG, LEAF, ANY = Flag(), Leaf(), Anything()
# keys of containers whose entries are named by the element itself: WILDCARD takes interface
# names (`interfaces { et-0/0/0 { } }`), ENTRY any name (`schedulers { s1 { } }`)
WILDCARD = "*"
ENTRY = "**"

IFACE = re.compile(r"((et|xe|ge|mge|ae|lo|em|fxp|irb|vme|re\d:mgmt)-?\d*(/\d+)*(:\d+)?|all|"
                   r"ae\d+|lo0|irb|vlan)")

_ADDRESS = Named({"primary": FLAG, "preferred": FLAG})
_FAMILY = Named({"address": _ADDRESS, "mtu": LEAF, "filter": ANY, "no-redirects": FLAG},
                ids=("inet", "inet6", "ethernet-switching", "mpls", "iso"))
_UNIT = Named({"description": LEAF, "family": _FAMILY, "vlan-id": LEAF, "disable": FLAG,
               "classifiers": {"dscp": LEAF, "ieee-802.1": LEAF, "dscp-ipv6": LEAF},
               "rewrite-rules": ANY})
_INTERFACE = {"description": LEAF, "mtu": LEAF, "speed": LEAF, "disable": FLAG,
              "ether-options": ANY, "gigether-options": ANY, "aggregated-ether-options": ANY,
              "unit": _UNIT, "vlan-tagging": FLAG, "number-of-sub-ports": LEAF,
              "congestion-notification-profile": LEAF, "scheduler-map": LEAF,
              "classifiers": {"dscp": LEAF, "ieee-802.1": LEAF}}

_BGP_NEIGHBOR = Named({"description": LEAF, "peer-as": LEAF, "local-address": LEAF,
                       "import": LEAF, "export": LEAF, "bfd-liveness-detection": ANY,
                       "family": ANY, "multipath": ANY, "authentication-key": LEAF})
_BGP_GROUP = Named({"type": LEAF, "description": LEAF, "local-as": LEAF, "peer-as": LEAF,
                    "local-address": LEAF, "import": LEAF, "export": LEAF,
                    "multipath": Presence({"multiple-as": FLAG}), "family": ANY,
                    "neighbor": _BGP_NEIGHBOR, "bfd-liveness-detection": ANY,
                    "hold-time": LEAF, "log-updown": FLAG, "authentication-key": LEAF,
                    "graceful-restart": ANY})


_CNP = Named({
    "input": {"dscp": {"code-point": Named({"pfc": Presence({"mru": LEAF})})},
              "ieee-802.1": {"code-point": Named({"pfc": ANY})},
              "cable-length": LEAF, "xon": ANY},
    "output": {"ieee-802.1": {"code-point": Named({"flow-control-queue": LEAF})}},
    "pfc-watchdog": Presence({"poll-interval": LEAF, "detection": LEAF, "recovery": LEAF,
                              "watchdog-action": ANY}),
})

CLASS_OF_SERVICE = {
    "classifiers": {"dscp": Named({"import": LEAF, "forwarding-class": Named(
                        {"loss-priority": Named({"code-points": LEAF})})}),
                    "ieee-802.1": Named({"import": LEAF, "forwarding-class": Named(
                        {"loss-priority": Named({"code-points": LEAF})})}),
                    "dscp-ipv6": ANY},
    "forwarding-classes": {"class": Named({"queue-num": LEAF, "no-loss": FLAG,
                                           "pfc-priority": LEAF, "priority": LEAF}),
                           "queue": ANY},
    "congestion-notification-profile": {ENTRY: _CNP},
    "drop-profiles": {ENTRY: Named({"interpolate": {"fill-level": LEAF,
                                                    "drop-probability": LEAF}})},
    "schedulers": {ENTRY: Named({"transmit-rate": LEAF, "shaping-rate": LEAF, "priority": LEAF,
                                 "buffer-size": LEAF, "buffer-dynamic-threshold": LEAF,
                                 "explicit-congestion-notification": FLAG,
                                 "drop-profile-map": ANY, "excess-rate": LEAF})},
    "scheduler-maps": {ENTRY: Named({"forwarding-class": Named({"scheduler": LEAF})})},
    # Juniper's statement pages: `shared-buffer` (percent), `ingress`/`egress (Buffer
    # Configuration)` (percent, buffer-partition), `buffer-partition (Ingress)` lossless |
    # lossless-headroom | lossy and `buffer-partition (Egress)` lossless | lossy | multicast,
    # each { percent; dynamic-threshold; }. The published Evolved YANG lacks the partitions
    # (yang.SKIP), so this table is what checks them.
    "shared-buffer": {
        "percent": LEAF,
        "ingress": {"percent": LEAF, "buffer-partition": Named(
            {"percent": LEAF, "dynamic-threshold": LEAF},
            ids=("lossless", "lossless-headroom", "lossy"))},
        "egress": {"percent": LEAF, "buffer-partition": Named(
            {"percent": LEAF, "dynamic-threshold": LEAF},
            ids=("lossless", "lossy", "multicast"))},
    },
    "interfaces": {"*": Named(dict(_INTERFACE, unit=_UNIT))},
    "rewrite-rules": ANY,
    "forwarding-class-sets": ANY,
    "traffic-control-profiles": ANY,
    "drop-congestion-notification": ANY,
}

SCHEMA: dict = {
    "version": LEAF,
    "system": {
        "host-name": LEAF, "domain-name": LEAF, "time-zone": LEAF,
        "root-authentication": ANY, "login": ANY, "services": ANY, "syslog": ANY,
        # junos-conf-system 24.4R1-EVO: `list name-server { key name; uses nameserver-object }`,
        # written `name-server { 192.0.2.53; }` (each entry named by its address)
        "name-server": {ENTRY: Named({"routing-instance": LEAF, "source-address": LEAF})},
        "ntp": ANY, "management-instance": FLAG,
        # junos-conf-system 24.4R1-EVO: `leaf-list authentication-order` (radius, tacplus,
        # password), `list tacplus-server` (tacplus-server-object) and `list radius-server`
        # (radius-server-object), each keyed by the server's name
        "authentication-order": LEAF,
        "tacplus-server": Named({
            "routing-instance": LEAF, "port": LEAF, "secret": LEAF, "timeout": LEAF,
            "single-connection": FLAG, "source-address": LEAF}),
        "radius-server": Named({
            "routing-instance": LEAF, "port": LEAF, "preauthentication-port": LEAF,
            "accounting-port": LEAF, "dynamic-request-port": LEAF, "secret": LEAF,
            "preauthentication-secret": LEAF, "timeout": LEAF, "retry": LEAF,
            "accounting-timeout": LEAF, "accounting-retry": LEAF,
            "max-outstanding-requests": LEAF, "no-message-authenticator": FLAG,
            "source-address": LEAF, "tls": ANY}),
        "commit": ANY, "processes": ANY,
    },
    "chassis": ANY,
    "interfaces": {"*": Named(_INTERFACE), "interface-range": ANY},
    "routing-options": {"router-id": LEAF, "autonomous-system": LEAF, "static": ANY,
                        "forwarding-table": {"export": LEAF, "ecmp-fast-reroute": FLAG},
                        "multipath": ANY},
    "protocols": {
        "bgp": {"group": _BGP_GROUP, "log-updown": FLAG, "graceful-restart": ANY,
                "multipath": ANY, "global-load-balancing": ANY},
        "lldp": {"interface": Named({"disable": FLAG}), "port-id-subtype": LEAF,
                 "advertisement-interval": LEAF, "hold-multiplier": LEAF},
        "lldp-med": ANY,
        "bfd": ANY,
    },
    "policy-options": {"policy-statement": ANY, "prefix-list": ANY, "community": ANY},
    "class-of-service": CLASS_OF_SERVICE,
    "forwarding-options": {"enhanced-hash-key": ANY, "hash-key": ANY},
    "snmp": ANY,
    "routing-instances": ANY,
    "firewall": ANY,
    "vlans": ANY,
    "groups": ANY,
    "apply-groups": LEAF,
}



def interface_name(token: str) -> bool:
    return IFACE.fullmatch(token) is not None
