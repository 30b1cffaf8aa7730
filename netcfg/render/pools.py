"""Shared buffer pool sizes of one switch, the way SONiC's buffer manager sizes them.

In SONiC's traditional buffer model the pool sizes are configuration, not derived on the
device, so netcfg writes them. The rule is the one `buffermgrd` runs on NVIDIA Spectrum
(sonic-net/sonic-swss `cfgmgr/buffer_pool_mellanox.lua`): from the ASIC's buffer take off
everything reserved (the lossless PGs' headroom, a lossy PG reserve and an egress mirror
reserve per port, the management pool, and with a shared headroom pool its size plus a small
private headroom per lossless port); what is left is the one ingress pool and the egress lossy
pool, both dynamic. The egress lossless pool spans the whole buffer, like SONiC's own.

For other ASICs SONiC takes the pool sizes from the SKU's buffer templates; netcfg then uses
the physics budget (buffer - reserved headroom - shared headroom pool) without the Spectrum
SDK reserves.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: Spectrum reserves, buffer_pool_mellanox.lua: management pool, egress mirror per admin-up
#: port, private headroom per lossless port when the shared headroom pool is on.
MGMT_POOL = 256 * 1024
EGRESS_MIRROR = 10 * 1024
PRIVATE_HEADROOM = 10 * 1024


@dataclass(frozen=True, slots=True)
class BufferPools:
    """Bytes. `shared` is the ingress (lossless and lossy) pool and the egress lossy pool."""

    total: int  # ASIC buffer, whole cells: the egress lossless pool
    shared: int
    headroom_pool: int  # shared headroom pool (ingress pool xoff), 0 = none
    reserved: int  # everything `shared` leaves out
    #: percent of `shared` in the lossless pool where the NOS splits it by percent (Cumulus
    #: traffic pools; the lossy pool has the rest), None where one pool serves both
    lossless_percent: int | None = None


@dataclass(frozen=True, slots=True)
class PortBuffer:
    """What one port reserves: its lossless PGs' headroom and its SerDes lane count."""

    headroom: int  # sum of the sizes of its lossless PGs
    lanes: int
    lossless: bool


def spectrum_pools(buffer: int, cell: int, pipeline_latency_kib: float,
                   ports: Iterable[PortBuffer], headroom_pool: int) -> BufferPools:
    """SONiC's Spectrum pool sizes for a single ingress pool (all ports admin up).

    Per port a lossy PG reserve of one pipeline latency (doubled less 1 KiB on 8-lane ports)
    and an egress mirror reserve; with a shared headroom pool a private headroom per lossless
    port. Sizes are rounded up to whole bytes as the Lua does, capped at the cell-aligned
    buffer.
    """
    ceiling = buffer // cell * cell
    lossy_pg = pipeline_latency_kib * 1024
    lossy_pg_8lanes = (2 * pipeline_latency_kib - 1) * 1024
    reserved = float(MGMT_POOL)
    lossless = 0
    for p in ports:
        reserved += p.headroom + EGRESS_MIRROR + (lossy_pg_8lanes if p.lanes == 8 else lossy_pg)
        lossless += p.lossless
    if headroom_pool:
        reserved += lossless * PRIVATE_HEADROOM + headroom_pool
    shared = min(buffer - reserved, ceiling)
    return BufferPools(total=ceiling, shared=max(0, math.ceil(shared)),
                       headroom_pool=headroom_pool, reserved=math.ceil(reserved))


def budget_pools(buffer: int, cell: int, reserved_headroom: int,
                 headroom_pool: int) -> BufferPools:
    """Pools straight from the physics budget: no SDK reserves are known for the ASIC."""
    ceiling = buffer // cell * cell
    reserved = reserved_headroom + headroom_pool
    return BufferPools(total=ceiling, shared=max(0, min(buffer - reserved, ceiling)),
                       headroom_pool=headroom_pool, reserved=reserved)
