"""SONiC routing facts: CONFIG_DB as SONiC's own BGP templates and bgpcfgd turn it into FRR.

bgpd.main.conf.j2 (docker-fpm-frr, `docker_routing_config_mode` separated) sets the router-id
to Loopback0's IPv4 address and announces Loopback0 and every VLAN_INTERFACE prefix; bgpcfgd
(managers_static_rt.py) announces each STATIC_ROUTE unless `advertise` is "false"; neighbours
come from BGP_NEIGHBOR and re-advertise everything (route-map TO_BGP_PEER_V4 permits);
maximum-paths comes from constants.yml (not CONFIG_DB: None here). A neighbour's BGP timers
are its entry's `keepalive` and `holdtime`, 60 and 180 where it has none
(bgpd/templates/general/instance.conf.j2 writes `neighbor X timers` only for other values,
with those defaults; FRR's traditional profile, which SONiC runs, has the same:
docs/lab-sonic.md, "FRR"). Sources: ../shared/sonic-skus/FACTS.md section 4 and
docs/render-sonic.md.
"""

from __future__ import annotations

import ipaddress
import json

from netcfg.render.routing_facts import RoutingFacts


def read(text: str) -> RoutingFacts:
    db = json.loads(text)
    meta = db.get("DEVICE_METADATA", {}).get("localhost", {})
    originated: list[str] = []
    router_id = ""
    for key in db.get("LOOPBACK_INTERFACE", {}):
        name, _, prefix = key.partition("|")
        if name == "Loopback0" and prefix and ipaddress.ip_interface(prefix).version == 4:
            ip = ipaddress.IPv4Interface(prefix).ip
            router_id = str(ip)
            originated.append(f"{ip}/32")
    for key in db.get("VLAN_INTERFACE", {}):
        _, _, prefix = key.partition("|")
        if prefix and ipaddress.ip_interface(prefix).version == 4:
            originated.append(str(ipaddress.IPv4Interface(prefix).network))
    for key, entry in db.get("STATIC_ROUTE", {}).items():
        vrf, _, prefix = key.rpartition("|")
        if vrf in ("", "default") and (entry or {}).get("advertise") != "false":
            originated.append(prefix)
    neighbors, timers = {}, {}
    for key, entry in db.get("BGP_NEIGHBOR", {}).items():
        vrf, _, addr = key.rpartition("|")
        if vrf in ("", "default") and "asn" in entry:
            neighbors[addr] = int(entry["asn"])
            timers[addr] = (int(entry.get("keepalive", 60)), int(entry.get("holdtime", 180)))
    return RoutingFacts(asn=int(meta.get("bgp_asn", 0)), router_id=router_id,
                        neighbors=neighbors, originated=tuple(originated), maximum_paths=None,
                        transit=True, timers=timers)
