"""Next-hop tables of the converged routing models (spec section 3): valley-free and shortest.

A table maps every device to the neighbours it forwards to for one destination. Tables are
computed on the surviving topology of a Network; hosts are endpoints and never transit.
"""

from __future__ import annotations

from collections import deque

from netcfg.routing.network import Network

INF = 1 << 30


def _down_distances(net: Network, d: int) -> list[int]:
    """Hops of the shortest down-only path from every device to `d` (INF: none)."""
    dist = [INF] * net.n
    dist[d] = 0
    queue = deque([d])
    tier = net.tier
    while queue:
        v = queue.popleft()
        for u in net.alive(v):
            if tier[u] > tier[v] and dist[u] == INF:
                dist[u] = dist[v] + 1
                queue.append(u)
    return dist


def valley_free(net: Network, d: int) -> list[list[int]]:
    """Per device, the next hops of all shortest up*down* paths to `d` ([] = unroutable)."""
    tier = net.tier
    down = _down_distances(net, d)
    vf = list(down)
    for x in sorted(range(net.n), key=lambda i: -tier[i]):
        if x == d:
            continue
        best = vf[x]
        for y in net.alive(x):
            if tier[y] > tier[x] and vf[y] + 1 < best:
                best = vf[y] + 1
        vf[x] = best
    table: list[list[int]] = [[] for _ in range(net.n)]
    for x in range(net.n):
        if x == d or vf[x] >= INF:
            continue
        hops = []
        for y in net.alive(x):
            if tier[y] > tier[x] and vf[y] + 1 == vf[x]:
                hops.append(y)
            elif tier[y] < tier[x] and down[y] + 1 == vf[x]:
                hops.append(y)
        table[x] = sorted(hops)
    return table


def shortest(net: Network, d: int) -> list[list[int]]:
    """Per device, the next hops of all hop-count-shortest paths to `d` (laterals allowed)."""
    dist = [INF] * net.n
    dist[d] = 0
    queue = deque([d])
    tier = net.tier
    while queue:
        v = queue.popleft()
        if tier[v] == 0 and v != d:
            continue  # a host is reached but never forwards
        for u in net.alive(v):
            if dist[u] == INF:
                dist[u] = dist[v] + 1
                queue.append(u)
    table: list[list[int]] = [[] for _ in range(net.n)]
    for x in range(net.n):
        if x == d or dist[x] >= INF:
            continue
        table[x] = sorted(y for y in net.alive(x)
                          if dist[y] + 1 == dist[x] and (tier[y] > 0 or y == d))
    return table
