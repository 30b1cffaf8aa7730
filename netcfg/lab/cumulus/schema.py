"""The NVUE object model the Cumulus emulator accepts, as data.

Written from NVIDIA's NVUE command reference (Set and Unset Commands: Interface, QoS, BGP,
System Forwarding, LLDP, User Accounts, System Configuration) and the Cumulus Linux 5.15
"New and Changed NVUE Commands" page, not from netcfg's templates. NVUE validates every
revision against its OpenAPI schema; this module does the same for the subset of the tree a
lossless RoCE fabric uses (system, management, interfaces, BGP, LLDP, QoS, hashing). A key not
listed at its level, a value of the wrong type or out of range is an error like the one
`nv config patch` / `nv set` prints, naming the path.

One release at a time: the emulator validates against the release the device runs, and a
spelling of the other release is refused, as NVIDIA's 5.15 change table ("New and Changed NVUE
Commands", CumulusNetworks/docs content/cumulus-linux-515/Whats-New/New-and-Changed-NVUE-
Commands.md @07d58d4b) says the syntax changed, not that it gained an alias:
- `service lldp` (5.14 and earlier) became `system lldp` (5.15), likewise DNS and NTP (tabs
  LLDP, DNS Server, NTP);
- `interface <if> ip address|gateway|vrf` became `ipv4 address`, `ipv4 gateway`, `vrf` (tab IP
  Interface); `ip ipv4 forward` and `ip ipv6` stay under `ip`;
- the rows of tab On/Off: `... enable on|off` became `... state enabled|disabled` and
  `on|off` values became `enabled|disabled` (`SWITCH` and `STATE_KEYS` below).
Values of leaves outside the rows read (`ONOFF`) accept both spellings: not verified either way.
A split port (`swpNsM`) exists only while its cage's port has `link breakout <K>x` with M < K
(NVIDIA Cumulus Linux 5.15 "Switch Port Attributes", Breakout Ports: the split ports are created
by the breakout).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


class SchemaError(ValueError):
    """A revision that NVUE would refuse; `path` is the NVUE path of the offending element."""

    def __init__(self, path: list[str], message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message

    def __str__(self) -> str:
        where = " ".join(self.path) or "/"
        return f"{where}: {self.message}"


# --- node kinds -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Leaf:
    """A value; `check(value)` returns None or the reason it is invalid."""

    check: Callable[[Any], str | None]
    doc: str = ""


@dataclass
class Obj:
    """An object with fixed property names. `since`/`until` gate properties by release."""

    props: dict[str, Any] = field(default_factory=dict)
    since: dict[str, tuple[int, ...]] = field(default_factory=dict)
    until: dict[str, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class ByRelease:
    """A value spelled one way before `at` and another way from `at` on."""

    before: Leaf
    after: Leaf
    at: tuple[int, ...]

    def leaf(self, rel: tuple[int, ...]) -> Leaf:
        return self.before if rel < self.at else self.after


@dataclass
class Coll:
    """A collection keyed by identifiers (interfaces, profiles, neighbors ...)."""

    key: Callable[[str], bool]
    key_doc: str
    item: Any


# --- leaf checkers -----------------------------------------------------------------------------
def enum(*values: str) -> Leaf:
    allowed = tuple(values)

    def check(v: Any) -> str | None:
        if isinstance(v, str) and v in allowed:
            return None
        return f"{_show(v)} is not one of {list(allowed)}"
    return Leaf(check, "|".join(allowed))


def integer(lo: int, hi: int, *words: str) -> Leaf:
    def check(v: Any) -> str | None:
        if isinstance(v, str) and v in words:
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            if isinstance(v, str) and v.isdigit():
                v = int(v)
            else:
                return f"{_show(v)} is not of type 'integer'"
        if v < lo:
            return f"{v} is less than the minimum of {lo}"
        if v > hi:
            return f"{v} is greater than the maximum of {hi}"
        return None
    return Leaf(check, f"{lo}-{hi}")


def text(max_len: int = 255) -> Leaf:
    def check(v: Any) -> str | None:
        if not isinstance(v, (str, int)) or isinstance(v, bool):
            return f"{_show(v)} is not of type 'string'"
        if len(str(v)) > max_len:
            return f"{_show(v)} is too long"
        return None
    return Leaf(check, "string")


def _ip(kind: str, *words: str) -> Leaf:
    def check(v: Any) -> str | None:
        if isinstance(v, str) and v in words:
            return None
        try:
            if kind == "address":
                ipaddress.ip_address(str(v))
            else:
                ipaddress.ip_interface(str(v))
        except ValueError:
            return f"{_show(v)} is not a '{'ip-address' if kind == 'address' else 'ip-prefix'}'"
        return None
    return Leaf(check, kind)


def _show(v: Any) -> str:
    return repr(v)


ONOFF = enum("on", "off", "enabled", "disabled")  # rows not read in the 5.15 table: either
#: rows of the 5.15 table's On/Off tab: `on|off` up to 5.14, `enabled|disabled` from 5.15
SWITCH = ByRelease(enum("on", "off"), enum("enabled", "disabled"), (5, 15))
V515 = (5, 15)
ENDIS = enum("enable", "disable")
TEXT = text()
IPV4 = _ip("address")
ASN = integer(1, 4294967295, "none", "leaf", "spine")
REMOTE_AS = integer(1, 4294967295, "none", "internal", "external")
EMPTY = Obj()


def switched(props: dict[str, Any] | None = None) -> Obj:
    """An object switched on by `enable on|off` up to 5.14 and `state enabled|disabled` from
    5.15 (the 5.15 table's On/Off rows), with its other properties."""
    return Obj({"enable": SWITCH, "state": SWITCH, **(props or {})},
               since={"state": V515}, until={"enable": V515})


_HOSTNAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
_IFNAME = re.compile(r"^(swp\d+(s\d+)?|eth\d+|lo|bond\d+|vlan\d+|peerlink(\.\d+)?|[a-z]+\d*"
                     r"(\.\d+)?)$")
_IFRANGE = re.compile(r"^(swp|bond|vlan)\d+(s\d+)?(-\d+(s\d+)?)?(,\d+(s\d+)?(-\d+(s\d+)?)?)*$")
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,62}$")
_USER = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")


