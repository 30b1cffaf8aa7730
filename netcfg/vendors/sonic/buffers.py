"""SONiC buffer tables as each SKU's own templates lay them out, with netcfg's headroom.

A SKU's `buffers.json.j2` (through sonic-buildimage `files/build_templates/buffers_config.j2`
and the SKU's `buffers_defaults_<topo>.j2`) decides which pools exist, the lossy and lossless
profiles, each port's profile lists, the lossy PG and the queue profiles. netcfg keeps that
layout as data (`buffers/<platform>.json`, one per SKU and topology), imported by running
SONiC's own templates with Jinja2 (`python -m netcfg.vendors.sonic.buffers DEVICE_ROOT`) and
compared with them by the tests. What netcfg changes: the lossless PG profiles (its physics),
the cable lengths, which queues are lossless (the intent's PFC priorities) and, on Spectrum,
the pool sizes (SONiC's Spectrum pool rule applied to netcfg's headroom, pools.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from netcfg.nos import PoolLayout, Switch
from netcfg.vendors.sonic import ports
from netcfg.vendors.sonic.pools import pool_reserves

#: DEVICE_METADATA type -> the buffer defaults file buffers_config.j2 picks. No SKU here has a
#: t2 file (SpineRouter): netcfg lays a core out like a T1 (docs/render-sonic.md).
TOPOLOGY: dict[str, str] = {"ToRRouter": "t0", "LeafRouter": "t1", "SpineRouter": "t1"}
TOPOLOGIES = ("t0", "t1")
#: the queues SONiC's templates give a buffer profile (queue 7 has none in any SKU here)
PROFILED_QUEUES = range(7)


@dataclass(frozen=True, slots=True)
class Layout:
    """One SKU's buffer layout for one topology, as its templates render it for a port."""

    sku: str
    topology: str
    #: BUFFER_POOL as the template writes it (sizes included)
    pools: dict[str, dict[str, str]]
    #: BUFFER_PROFILE of the template (lossy and lossless queue/port profiles)
    profiles: dict[str, dict[str, str]]
    #: BUFFER_PORT_INGRESS/EGRESS_PROFILE_LIST profile_list of a port ("" where none)
    ingress_list: str
    egress_list: str
    #: BUFFER_PG of a port: PG range -> profile (the lossy PG; the lossless ones are netcfg's)
    pgs: dict[str, str]
    #: the profile of a lossless queue and of a lossy queue
    lossless_queue: str
    lossy_queue: str
    #: the SKU whose tables these are, where the SKU's own templates render none
    borrowed_from: str | None = None
    #: the SKU's pg_profile_lookup.ini: speed -> cable -> {size, xon, xoff, threshold[,
    #: xon_offset]} (what traditional buffermgrd creates lossless profiles from)
    pg_lookup: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)

    @property
    def ingress_pools(self) -> list[str]:
        return sorted(n for n, p in self.pools.items() if p.get("type") == "ingress")

    @property
    def mmu(self) -> int:
        """The buffer SONiC sizes pools against: the egress lossless pool (buffermgrd's
        fallback mmu_size, cfgmgr/buffer_pool_mellanox.lua)."""
        return int(self.pools["egress_lossless_pool"]["size"])

    def egress_list_reserve(self) -> int:
        """Bytes the egress profile list reserves per port (the profiles' sizes)."""
        return sum(int(self.profiles[p].get("size", "0"))
                   for p in self.egress_list.split(",") if p)


@cache
def _data(platform: str) -> dict[str, Any] | None:
    path = resources.files("netcfg.vendors.sonic") / "buffers" / f"{platform}.json"
    if not path.is_file():
        return None
    return json.loads(path.read_text())


@cache
def layout(platform: str, speed: int, device_type: str) -> Layout:
    """The buffer layout of the SKU whose ports run at `speed`, for the device type. A SKU
    whose templates render no buffer tables (Arista-7060X6-64PE) takes the tables of the
    platform's first SKU that has them, on the same ASIC."""
    data = _data(platform)
    table = ports.table(platform)
    if data is None or table is None:
        raise ValueError(f"no SONiC buffer layout for platform {platform}")
    topology = TOPOLOGY[device_type]
    sku = table.skus.get(speed) or table.skus[max(table.skus)]
    own = data["skus"][sku][topology]
    lookup = data.get("pg_lookup", {}).get(sku, {})
    if own is not None:
        return Layout(sku=sku, topology=topology, pg_lookup=lookup, **own)
    # the sibling SKU with the largest buffer (the same ASIC, so the same buffer to share)
    others = [(int(v[topology]["pools"]["egress_lossless_pool"]["size"]), k)
              for k, v in data["skus"].items() if v[topology] is not None]
    if not others:
        raise ValueError(f"{platform}: no SKU renders buffer tables for {topology}")
    other = max(others)[1]
    return Layout(sku=sku, topology=topology, borrowed_from=other, pg_lookup=lookup,
                  **data["skus"][other][topology])


