"""What netcfg does with acme: a typed config, a template of acme's syntax, and readers of it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from netcfg.render.facts import Ecn, QosFacts, WatchdogFacts, facts_of
from netcfg.render.plan import DevicePlan
from netcfg.render.routing_facts import RoutingFacts
from netcfg.vendors.base import DeployAdapter, Vendor
from netcfg_acme.facts import FACTS


@dataclass(frozen=True)
class Config:
    hostname: str
    hash_fields: tuple[str, ...]
    dscp: tuple[tuple[int, int], ...]
    lossless: tuple[int, ...]
    interfaces: tuple[Any, ...]
    asn: int
    router_id: str
    neighbors: tuple[tuple[str, int], ...]
    networks: tuple[str, ...]


class AcmeDeploy(DeployAdapter):
    napalm_driver = "acme"
    default_port = 22
    protocol = "ssh"


class Acme(Vendor):
    facts = FACTS
    template = "acme/device.j2"
    template_dir = Path(__file__).with_name("templates")
    extension = "acme"
    deploy = AcmeDeploy()

    def build(self, plan: DevicePlan) -> Config:
        return Config(plan.hostname, tuple(plan.ecmp.fields), tuple(sorted(
            plan.qos.dscp_to_tc.items())), tuple(plan.qos.pfc_priorities),
            tuple(plan.interfaces), plan.bgp.asn, plan.bgp.router_id,
            tuple((n.address, n.remote_as) for n in plan.bgp.neighbors),
            tuple(plan.bgp.networks))

    def read(self, text: str, plan: DevicePlan) -> QosFacts:
        facts = QosFacts()
        port = ""
        for line in text.splitlines():
            words = line.split()
            if words[:1] == ["hash"]:
                facts.hash_fields = tuple(words[1:])
            elif words[:1] == ["dscp"]:
                facts.dscp_to_tc[int(words[1])] = int(words[3])
            elif words[:1] == ["lossless"]:
                facts.lossless_priorities = tuple(int(w) for w in words[1:])
            elif words[:1] == ["interface"]:
                port = words[1]
                facts.mtu[port] = int(words[3])
            elif words[:1] == ["pfc"]:
                facts.pfc_ports[port] = tuple(int(w) for w in words[1:])
            elif words[:1] == ["ecn"]:
                queue, low, high, prob = (int(w) for w in words[1:])
                facts.ecn.setdefault(port, {})[queue] = Ecn(low, high, prob)
            elif words[:1] == ["watchdog"]:
                facts.watchdog[port] = WatchdogFacts(int(words[1]), int(words[2]), words[3])
        return facts

    def expected(self, plan: DevicePlan) -> QosFacts:
        return facts_of(plan)

    def read_routing(self, text: str) -> RoutingFacts:
        asn, router_id, neighbors, networks = 0, "", {}, []
        for line in text.splitlines():
            words = line.split()
            if words[:1] == ["router"]:
                asn, router_id = int(words[1]), words[3]
            elif words[:1] == ["neighbor"]:
                neighbors[words[1]] = int(words[3])
            elif words[:1] == ["network"]:
                networks.append(words[1])
        return RoutingFacts(asn, router_id, neighbors, tuple(networks))


VENDOR = Acme()