def _ifname(key: str) -> bool:
    return bool(_IFNAME.match(key) or _IFRANGE.match(key))


def _name(key: str) -> bool:
    return bool(_NAME.match(key))


def _prefix(key: str) -> bool:
    try:
        ipaddress.ip_interface(key)
    except ValueError:
        return key == "dhcp"
    return "/" in key


def _address(key: str) -> bool:
    try:
        ipaddress.ip_address(key)
    except ValueError:
        return False
    return True


def _listening(key: str) -> bool:
    """An SNMP listening address: an IP address or NVUE's keywords for all and localhost."""
    return _address(key) or key in ("all", "all-v6", "localhost", "localhost-v6")


def _community(key: str) -> bool:
    """A community string (NVUE shows it as `$nvsec$...` once applied): no blanks."""
    return bool(key) and not any(c.isspace() for c in key)


def _listening_api(key: str) -> bool:
    """The NVUE API's listening address: an IP address, `any` or `localhost`."""
    return _address(key) or key in ("any", "localhost")


def _access(key: str) -> bool:
    """Who may use an SNMP community: `any`, or an address or prefix."""
    return key in ("any", "localhost") or _address(key) or _prefix(key)


def _neighbor(key: str) -> bool:
    return _address(key) or _ifname(key)


def _numbers(lo: int, hi: int) -> Callable[[str], bool]:
    """A number, or a list/range such as '0,3' or '1-4' (NVUE accepts both as IDs)."""
    def ok(key: str) -> bool:
        for part in key.split(","):
            bounds = part.split("-")
            if len(bounds) > 2 or not all(b.isdigit() and lo <= int(b) <= hi for b in bounds):
                return False
        return True
    return ok


def hostname_leaf() -> Leaf:
    def check(v: Any) -> str | None:
        return None if isinstance(v, str) and _HOSTNAME.match(v) else \
            f"{_show(v)} is not a valid 'idn-hostname'"
    return Leaf(check, "hostname")


# --- the model -------------------------------------------------------------------------------
_SP = _numbers(0, 7)
_TC = _numbers(0, 7)