#: mellanox_buffer_migrator.py `dynamic_model_skus` (sonic-utilities): the `Mellanox-` SKUs
#: db_migrator leaves in the dynamic model
DYNAMIC_SKUS = frozenset({"Mellanox-SN5600-O128"})


def buffer_model(platform: str, sku: str) -> str:
    """The buffer model a box of this SKU runs from its first boot: `dynamic` on Mellanox
    builds (platform/mellanox/rules.mk SONIC_BUFFER_MODEL=dynamic), except `Mellanox-` SKUs
    outside db_migrator's dynamic list; `traditional` elsewhere (../shared/factory/DEFAULTS.md)."""
    if asic_type(platform) != "mellanox":
        return "traditional"
    return "traditional" if sku.startswith("Mellanox-") and sku not in DYNAMIC_SKUS \
        else "dynamic"


def lookup_row(lay: Layout, speed: int, cable_length: str) -> dict[str, str] | None:
    """The SKU's pg_profile_lookup.ini row for (speed, cable), else its row at that speed for
    the shortest listed cable that is not shorter (more headroom, the safe side); None where
    the SKU lists none that long."""
    rows = lay.pg_lookup.get(str(speed), {})
    if cable_length in rows:
        return rows[cable_length]
    metres = int(cable_length.rstrip("m"))
    longer = sorted((int(c.rstrip("m")), c) for c in rows if int(c.rstrip("m")) >= metres)
    return rows[longer[0][1]] if longer else None


def asic_type(platform: str) -> str:
    """The platform's `platform_asic` (`mellanox`, `broadcom`): SONiC's templates branch on it."""
    data = _data(platform)
    if data is None:
        raise ValueError(f"no SONiC buffer layout for platform {platform}")
    return str(data["asic"])


def main_speed(speeds: list[int]) -> int:
    """The speed most ports run at (the faster on a tie): it names the device's SKU."""
    counts: dict[int, int] = {}
    for s in speeds:
        counts[s] = counts.get(s, 0) + 1
    return max(counts, key=lambda s: (counts[s], s)) if counts else 0


def pool_layout(switch: Switch, device_type: str) -> PoolLayout:
    """The buffer a SONiC switch's pools divide (its SKU's egress lossless pool, which
    buffermgrd also takes as the buffer size) and, on Spectrum, SONiC's reserves
    (`cfgmgr/buffer_pool_mellanox.lua`) for the ports netcfg brings up. Lossless traffic has an
    ingress pool of its own where the SKU's layout has two."""
    lay = layout(switch.platform, main_speed([speed for speed, _ in switch.ports]), device_type)
    source = (f"egress_lossless_pool of SKU {lay.borrowed_from or lay.sku} "
              f"(sonic-buildimage buffers_defaults_{lay.topology}.j2)")
    if switch.pipeline_latency_kib is None:
        return PoolLayout(lay.mmu, source=source)
    lossy_pgs = sum(_count(r) for r in lay.pgs)
    reserved = pool_reserves(
        switch.pipeline_latency_kib, [lanes for _, lanes in switch.ports], lossy_pgs,
        lay.egress_list_reserve(), switch.lossless_ports, switch.shared_headroom_pool)
    return PoolLayout(lay.mmu, reserved, lossless_pool=len(lay.ingress_pools) > 1,
                      source=source, reserves_source=(
                          "per port: management and lossy PGs, egress profile list, mirror "
                          "headroom; 256 KiB management pool (sonic-swss "
                          "cfgmgr/buffer_pool_mellanox.lua)"))


def _count(id_range: str) -> int:
    first, _, last = id_range.partition("-")
    return int(last or first) - int(first) + 1


def ranges(ids: list[int]) -> list[str]:
    """Consecutive ids as SONiC writes BUFFER_PG/BUFFER_QUEUE keys: "3", "0-2", "5-6"."""
    out: list[str] = []
    start = prev = None
    for i in sorted(ids):
        if prev is not None and i == prev + 1:
            prev = i
            continue
        if start is not None:
            out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = i
    if start is not None:
        out.append(str(start) if start == prev else f"{start}-{prev}")
    return out


# --------------------------------------------------------------------------- import


