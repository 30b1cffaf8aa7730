"""What netcfg renders for NVIDIA Cumulus Linux (NVUE), with the source of each."""

from netcfg.vendors.base import Capabilities
from netcfg.vendors.cumulus.render import HASH_FIELDS

CAPABILITIES = Capabilities(
    # NVUE reference, System Forwarding: ecmp-hash fields (MAC/ethertype/VLAN are lag-hash only).
    hash_fields=frozenset(HASH_FIELDS),
    # Cumulus QoS docs, PFC watchdog: no action knob; the stormed lossless queue is dropped.
    watchdog_actions=frozenset({"drop"}),
    # Adaptive routing exists (`router adaptive-routing`) but is not flowlet/per-packet ECMP as
    # netcfg means it; only static hashing is rendered.
    ecmp_modes=frozenset({"static"}),
    # `interface <swp> qos pfc profile <p>`, each profile with its own xoff/xon/port-buffer.
    per_port_headroom=True,
    # `system forwarding hash-seed` (NVUE System-Forwarding reference)
    hash_seed="configured",
)
