#!/usr/bin/env python3
"""Per EOS switch of gpu2048: netcfg from intent to config against Arista's pyavd from
structured config to config, measured in one run (both under the same machine load).

netcfg's side is the whole way: `api.load` (read, validate, expand, physics) plus
`api.configs` (plans, templates, every file), divided by the number of switches. pyavd's side
is only its last step, `pyavd.get_device_config` (eos_cli_config_gen, without eos_designs),
given the structured config of one leaf that states what netcfg's file for that leaf states
(its interfaces with PFC, watchdog and ECN queues, BGP sessions and networks, QoS map,
management plane), each taken from netcfg's own plan of that leaf. The ratio is pyavd's
median over netcfg's, in CPU time (the time each process computed, which other jobs on a
shared machine change far less than the wall time) and in wall time.

pyavd comes from PyPI into a virtual environment of this benchmark's own (created at first
use under the temporary directory, never in the project's environment):

    python benchmarks/bench_render_pyavd.py [--repeat N] [--venv DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

PYAVD = "pyavd==6.4.0"
INVENTORY = ROOT / "inventories" / "gpu2048"
LEAF = "leaf-su1-r1"

#: run in pyavd's environment: time get_device_config on the structured config, print JSON
AVD_TIMER = """
import json, statistics, sys, time
from pyavd import get_device_config, validate_structured_config
sc = json.load(open(sys.argv[1]))
errors = [f"{'.'.join(map(str, v.path))}: {v.message}"
          for v in validate_structured_config(sc).validation_result.violations]
get_device_config(sc)  # templates loaded once, as netcfg's are by its first render
runs, cpu = [], []
for _ in range(int(sys.argv[2])):
    t, c = time.perf_counter(), time.process_time()
    text = get_device_config(sc)
    runs.append(time.perf_counter() - t)
    cpu.append(time.process_time() - c)
print(json.dumps({"runs": runs, "cpu": cpu, "lines": len(text.splitlines()),
                  "errors": errors}))
"""


def pyavd_python(venv: Path) -> Path:
    """The benchmark's own environment with pyavd, created on first use."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    check = subprocess.run([str(python), "-c", "import pyavd"], capture_output=True)
    if check.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q",
                        "--disable-pip-version-check", PYAVD], check=True)
    return python


def structured_config(plan: Any, eos: Any) -> dict[str, Any]:
    """AVD's structured config (eos_cli_config_gen schema) of what netcfg's file states."""
    def queue(q: Any) -> dict[str, Any]:
        """A port's queue: ECN marking (AVD states scheduling in a QoS profile)."""
        out: dict[str, Any] = {"id": q.number}
        if q.ecn is not None:
            out["random_detect"] = {"ecn": {"threshold": {
                "units": "bytes", "min": q.ecn.min_bytes, "max": q.ecn.max_bytes,
                "max_probability": q.ecn.probability}}}
        return out

    def scheduling(q: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"id": q.number,
                               "priority": "priority strict" if q.strict else "no priority"}
        if not q.strict:
            out["bandwidth_percent"] = q.bandwidth_percent
        return out

    interfaces = []
    for i in eos.interfaces:
        port_qos = eos.port_qos[i.qos]
        entry: dict[str, Any] = {
            "name": i.name, "description": i.description, "speed": i.speed, "mtu": i.ip_mtu,
            "switchport": {"enabled": False}, "ip_address": i.address,
            "qos": {"trust": "dscp"}, "service_profile": "NETCFG",
            "uc_tx_queues": [queue(q) for q in port_qos.queues]}
        if port_qos.pfc_priorities:
            entry["priority_flow_control"] = {
                "enabled": True,
                "priorities": [{"priority": p, "no_drop": True}
                               for p in port_qos.pfc_priorities]}
        interfaces.append(entry)
    gateway = plan.management_gateway
    bgp = plan.bgp
    return {
        "hostname": plan.hostname,
        "service_routing_protocols_model": "multi-agent",
        "vrfs": [{"name": "MGMT", "ip_routing": False}],
        "static_routes": [{"vrf": "MGMT", "prefix": "0.0.0.0/0", "next_hop": gateway}]
        if gateway else [],
        "ntp": {"local_interface": {"name": "Management1", "vrf": "MGMT"}, "vrf": "MGMT",
                "servers": [{"name": s} for s in plan.ntp_servers]},
        "ip_name_server": {"vrfs": [{"name": "MGMT", "servers": [
            {"ip_address": s} for s in plan.dns_servers]}]},
        "logging": {"trap": eos.syslog_trap,
                    "vrfs": [{"name": "MGMT", "hosts": [{"name": s}
                                                        for s in plan.syslog_servers]}]},
        "snmp_server": {"contact": plan.snmp.contact, "location": plan.snmp.location,
                        "vrfs": [{"name": "MGMT", "enable": True}]} if plan.snmp else {},
        "management_api_gnmi": {"transport": {"grpc": [{"name": "default", "vrf": "MGMT"}]}},
        "management_api_http": {"enable_https": True,
                                "enable_vrfs": [{"name": "MGMT"}]},
        "ethernet_interfaces": interfaces,
        "loopback_interfaces": [{"name": "Loopback0", "ip_address": plan.loopback}],
        "management_interfaces": [{"name": "Management1", "vrf": "MGMT",
                                   "ip_address": plan.management}],
        "lldp": {"run": plan.lldp},
        "qos_profiles": [{"name": "NETCFG", "trust": "dscp", "uc_tx_queues": [
            scheduling(q) for q in eos.port_qos[0].queues]}] if eos.port_qos else [],
        "qos": {"map": {"dscp": [
            f"{' '.join(str(d) for d in ds)} to traffic-class {tc}"
            for tc, ds in eos.dscp_to_tc]}},
        "priority_flow_control": {"watchdog": {
            "action": eos.watchdog.action or "drop",
            "timeout": float(eos.watchdog.timeout),
            "polling_interval": float(eos.watchdog.polling),
            "recovery_time": float(eos.watchdog.recovery)}},
        "router_bgp": {
            "as": str(bgp.asn), "router_id": bgp.router_id,
            "maximum_paths": {"paths": bgp.maximum_paths},
            "bgp_defaults": ["bgp bestpath as-path multipath-relax"]
            if bgp.multipath_relax else [],
            "updates": {"wait_install": True},
            "peer_groups": [{"name": g.name, "maximum_routes": eos.maximum_routes,
                             "bfd": g.bfd is not None} for g in bgp.groups],
            "neighbors": [{"ip_address": n.address, "peer_group": n.group,
                           "remote_as": str(n.remote_as), "description": n.description}
                          for n in bgp.neighbors],
            "address_family_ipv4": {"networks": [{"prefix": p} for p in bgp.networks]}},
    }