_LLDP = Obj({"state": ONOFF, "tx-interval": integer(10, 300), "tx-hold-multiplier":
             integer(1, 10), "dot1-tlv": SWITCH, "mode": enum("default", "force-cdpv1",
                                                             "force-cdpv2")})

_HASH_FIELDS = ("source-ip", "destination-ip", "source-port", "destination-port", "ip-protocol",
                "ipv6-label", "ingress-interface", "gtp-teid", "inner-source-ip",
                "inner-destination-ip", "inner-source-port", "inner-destination-port",
                "inner-ip-protocol", "inner-ipv6-label")

_SYSTEM = Obj({
    "hostname": hostname_leaf(),
    "timezone": TEXT,
    "message": Obj({"pre-login": TEXT, "post-login": TEXT}),
    "global": Obj({"anycast-id": integer(1, 65535), "fabric-id": integer(1, 255),
                   "system-mac": TEXT, "anycast-mac": TEXT}),
    "config": Obj({"auto-save": Obj({"enable": ONOFF, "state": ONOFF}),
                   "apply": Obj({"ignore": Coll(lambda k: k.startswith("/"), "file", EMPTY),
                                 "overwrite": enum("all", "controlled")})}),
    "forwarding": Obj({"ecmp-hash": Obj({f: SWITCH for f in _HASH_FIELDS}),
                       "lag-hash": Obj({f: SWITCH for f in _HASH_FIELDS[:6]}),
                       "hash-seed": integer(0, 4294967295)}),
    "aaa": Obj({"user": Coll(lambda k: bool(_USER.match(k)), "user-name", Obj({
        "full-name": TEXT, "password": TEXT, "hashed-password": TEXT,
        "role": TEXT, "enable": enum("on", "off", "inherit"),
        "state": enum("enabled", "disabled", "inherit")})),
        # NVIDIA's factory startup.yaml (every 5.14 doc example startup.yaml: classes
        # nvapply, nvshow, sudo with `action allow` and `command-path / permission`; roles
        # naming classes), NVUE reference, User Accounts (`system aaa class|role`)
        "class": Coll(_name, "class-id", Obj({
            "action": enum("allow", "deny"),
            "command-path": Coll(lambda k: k.startswith("/"), "command-path", Obj({
                "permission": enum("ro", "rw", "act", "all", "none")}))})),
        "role": Coll(_name, "role-id", Obj({"class": Coll(_name, "class-id", EMPTY)}))}),
    # 5.15 NVUE API page, `nv show system api`: state, port 8765, listening-address any,
    # certificate self-signed, token-expiration (minutes)
    "api": Obj({"state": ONOFF, "port": integer(1, 65535),
                "listening-address": Coll(_listening_api, "listening-address", EMPTY),
                "certificate": TEXT, "token-expiration": integer(1, 10080)}),
    # Firewall Rules page (5.9 and later): `nv set system control-plane acl acl-default-dos
    # inbound`, `... acl-default-whitelist inbound`
    "control-plane": Obj({"acl": Coll(_name, "acl-id", Obj({"inbound": EMPTY,
                                                            "outbound": EMPTY}))}),
    # NVIDIA's factory startup.yaml (the doc examples' shared sections): `system reboot mode
    # cold`, `system wjh channel forwarding trigger l2|l3|tunnel`, `system wjh enable on`
    "reboot": Obj({"mode": enum("cold", "fast", "warm")}),
    "wjh": Obj({"enable": ONOFF, "state": ONOFF,
                "channel": Coll(_name, "channel-id", Obj({
                    "trigger": Obj({"l1": EMPTY, "l2": EMPTY, "l3": EMPTY,
                                    "tunnel": EMPTY})}))}),
    "ssh-server": Obj({"state": ONOFF, "vrf": Coll(_name, "vrf-name", EMPTY),
                       "port": Coll(_numbers(1, 65535), "port", EMPTY)}),
    "lldp": _LLDP,
    "dns": Obj({"server": Coll(_address, "ip-address", Obj({"vrf": TEXT})),
                "search": Coll(_name, "domain", EMPTY)}),
    # NVUE reference, NTP (5.15): `nv set system ntp vrf <vrf-id>`, `... server <server-id>`,
    # `... listen <interface-name>`
    "ntp": Obj({"server": Coll(_name, "server", Obj({"iburst": SWITCH, "vrf": TEXT})),
                "listen": TEXT, "vrf": TEXT}),
    # NVIDIA Cumulus Linux 5.15 user guide, Syslog (CumulusNetworks/docs): `nv set system
    # syslog server <server-id> port|protocol|vrf`; `service syslog` is gone since 5.13
    # (NVUE reference, Syslog: "Cumulus 5.13 and later does not provide this command")
    # NVIDIA Cumulus Linux 5.14/5.15 user guide, gNMI Streaming, and the NVUE reference (gNMI,
    # introduced in 5.13): `system gnmi-server listening-address <a>`, `port`, `certificate`,
    # `state enabled|disabled`
    "gnmi-server": Obj({"listening-address": Coll(_name, "listening-address", EMPTY),
                        "port": integer(1, 65535), "certificate": TEXT,
                        "state": enum("enabled", "disabled")}),
    "syslog": Obj({"server": Coll(_name, "server-id", Obj({
        "port": integer(1, 65535), "protocol": enum("udp", "tcp"), "vrf": TEXT}))}),
    # NVIDIA Cumulus Linux 5.14 user guide, Configure SNMP (CumulusNetworks/docs): `nv set
    # system snmp-server state enabled`, `listening-address <ip|all|localhost> [vrf <vrf>]`,
    # `readonly-community <c> access <any|prefix> [view <v>]`, `system-location`,
    # `system-contact`, `system-name`, `viewname`; the NVUE reference, SNMP Server: `service
    # snmp-server` in 5.10 and earlier; the 5.15 change table changes only trap-destination
    "snmp-server": Obj({
        "state": enum("enabled", "disabled"),
        "listening-address": Coll(_listening, "listening-address", Obj({"vrf": TEXT})),
        "readonly-community": Coll(_community, "readonly-community-id", Obj({
            "access": Coll(_access, "access", Obj({"view": TEXT}))})),
        "system-location": TEXT, "system-contact": TEXT, "system-name": TEXT}),
}, since={"lldp": (5, 15), "dns": (5, 15), "ntp": (5, 15), "snmp-server": (5, 11)})

