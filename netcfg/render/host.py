"""Host NIC side: the settings that must match the switches, per NIC profile.

For every NIC model in the fabric, `hosts/<nic>.json` (machine-readable) and `hosts/<nic>.sh`
(apply with NVIDIA's `mlnx_qos` and the mlx5 ECN sysfs tree) carry DSCP trust, the DSCP ->
priority map, PFC priorities, ECN (DCQCN) enable per priority, CNP DSCP/priority and every
DCQCN parameter under the firmware's own name. All values come from the same intent as the
switch configs, so switch and NIC agree by construction (rules DCQ001-DCQ005 check the rest).
"""

from __future__ import annotations

import json

from netcfg.topology import effective
from netcfg.topology.fabric import Fabric

SYSFS = "/sys/class/net/$IF/ecn"


def profile(fabric: Fabric, nic: str) -> dict:
    intent = fabric.loaded.intent
    qos, dc = intent.qos, intent.dcqcn
    marking = effective.cnp_marking(intent)
    hosts = sorted(h.name for h in fabric.hosts() if h.platform == nic)
    ports = sorted({p.name for h in fabric.hosts() if h.platform == nic for p in h.ports})
    # All 64 code points, like the switches: the NIC's own default map (DSCP >> 3) would put
    # e.g. DSCP 24-31 on the RoCE priority.
    dscp_to_prio = {d: qos.classes[qos.default_class].traffic_class for d in range(64)}
    dscp_to_prio.update({d: c.traffic_class for c in qos.classes.values() for d in c.dscp})
    roce = qos.classes[qos.roce_class]
    ecn_prios = sorted({c.traffic_class for n, c in qos.classes.items() if qos.ecn_of(n).enabled})
    return {
        "nic": nic,
        "model": fabric.catalog.nics[nic].model,
        "trust": "dscp",
        "dscp_to_priority": {str(d): p for d, p in sorted(dscp_to_prio.items())},
        "pfc_priorities": qos.pfc_priorities(),
        "roce": {"dscp": roce.dscp[0] if roce.dscp else None, "priority": roce.traffic_class},
        "cnp": {"dscp": marking["cnp_dscp"][0], "priority": marking["cnp_802p_prio"][0]},
        "dcqcn": {
            "enabled": dc.enabled,
            "priorities": ecn_prios if dc.enabled else [],
            "roce_rp": dc.rp.model_dump(),
            "roce_np": {"min_time_between_cnps": dc.np.min_time_between_cnps,
                        "cnp_dscp": marking["cnp_dscp"][0],
                        "cnp_802p_prio": marking["cnp_802p_prio"][0]},
        },
        "interfaces": ports,
        "hosts": hosts,
    }


def script(p: dict) -> str:
    """A POSIX shell script applying profile `p` to the interfaces given as arguments."""
    pfc = ",".join("1" if i in p["pfc_priorities"] else "0" for i in range(8))
    lines = [
        "#!/bin/sh",
        f"# NIC settings for {p['model']} ({p['nic']}), rendered by netcfg from the fabric intent.",
        "# Usage: sh this-file [INTERFACE ...]   (default: the interfaces listed below)",
        "# Needs NVIDIA's mlnx_qos and the mlx5 ECN sysfs tree (MLNX_OFED/DOCA).",
        "set -eu",
        f"[ $# -gt 0 ] || set -- {' '.join(p['interfaces'])}",
        'for IF in "$@"; do',
        '  mlnx_qos -i "$IF" --trust dscp',
    ]
    for dscp, prio in p["dscp_to_priority"].items():
        lines.append(f'  mlnx_qos -i "$IF" --dscp2prio set,{int(dscp)},{int(prio)}')
    lines.append(f'  mlnx_qos -i "$IF" --pfc {pfc}')
    dc = p["dcqcn"]
    for prio in range(8):
        on = 1 if prio in dc["priorities"] else 0
        lines.append(f'  echo {on} > "{SYSFS}/roce_rp/enable/{prio}"')
        lines.append(f'  echo {on} > "{SYSFS}/roce_np/enable/{prio}"')
    if dc["enabled"]:
        for name, value in dc["roce_rp"].items():
            lines.append(f'  echo {int(value)} > "{SYSFS}/roce_rp/params/{name}"')
        for name, value in dc["roce_np"].items():
            lines.append(f'  echo {int(value)} > "{SYSFS}/roce_np/params/{name}"')
    lines += ["done", ""]
    return "\n".join(lines)


def render_hosts(fabric: Fabric) -> dict[str, str]:
    out: dict[str, str] = {}
    for nic in sorted({h.platform for h in fabric.hosts() if h.platform}):
        p = profile(fabric, nic)
        out[f"hosts/{nic}.json"] = json.dumps(p, indent=2) + "\n"
        out[f"hosts/{nic}.sh"] = script(p)
    return out
