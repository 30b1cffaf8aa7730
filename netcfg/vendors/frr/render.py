"""FRR: the plan as an frr.conf model, and what the file says of QoS (nothing: FRR configures
routing only, so `read` and `expected` are both empty and CAP012 warns at validate time)."""

from __future__ import annotations

import ipaddress

from netcfg.render.facts import QosFacts
from netcfg.render.plan import DevicePlan
from netcfg.vendors.common import Bgp
from netcfg.vendors.frr.model import FrrConfig, Interface


def connected(plan: DevicePlan) -> set[str]:
    """The subnets the switch has an address in (its loopback, its ports)."""
    return {plan.loopback} | {str(ipaddress.IPv4Interface(i.address).network)
                              for i in plan.interfaces if i.address}


def build(plan: DevicePlan) -> FrrConfig:
    have = connected(plan)
    return FrrConfig(
        hostname=plan.hostname, loopback=plan.loopback,
        interfaces=tuple(Interface(i.name, i.description, i.address)
                         for i in plan.interfaces if i.address),
        blackholes=tuple(p for p in plan.bgp.networks if p not in have),
        bgp=Bgp.of(plan.bgp), transit=True,
        timers=(plan.bgp.keepalive_s, plan.bgp.hold_s))


def read(text: str) -> QosFacts:
    return QosFacts()


def expected(plan: DevicePlan) -> QosFacts:
    return QosFacts()