def render_sku(root: Path, directory: str, sku: str, device_type: str,
               port_rows: dict[str, dict[str, str]],
               template: str = "buffers.json.j2") -> dict[str, Any]:
    """CONFIG_DB tables SONiC's own templates write for a SKU (`buffers.json.j2`, or
    `buffers_dynamic.json.j2` for the dynamic model), with the given PORT table, as
    sonic-cfggen renders them (template search path: the SKU folder, then
    files/build_templates)."""
    import jinja2

    loader = jinja2.FileSystemLoader([str(root / "device" / directory / sku),
                                      str(root / "files" / "build_templates")])
    env = jinja2.Environment(loader=loader, extensions=["jinja2.ext.do"])
    text = env.get_template(template).render(
        DEVICE_METADATA={"localhost": {"type": device_type, "hwsku": sku,
                                       "platform": directory.split("/")[1]}},
        PORT=port_rows)
    return json.loads(text)


def _layout_of(tables: dict[str, Any], port: str) -> dict[str, Any] | None:
    if not tables.get("BUFFER_POOL"):
        return None
    queues = {k.split("|")[1]: v["profile"] for k, v in tables["BUFFER_QUEUE"].items()
              if k.split("|")[0] == port}
    lossless = next(p for r, p in queues.items() if "3" in r.split("-"))
    lossy = next(p for r, p in queues.items() if r.startswith("0"))
    return {
        "pools": tables["BUFFER_POOL"], "profiles": tables["BUFFER_PROFILE"],
        "ingress_list": tables.get("BUFFER_PORT_INGRESS_PROFILE_LIST", {}).get(
            port, {}).get("profile_list", ""),
        "egress_list": tables.get("BUFFER_PORT_EGRESS_PROFILE_LIST", {}).get(
            port, {}).get("profile_list", ""),
        "pgs": {k.split("|")[1]: v["profile"] for k, v in tables["BUFFER_PG"].items()
                if k.split("|")[0] == port},
        "lossless_queue": lossless, "lossy_queue": lossy}


def read_pg_lookup(path: Path) -> dict[str, dict[str, dict[str, str]]]:
    """pg_profile_lookup.ini as speed -> cable -> row (`#` lines skipped; columns speed cable
    size xon xoff threshold [xon_offset], as sonic-swss buffermgr.cpp reads them)."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    if not path.is_file():
        return out
    for line in path.read_text().splitlines():
        words = line.split()
        if not words or words[0].startswith("#") or len(words) < 6:
            continue
        row = dict(zip(("size", "xon", "xoff", "threshold", "xon_offset"), words[2:7]))
        out.setdefault(words[0], {})[words[1]] = row
    return out


def import_platform(platform: str, root: Path) -> dict[str, Any]:
    """The layout data of `platform` from a sonic-buildimage checkout (device/ and
    files/build_templates/)."""
    directory, skus = ports.PLATFORMS[platform]
    out: dict[str, Any] = {}
    for speed, sku in sorted(skus.items()):
        rows = ports.read_port_config(root / "device" / directory / sku / "port_config.ini")
        first = rows[0]["name"]
        port_rows = {first: {"speed": str(speed), "admin_status": "up",
                             "lanes": rows[0]["lanes"]}}
        kind = {"t0": "ToRRouter", "t1": "LeafRouter"}
        out[sku] = {t: _layout_of(render_sku(root, directory, sku, kind[t], port_rows), first)
                    for t in TOPOLOGIES}
    asic = (root / "device" / directory / "platform_asic").read_text().strip()
    lookup = {sku: read_pg_lookup(root / "device" / directory / sku / "pg_profile_lookup.ini")
              for sku in skus.values()}
    return {"pg_lookup": lookup,
            "source": f"sonic-net/sonic-buildimage@{ports.SOURCE_COMMIT[:8]}: device/"
                      f"{directory}/<SKU>/buffers.json.j2 rendered with "
                      "files/build_templates/buffers_config.j2 (ToRRouter = t0, "
                      "LeafRouter = t1); asic from platform_asic", "asic": asic, "skus": out}


def main(argv: list[str] | None = None) -> int:
    from netcfg.vendors.sonic.importer import run

    return run(argv, what="buffer layouts", source="sonic-buildimage's top directory",
               out=Path(__file__).parent / "buffers", build=import_platform,
               dumps=lambda doc: json.dumps(doc, indent=1, sort_keys=True) + "\n",
               found=lambda doc: f"{len(doc['skus'])} SKUs")


if __name__ == "__main__":
    raise SystemExit(main())