_SERVICE = Obj({
    "lldp": _LLDP,
    # 5.14 NTP page, "Specify the NTP Source Interface": `nv set service ntp <vrf> listen
    # <interface>` (5.15 moved it to `system ntp listen`)
    "ntp": Coll(_name, "vrf-name", Obj({"server": Coll(_name, "server",
                                                         Obj({"iburst": SWITCH})),
                                        "listen": TEXT})),
    "dns": Coll(_name, "vrf-name", Obj({"server": Coll(_address, "ip-address", EMPTY)})),
}, until={"lldp": (5, 15), "ntp": (5, 15), "dns": (5, 15)})

_IF_QOS = Obj({
    "mapping": Obj({"profile": TEXT}),
    "pfc": Obj({"profile": TEXT}),
    "congestion-control": Obj({"profile": TEXT}),
    "egress-scheduler": Obj({"profile": TEXT}),
    "egress-shaper": Obj({"profile": TEXT}),
    "remark": Obj({"profile": TEXT}),
    "link-pause": Obj({"profile": TEXT}),
    "pfc-watchdog": Obj({"state": ENDIS}),
})

_INTERFACE = Obj({
    "type": enum("swp", "eth", "loopback", "bond", "svi", "sub", "peerlink", "tunnel"),
    "description": TEXT,
    "link": Obj({"state": enum("up", "down"),
                 "speed": enum("auto", "10M", "100M", "1G", "10G", "25G", "40G", "50G",
                               "100G", "200G", "400G", "800G"),
                 "mtu": integer(552, 9216),
                 "fec": enum("auto", "baser", "off", "rs", "driver-auto"),
                 "auto-negotiate": SWITCH, "duplex": enum("half", "full"),
                 "breakout": Coll(lambda k: bool(re.match(r"^\d+x(\d+G)?$|^disabled$|^loopback$",
                                                          k)), "breakout-mode", EMPTY)}),
    "ip": Obj({"address": Coll(_prefix, "ip-prefix", EMPTY),
               "vrf": TEXT,
               "gateway": Coll(_address, "ip-address", EMPTY),
               "ipv4": Obj({"forward": SWITCH}),
               "ipv6": switched({"forward": SWITCH})},
              until={"address": V515, "vrf": V515, "gateway": V515}),
    "ipv4": Obj({"address": Coll(_prefix, "ip-prefix", EMPTY),
                 "gateway": Coll(_address, "ip-address", EMPTY)}),
    "vrf": TEXT,
    "qos": _IF_QOS,
    "bond": Obj({"member": Coll(_ifname, "interface-name", EMPTY),
                 "mode": enum("lacp", "static"), "lacp-rate": enum("fast", "slow")}),
    "bridge": Obj({"domain": Coll(_name, "domain-name", Obj({
        "access": integer(1, 4094), "untagged": integer(1, 4094, "none"),
        "vlan": Coll(_numbers(1, 4094), "vlan", EMPTY)}))}),
    "router": Obj({"adaptive-routing": Obj({"enable": ONOFF, "state": ONOFF,
                                            "link-utilization-threshold": integer(1, 100)})}),
}, since={"ipv4": V515, "vrf": V515})

