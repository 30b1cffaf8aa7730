"""What netcfg renders for FRR (frr.conf of FRR 8.4 and later): routing only.

FRR is the routing suite of a white-box switch or a host; QoS, PFC, buffers and ECMP hashing
of the box are configured outside frr.conf (the NOS, or `dcb`/`tc`/sysctl on Linux), so the
capability table is irrelevant to them and CAP012 says so instead (`routing_only`). Every line
of templates/frr/frr.conf.j2 is checked by FRR's own parser (`vtysh -C`) in the tests and run
by the twin.
"""

from netcfg.nos import Capabilities

CAPABILITIES = Capabilities(
    hash_fields=frozenset(), watchdog_actions=frozenset(), ecmp_modes=frozenset(),
    per_port_headroom=False, hash_seed="unsupported", routing_only=True,
    # the host's or white box's management network is its OS's, not frr.conf's
    management_route=False,
    management_route_note="the management network of a white box or host is its operating "
                          "system's, not frr.conf's")
