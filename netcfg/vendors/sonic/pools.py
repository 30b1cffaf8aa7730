"""SONiC's Spectrum pool rule (sonic-swss `cfgmgr/buffer_pool_mellanox.lua`): what a SONiC
switch keeps back from its buffer before the pools. It is part of how SONiC carves a buffer
(facts.py), so it sits with SONiC's facts, apart from the headroom physics."""

from __future__ import annotations

#: buffer_pool_mellanox.lua's other reserves: the management pool, an egress mirror headroom
#: per admin-up port, a private headroom per lossless port when the shared headroom pool is on
MGMT_POOL = 256 * 1024
EGRESS_MIRROR = 10 * 1024
PRIVATE_HEADROOM = 10 * 1024


def pool_reserves(pipeline_latency_kib: float, port_lanes: list[int], lossy_pgs: int,
                  egress_reserve: int, lossless_ports: int, shared_headroom_pool: bool) -> int:
    """What SONiC's Spectrum pool rule (`cfgmgr/buffer_pool_mellanox.lua`) takes off the
    buffer before the pools, beyond the lossless PGs' own sizes and the shared headroom pool.

    Per admin-up port: a management PG and each lossy PG (`lossy_pgs`) implicitly reserve one
    pipeline latency, (2 · latency − 1) KiB on an 8-lane port; the egress profile list's sizes
    (`egress_reserve`, 9216 for SONiC's egress_lossy_profile) and an egress mirror headroom.
    Once: the management pool. With a shared headroom pool, a private headroom per lossless
    port.
    """
    lossy_pg = int(pipeline_latency_kib * 1024)
    lossy_pg_8lanes = int((2 * pipeline_latency_kib - 1) * 1024)
    total = MGMT_POOL
    for lanes in port_lanes:
        pg = lossy_pg_8lanes if lanes == 8 else lossy_pg
        total += (1 + lossy_pgs) * pg + egress_reserve + EGRESS_MIRROR
    if shared_headroom_pool:
        total += lossless_ports * PRIVATE_HEADROOM
    return total