_AF = switched({
    "multipaths": Obj({"ebgp": integer(1, 128), "ibgp": integer(1, 128),
                       "compare-cluster-length": SWITCH}),
    "network": Coll(_prefix, "ip-prefix", Obj({"route-map": TEXT})),
    "redistribute": Obj({k: switched({"metric": integer(0, 4294967295, "auto"),
                                      "route-map": TEXT})
                         for k in ("connected", "static", "kernel", "ospf")}),
})

_NEIGHBOR = switched({
    "type": enum("numbered", "unnumbered"),
    "remote-as": REMOTE_AS,
    "peer-group": TEXT,
    "description": TEXT,
    "password": TEXT,
    "address-family": Obj({"ipv4-unicast": switched(), "ipv6-unicast": switched()}),
    # NVUE reference, BGP (`vrf <v> router bgp neighbor|peer-group <id> timers ...`) and its
    # command list: keepalive (1-65535|none|auto), hold (3-65535|none|auto),
    # connection-retry (1-65535|auto), route-advertisement (1-600|none|auto); no row of the
    # 5.15 change table touches them
    "timers": Obj({"keepalive": integer(1, 65535, "none", "auto"),
                   "hold": integer(3, 65535, "none", "auto"),
                   "connection-retry": integer(1, 65535, "auto"),
                   "route-advertisement": integer(1, 600, "none", "auto")}),
    # Cumulus Linux 5.14 "Bidirectional Forwarding Detection - BFD", BFD in BGP (NVUE tab):
    # `neighbor <id> bfd enable on`, `detect-multiplier`, `min-rx-interval`, `min-tx-interval`;
    # the ranges are those of the FRR command it sets (`neighbor X bfd (2-255) (50-60000)
    # (50-60000)`, shown on the page's vtysh tab)
    # up to 5.14 the timers sit on the neighbour; 5.15 ("Bidirectional Forwarding Detection -
    # BFD" @5810501f) attaches a `router bfd profile` instead: `neighbor <n> bfd profile <p>`
    "bfd": Obj({"enable": SWITCH, "state": SWITCH, "detect-multiplier": integer(2, 255),
                "min-rx-interval": integer(50, 60000), "min-tx-interval": integer(50, 60000),
                "profile": TEXT},
               since={"state": V515, "profile": V515},
               until={"enable": V515, "detect-multiplier": V515, "min-rx-interval": V515,
                      "min-tx-interval": V515}),
})

_VRF_BGP = switched({
    "autonomous-system": ASN,
    "router-id": _ip("address", "none", "auto"),
    "path-selection": Obj({"multipath": Obj({"aspath-ignore": SWITCH,
                                             "generate-asset": SWITCH, "bandwidth": TEXT}),
                           "routerid-compare": SWITCH}),
    "address-family": Obj({"ipv4-unicast": _AF, "ipv6-unicast": _AF}),
    "neighbor": Coll(_neighbor, "neighbor-id", _NEIGHBOR),
    "peer-group": Coll(_name, "peer-group-id", _NEIGHBOR),
})