def netcfg_per_switch(repeat: int) -> tuple[list[float], list[float], int, int, Any, Any]:
    """Wall and CPU seconds per switch of each run (load + configs), the switch count, the
    leaf's lines, and the leaf's plan and EOS values for the structured config."""
    from netcfg import api
    from netcfg.vendors.eos.render import build

    api.configs(api.load(INVENTORY))  # templates compiled once, as pyavd's are
    runs, cpu, switches, files = [], [], 0, {}
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fabric = api.load(INVENTORY)
        files = api.configs(fabric)
        elapsed, used = time.perf_counter() - t, time.process_time() - c
        switches = len(api.device_names(fabric))
        runs.append(elapsed / switches)
        cpu.append(used / switches)
    fabric = api.load(INVENTORY)
    plan = api.device_plan(fabric, LEAF)
    return runs, cpu, switches, len(files[f"{LEAF}.cfg"].splitlines()), plan, build(plan)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--venv", type=Path,
                    default=Path(tempfile.gettempdir()) / "netcfg-bench-pyavd")
    args = ap.parse_args()
    python = pyavd_python(args.venv)
    runs, cpu, switches, lines, plan, eos = netcfg_per_switch(args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        sc = Path(tmp) / "structured.json"
        sc.write_text(json.dumps(structured_config(plan, eos)))
        avd = json.loads(subprocess.run([str(python), "-c", AVD_TIMER, str(sc),
                                         str(args.repeat)], capture_output=True, text=True,
                                        check=True).stdout)
    if avd["errors"]:
        print(f"pyavd schema errors in the structured config: {avd['errors'][:3]}")
    ours, theirs = statistics.median(runs), statistics.median(avd["runs"])
    ours_cpu, theirs_cpu = statistics.median(cpu), statistics.median(avd["cpu"])
    print(f"netcfg intent -> config, gpu2048 ({switches} switches): "
          f"{ours * 1e3:.2f} ms per switch wall, {ours_cpu * 1e3:.2f} ms CPU (medians of "
          f"{len(runs)}; best wall {min(runs) * 1e3:.2f}); {LEAF}: {lines} lines")
    print(f"pyavd get_device_config, {LEAF}: {theirs * 1e3:.1f} ms wall, "
          f"{theirs_cpu * 1e3:.1f} ms CPU (medians of {len(avd['runs'])}; best wall "
          f"{min(avd['runs']) * 1e3:.1f}); {avd['lines']} lines")
    # CPU time: what each side computes, less the share of the cores other processes took
    print(f"ratio pyavd / netcfg: {theirs_cpu / ours_cpu:.0f}x CPU, {theirs / ours:.0f}x wall "
          f"(target 100x)")


if __name__ == "__main__":
    main()
