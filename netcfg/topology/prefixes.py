"""IPv4 prefixes in integer arithmetic: the networks of interface addresses and the fewest
CIDR blocks holding exactly them (what ipaddress.collapse_addresses gives), as text.

A 32,768-GPU fabric has about 100,000 server subnets on 2,560 leaves; building ipaddress
objects for them cost more than the rest of a leaf's plan, so the one collapse netcfg uses
(plans, capability checks, lint, explain) works on (network, prefix length) integers.
"""

from __future__ import annotations

from collections.abc import Iterable


def dotted(n: int) -> str:
    """Dotted quad of an IPv4 address kept as an int."""
    return f"{n >> 24}.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


def subnets_and_blocks(addresses: Iterable[str]) -> tuple[list[str], list[str]]:
    """The networks of interface addresses ("a.b.c.d/len"), distinct and in address order,
    and the fewest CIDR blocks holding exactly them (ipaddress.collapse_addresses)."""
    nets: set[tuple[int, int]] = set()
    for ip in addresses:
        addr, _, length = ip.partition("/")
        a, b, c, d = (int(x) for x in addr.split("."))
        bits = int(length) if length else 32
        mask = (0xFFFFFFFF << (32 - bits)) & 0xFFFFFFFF
        nets.add((((a << 24) | (b << 16) | (c << 8) | d) & mask, bits))
    return collapse(nets)


def collapse(nets: set[tuple[int, int]]) -> tuple[list[str], list[str]]:
    """(network, prefix length) pairs as text in address order, and as the fewest blocks."""
    ordered = sorted(nets)
    subnets = [f"{dotted(n)}/{bits}" for n, bits in ordered]
    blocks: list[str] = []
    start = end = -1  # merge the ranges, then cut each into aligned blocks, largest first
    for n, bits in ordered:
        last = n + (1 << (32 - bits)) - 1
        if start >= 0 and n <= end + 1:
            end = max(end, last)
            continue
        if start >= 0:
            blocks += cidrs(start, end)
        start, end = n, last
    if start >= 0:
        blocks += cidrs(start, end)
    return subnets, blocks


def cidrs(first: int, last: int) -> list[str]:
    """The CIDR blocks covering exactly first..last (ipaddress.summarize_address_range)."""
    out = []
    while first <= last:
        size = (first & -first).bit_length() - 1 if first else 32
        while size and first + (1 << size) - 1 > last:
            size -= 1
        out.append(f"{dotted(first)}/{32 - size}")
        first += 1 << size
    return out