_VRF = Obj({
    "router": Obj({"bgp": _VRF_BGP,
                   # NVUE reference (5.0+), Static Routing: `router static <route-id>
                   # address-family ipv4-unicast|ipv6-unicast`, `via <via-id> type ...`
                   "static": Coll(_prefix, "route-id", Obj({
                       "address-family": enum("ipv4-unicast", "ipv6-unicast"),
                       "via": Coll(lambda k: _address(k) or k == "blackhole", "via-id",
                                   Obj({"type": TEXT}))}))}),
    "loopback": Obj({"ip": Obj({"address": Coll(_prefix, "ip-prefix", EMPTY)})}),
})

_ROUTER = Obj({
    "bgp": switched({"autonomous-system": ASN,
                     "router-id": _ip("address", "none"),
                     "graceful-restart": Obj({"mode": enum("full", "helper-only", "off")}),
                     "wait-for-install": SWITCH}),
    "adaptive-routing": switched({"link-utilization-threshold": SWITCH}),
    # 5.15 BFD page: `router bfd state enabled|disabled`, `router bfd profile <p>` with
    # detect-multiplier (default 3), min-tx-interval and min-rx-interval (10-4294967 ms),
    # shutdown, passive-mode, minimum-ttl (1-254)
    "bfd": Obj({"state": enum("enabled", "disabled"),
                "profile": Coll(_name, "profile-id", Obj({
                    "detect-multiplier": integer(2, 255),
                    "min-tx-interval": integer(10, 4294967),
                    "min-rx-interval": integer(10, 4294967),
                    "shutdown": enum("enabled", "disabled"),
                    "passive-mode": enum("enabled", "disabled"),
                    "minimum-ttl": integer(1, 254)}))}),
}, since={"bfd": V515})

_QOS = Obj({
    "roce": switched({"mode": enum("lossless", "lossy", "lossless-single-ipool",
                                               "lossy-multi-tc"),
                 "cable-length": integer(1, 100000)}),
    "mapping": Coll(_name, "profile-id", Obj({
        "trust": enum("l2", "l3", "both", "port"),
        "port-default-sp": integer(0, 7),
        "dscp": Coll(_numbers(0, 63), "qos-dscp-id", Obj({"switch-priority": integer(0, 7)})),
        "pcp": Coll(_numbers(0, 7), "qos-pcp-id", Obj({"switch-priority": integer(0, 7)}))})),
    "egress-queue-mapping": Coll(_name, "profile-id", Obj({
        "switch-priority": Coll(_SP, "qos-sp-id", Obj({"traffic-class": integer(0, 7)}))})),
    "egress-scheduler": Coll(_name, "profile-id", Obj({
        "traffic-class": Coll(_TC, "qos-tc-id", Obj({"mode": enum("dwrr", "strict"),
                                                     "bw-percent": integer(1, 100)}))})),
    "pfc": Coll(_name, "profile-id", Obj({
        "switch-priority": Coll(_SP, "qos-sp-id", EMPTY),
        "cable-length": integer(1, 100000),
        "tx": ENDIS, "rx": ENDIS,
        "xoff-threshold": integer(1, 2 ** 31 - 1),
        "xon-threshold": integer(1, 2 ** 31 - 1),
        "port-buffer": integer(1, 2 ** 31 - 1)})),
    "congestion-control": Coll(_name, "profile-id", Obj({
        "traffic-class": Coll(_TC, "qos-tc-id", Obj({
            "ecn": ENDIS, "red": ENDIS,
            "min-threshold": integer(1, 2 ** 31 - 1),
            "max-threshold": integer(1, 2 ** 31 - 1),
            "probability": integer(1, 100)}))})),
    "pfc-watchdog": Obj({"polling-interval": integer(100, 5000),
                         "robustness": integer(1, 1000)}),
    "traffic-pool": Coll(lambda k: k in ("default-lossy", "default-lossless", "mc-lossy",
                                         "roce-lossy", "roce-lossless"), "traffic-pool-id",
                         Obj({"memory-percent": integer(1, 100),
                              "switch-priority": Coll(_SP, "qos-sp-id", EMPTY)})),
})

