"""Shared buffer pool sizes of one switch, from its physics budget.

The budget (netcfg/physics/budget.py) takes the buffer the NOS's pools divide and what the
NOS keeps back from its facts (`NosFacts.pool_layout`, netcfg/nos: on SONiC the SKU's buffer and,
on Spectrum, the reserves of SONiC's own pool rule, `cfgmgr/buffer_pool_mellanox.lua`).
"""

from __future__ import annotations

from dataclasses import dataclass

from netcfg.physics.budget import Budget


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


def budget_pools(budget: Budget) -> BufferPools:
    """Pools straight from the physics budget: what the lossless PGs' headroom, the shared
    headroom pool and the NOS's own reserves leave, within the cell-aligned buffer."""
    ceiling = budget.buffer // budget.cell * budget.cell
    reserved = budget.reserved + budget.shp_pool + budget.nos_reserved
    return BufferPools(total=ceiling, shared=max(0, min(budget.buffer - reserved, ceiling)),
                       headroom_pool=budget.shp_pool, reserved=reserved,
                       lossless_percent=budget.lossless_pool if budget.lossless_pool < 100
                       else None)
