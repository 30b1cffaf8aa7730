"""Which prefixes each router's BGP table holds, read without re-reading whole tables.

The twin asks this of every switch whenever its BGP state moves, while the fabric converges
and after every cable cut. The whole table (`show ip bgp json`) of a leaf of `gpu2048` is
19 MB (2,144 prefixes x 32 paths): about 0.5 s to produce and parse, 35 s for the 64 leaves,
longer than the 30 s a cut is given to reconverge. Most of that is paths whose prefixes the
twin already knows about.

FRR numbers its table: every time a prefix's best path changes, appears or goes (bgpd's
`bgp_process_main_one`, `bgp_bump_version`), the prefix takes the table's next version, and
`show ip bgp version N json` lists only the prefixes at version N or later that still have
paths. A router's held set is therefore the last read plus what that command lists past it;
what it cannot list is a prefix whose last path went. `show bgp ipv4 unicast statistics
json` counts the prefixes that have paths (`totalPrefixes`), so a held set larger than that
count holds a prefix that is gone, and the whole table is read again. The count is read
before the listing, and the listing's `tableVersion` must equal the one the caller saw in
the summary before both: nothing was processed in between, so count and listing describe
the same table. A path bgpd has received but not yet processed is counted before its prefix
takes a version, so a table still taking routes reads as a mismatch (a whole read, never a
wrong answer): the twin asks once a switch's BGP state has stood still for a second.

Left out on purpose: a prefix that appears with only invalid paths (no best path, no new
version) while another disappears would leave the count unchanged; in the twin every next
hop is a directly connected neighbour, and reachability is proven by pings, not by this.
An FRR without the `version` filter refuses it: then every look is a whole read, as before.
"""

from __future__ import annotations

import json

from netcfg.twin.network import Router, Twin


class HeldPrefixes:
    """Per router, the prefixes its BGP table holds, kept up to date from the table's
    versions (one instance per twin, so that every convergence wait reuses the reads)."""

    def __init__(self, twin: Twin) -> None:
        self.twin = twin
        self._held: dict[str, set[str]] = {}
        self._read_to: dict[str, int] = {}
        #: whole-table reads made (for tests and figures)
        self.whole_reads = 0

    def of(self, router: Router, table_version: int) -> set[str] | None:
        """The prefixes `router` holds, or None when its table moved on from
        `table_version` (the summary's, asked just before) while it was being read."""
        count = _total_prefixes(self.twin.show(router, "bgpd",
                                               "show bgp ipv4 unicast statistics json"))
        start = self._read_to.get(router.name, 0) + 1
        listing = _json(self.twin.show(router, "bgpd", f"show ip bgp version {start} json"))
        if "tableVersion" not in listing:  # refused: this bgpd has no `version` filter
            return self._whole(router, table_version)
        if listing["tableVersion"] != table_version:
            return None
        held = self._held.setdefault(router.name, set())
        held.update(listing.get("routes", {}))
        if len(held) != count:
            return self._whole(router, table_version)
        self._read_to[router.name] = table_version
        return held

    def _whole(self, router: Router, table_version: int) -> set[str] | None:
        """The whole table read again (one answer: one table, at its own version)."""
        self.whole_reads += 1
        whole = _json(self.twin.show(router, "bgpd", "show ip bgp json"))
        held = self._held[router.name] = set(whole.get("routes", {}))
        version = whole.get("tableVersion")
        self._read_to[router.name] = version if isinstance(version, int) else 0
        return held if version == table_version else None


def _json(text: str) -> dict:
    try:
        out = json.loads(text or "{}")
    except json.JSONDecodeError:
        return {}
    return out if isinstance(out, dict) else {}


def _total_prefixes(text: str) -> int | None:
    """`totalPrefixes` of the IPv4 unicast table (FRR's `bgp_table_stats`: prefixes with at
    least one path), None when the answer has none."""
    tables = _json(text).get("ipv4Unicast") or [{}]
    total = tables[0].get("totalPrefixes") if isinstance(tables, list) else None
    return total if isinstance(total, int) else None