ROOT = Obj({
    "system": _SYSTEM,
    "service": _SERVICE,
    "interface": Coll(_ifname, "interface-name", _INTERFACE),
    "router": _ROUTER,
    "vrf": Coll(_name, "vrf-name", _VRF),
    "qos": _QOS,
})


def release(version: str) -> tuple[int, ...]:
    """'5.15.0' -> (5, 15, 0)."""
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def _allowed(node: Obj, key: str, rel: tuple[int, ...]) -> bool:
    if key not in node.props:
        return False
    if key in node.since and rel < node.since[key]:
        return False
    return not (key in node.until and rel >= node.until[key])


def validate(tree: Mapping[str, Any], rel: tuple[int, ...]) -> None:
    """Raise SchemaError for the first element of `tree` the model does not allow."""
    _check(ROOT, tree, [], rel)
    _check_split_ports(tree.get("interface") or {})
    _check_bfd_profiles(tree)
    _check_peer_groups(tree)
    _check_pools(tree)
    _check_pfc_profiles(tree)


def _check_bfd_profiles(tree: Mapping[str, Any]) -> None:
    """A neighbour's `bfd profile` names a `router bfd profile` that exists."""
    profiles = ((tree.get("router") or {}).get("bfd") or {}).get("profile") or {}
    for vrf, body in (tree.get("vrf") or {}).items():
        bgp = ((body or {}).get("router") or {}).get("bgp") or {}
        for kind in ("neighbor", "peer-group"):
            for name, n in (bgp.get(kind) or {}).items():
                wanted = ((n or {}).get("bfd") or {}).get("profile")
                if wanted is not None and wanted not in profiles:
                    raise SchemaError(["vrf", str(vrf), "router", "bgp", kind, str(name), "bfd",
                                       "profile"], f"BFD profile '{wanted}' does not exist")


def _check_peer_groups(tree: Mapping[str, Any]) -> None:
    """A neighbour's `peer-group` names a peer group of its VRF: NVUE hands the neighbour to
    FRR, whose BGP northbound refuses a member of a group it does not have ("Configure the
    peer-group first", bgpd/bgp_nb_config.c)."""
    for vrf, body in (tree.get("vrf") or {}).items():
        bgp = ((body or {}).get("router") or {}).get("bgp") or {}
        groups = bgp.get("peer-group") or {}
        for name, n in (bgp.get("neighbor") or {}).items():
            wanted = (n or {}).get("peer-group")
            if wanted is not None and str(wanted) not in groups:
                raise SchemaError(["vrf", str(vrf), "router", "bgp", "neighbor", str(name),
                                   "peer-group"], f"Configure the peer-group first {wanted}")


#: the lossless pools (QoS page, Traffic Pools): one at a time, `roce-lossless` with RoCE
_LOSSLESS_POOLS = ("default-lossless", "roce-lossless")


def _check_pools(tree: Mapping[str, Any]) -> None:
    """NVIDIA's QoS page (5.9, 5.14), Flow Control Buffers and Traffic Pools: 100 % of the
    buffer is in `default-lossy` unless set otherwise, the pools add up to at most 100 %,
    only one lossless pool exists at a time, and PFC (or link pause) needs the lossless pool
    first ("Before configuring PFC, first modify the switch buffer allocation") unless
    `qos roce` makes its own."""
    qos = tree.get("qos") or {}
    pools = qos.get("traffic-pool") or {}
    percent = {name: int((body or {}).get("memory-percent", 0) or 0)
               for name, body in pools.items()}
    percent.setdefault("default-lossy", 100)
    if sum(percent.values()) > 100:
        raise SchemaError(["qos", "traffic-pool"], "traffic pools add up to "
                          f"{sum(percent.values())}% of the buffer (default-lossy "
                          f"{percent['default-lossy']}%); the total must not exceed 100%")
    lossless = [n for n in _LOSSLESS_POOLS if percent.get(n)]
    if len(lossless) > 1:
        raise SchemaError(["qos", "traffic-pool", lossless[1]],
                          "only one lossless traffic pool can be configured at a time")
    roce = qos.get("roce")
    if lossless or (isinstance(roce, dict) and roce.get("enable", "on") == "on"
                    and roce.get("state", "enabled") == "enabled"):
        return
    for name, body in (tree.get("interface") or {}).items():
        iq = (body or {}).get("qos") or {}
        for kind in ("pfc", "link-pause"):
            if (iq.get(kind) or {}).get("profile") is not None:
                raise SchemaError(["interface", str(name), "qos", kind], f"{kind} needs the "
                                  "lossless traffic pool first: every switch priority is in "
                                  "default-lossy (100%); set qos traffic-pool default-lossless "
                                  "memory-percent")


def _check_pfc_profiles(tree: Mapping[str, Any]) -> None:
    """NVIDIA's meanings: PAUSE at `xoff-threshold` inside `port-buffer` (what lies above it
    takes the data in flight), resume `xon-threshold` bytes below it; a profile that leaves no
    room above the threshold, or resumes below empty, cannot work."""
    for name, body in (((tree.get("qos") or {}).get("pfc")) or {}).items():
        b = body or {}
        xoff, xon, size = (b.get(k) for k in ("xoff-threshold", "xon-threshold", "port-buffer"))
        if xoff is not None and size is not None and int(xoff) >= int(size):
            raise SchemaError(["qos", "pfc", str(name), "xoff-threshold"],
                              f"xoff-threshold {xoff} leaves no room in port-buffer {size} "
                              "for the data that arrives after PAUSE")
        if xon is not None and xoff is not None and int(xon) >= int(xoff):
            raise SchemaError(["qos", "pfc", str(name), "xon-threshold"],
                              f"xon-threshold {xon} is a delta below xoff-threshold {xoff} "
                              "and must be smaller than it")


_SPLIT = re.compile(r"^swp(\d+)s(\d+)$")


def _check_split_ports(interfaces: Mapping[str, Any]) -> None:
    """A split port exists only under its cage port's `link breakout <K>x`, M < K."""
    for name in interfaces:
        m = _SPLIT.match(str(name))
        if not m:
            continue
        parent = f"swp{m.group(1)}"
        modes = ((interfaces.get(parent) or {}).get("link") or {}).get("breakout") or {}
        ways = [int(k.split("x")[0]) for k in modes if re.match(r"^\d+x", str(k))]
        if not ways or int(m.group(2)) >= max(ways):
            raise SchemaError(["interface", str(name)],
                              f"'{name}' does not exist: {parent} has no link breakout that "
                              "creates it")


def _check(node: Any, value: Any, path: list[str], rel: tuple[int, ...]) -> None:
    if isinstance(node, ByRelease):
        node = node.leaf(rel)
    if isinstance(node, Leaf):
        if isinstance(value, dict):
            raise SchemaError(path, f"{_show(value)} is not of type '{node.doc or 'string'}'")
        reason = node.check(value)
        if reason:
            raise SchemaError(path, reason)
        return
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise SchemaError(path, f"{_show(value)} is not of type 'object'")
    if isinstance(node, Coll):
        for key, item in value.items():
            if not node.key(str(key)):
                raise SchemaError(path + [str(key)],
                                  f"'{key}' is not a valid '{node.key_doc}'")
            _check(node.item, item, path + [str(key)], rel)
        return
    for key, item in value.items():
        if not _allowed(node, str(key), rel):
            raise SchemaError(path, f"Additional properties are not allowed ('{key}' was "
                                    "unexpected)")
        _check(node.props[str(key)], item, path + [str(key)], rel)


def walk(path: list[str], rel: tuple[int, ...]) -> tuple[Any, int]:
    """Follow command tokens from the root: (node reached, tokens consumed). Used by `nv set`:
    the first token not naming a property or collection key is the value."""
    node: Any = ROOT
    used = 0
    for token in path:
        if isinstance(node, Obj) and _allowed(node, token, rel):
            node = node.props[token]
        elif isinstance(node, Coll) and node.key(token):
            node = node.item
        else:
            break
        used += 1
    if isinstance(node, ByRelease):
        node = node.leaf(rel)
    return node, used
