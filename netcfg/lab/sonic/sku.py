"""The emulated box's hardware as SONiC's own platform files describe it: which ports exist,
with which lanes, alias, index and FEC.

Read straight from a sonic-buildimage `device/` tree (`DeviceSpec.options["sku_dir"]`, or the
`NETCFG_SONIC_SKUS` environment variable; ../shared/sonic-skus/sonic-buildimage/device in the
tests), never from netcfg's own port tables: a PORT entry whose lanes, alias or index are not
the platform's (`platform.json`, any breakout mode of the cage) is refused, as orchagent cannot
create a port on lanes the ASIC does not have; a FEC other than the one the platform's SKU
sets at that speed and name is refused too (the peer, configured from the same SKU, would not
link up). Without the directory the emulator keeps its own sequential layout and checks none
of this.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from netcfg.lab.sonic.buffermgr import LookupRow, read_lookup
from netcfg.lab.sonic.schema import SchemaError

#: the model a DeviceSpec names (the catalog's `model`) -> the platform directory
PLATFORM_DIRS: dict[str, str] = {
    "SN5600": "mellanox/x86_64-nvidia_sn5600-r0",
    "DCS-7060X6-64PE": "arista/x86_64-arista_7060x6_64pe",
}


@dataclass(frozen=True)
class PortLayout:
    """One port as the platform defines it."""

    lanes: str
    alias: str
    index: str


class Platform:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.name = directory.name
        interfaces = json.loads((directory / "platform.json").read_text())["interfaces"]
        #: every port of every breakout mode: name -> {lane count: layout}
        self.ports: dict[str, dict[int, PortLayout]] = {}
        for cage, body in interfaces.items():
            lanes = body["lanes"].split(",")
            index = body["index"].split(",")[0]
            base = int(cage.removeprefix("Ethernet"))
            for aliases in body["breakout_modes"].values():
                ways = len(aliases)
                width = len(lanes) // ways
                for k, alias in enumerate(aliases):
                    name = f"Ethernet{base + k * width}"
                    self.ports.setdefault(name, {})[width] = PortLayout(
                        ",".join(lanes[k * width:(k + 1) * width]), alias, index)
        #: (name, speed) -> FEC, over every SKU of the platform that sets one
        self.fec: dict[tuple[str, str], str] = {}
        for ini in sorted(directory.glob("*/port_config.ini")):
            header: list[str] = []
            for line in ini.read_text().splitlines():
                if line.startswith("#"):
                    words = line.lstrip("#").split()
                    header = words if words[:2] == ["name", "lanes"] else header
                elif line.strip():
                    row = dict(zip(header, line.split()))
                    if "fec" in row and "speed" in row:
                        self.fec[(row["name"], row["speed"])] = row["fec"]

        self.asic = (directory / "platform_asic").read_text().strip()
        #: the SKU whose ports are 2 x 400G per cage (the emulator's factory layout)
        self.sku_400g = next(
            (ini.parent.name for ini in sorted(directory.glob("*/port_config.ini"))
             if any(r.split()[:1] == ["Ethernet4"] and len(r.split()[1].split(",")) == 4
                    for r in ini.read_text().splitlines() if r.strip())), None)

    def buffer_tables(self, sku: str, device_type: str, port_rows: dict) -> dict[str, Any]:
        """What SONiC's own buffer templates write for `sku` and these ports (the factory
        buffer configuration of a freshly installed switch)."""
        return _sku_tables(self.directory, sku, device_type, port_rows)

    def pg_lookup(self, sku: str) -> dict[tuple[str, str], LookupRow]:
        """The SKU's pg_profile_lookup.ini, as buffermgrd reads it (empty without one)."""
        path = self.directory / sku / "pg_profile_lookup.ini"
        return read_lookup(path) if sku and path.is_file() else {}

    def mmu(self) -> int:
        """The largest buffer any of the platform's SKUs gives its pools (the egress lossless
        pool of its buffer templates, which buffermgrd takes as the ASIC's buffer)."""
        return _largest_pool(self.directory)

    @classmethod
    def from_spec(cls, model: str, options: dict[str, Any]) -> Platform | None:
        root = options.get("sku_dir") or os.environ.get("NETCFG_SONIC_SKUS")
        sub = PLATFORM_DIRS.get(model or "SN5600")
        if not root or sub is None or not (Path(root) / sub / "platform.json").is_file():
            return None
        return cls(Path(root) / sub)

    def layout(self, name: str, lanes: int) -> PortLayout | None:
        return self.ports.get(name, {}).get(lanes)

    def check(self, db: dict) -> None:
        """Raise SchemaError for the first PORT entry the hardware does not have, or for
        buffer pools the ASIC cannot hold."""
        self._check_ports(db)
        self._check_pools(db)

    def _check_pools(self, db: dict) -> None:
        pools = db.get("BUFFER_POOL") or {}
        if not pools:
            return
        mmu = self.mmu()
        for name, pool in pools.items():
            if int(pool.get("size", 0)) > mmu:
                raise SchemaError(f"BUFFER_POOL|{name}: size {pool['size']} is more than the "
                                  f"{mmu} B the {self.name} SKUs give their pools "
                                  "(buffers_defaults_t*.j2)")
        if self.asic != "mellanox":
            return
        # Spectrum pools partition the buffer: the ingress pools and every PG's reserve
        profiles = db.get("BUFFER_PROFILE") or {}
        ingress = sum(int(p.get("size", 0)) for p in pools.values()
                      if p.get("type") == "ingress")
        reserved = sum(int(profiles.get(e.get("profile", ""), {}).get("size", 0))
                       for e in (db.get("BUFFER_PG") or {}).values())
        if ingress + reserved > mmu:
            raise SchemaError(f"BUFFER_POOL: the ingress pools ({ingress} B) and the PGs' "
                              f"reserves ({reserved} B) exceed the {mmu} B buffer")

    def _check_ports(self, db: dict) -> None:
        for name, entry in (db.get("PORT") or {}).items():
            lanes = str(entry.get("lanes", ""))
            layout = self.layout(name, len(lanes.split(",")))
            if layout is None:
                raise SchemaError(f"PORT|{name}: {self.name} has no port {name} of "
                                  f"{len(lanes.split(','))} lanes in any breakout mode "
                                  "(platform.json)")
            for key in ("lanes", "alias", "index"):
                if key in entry and str(entry[key]) != getattr(layout, key):
                    raise SchemaError(f"PORT|{name}: {key} {entry[key]} is not the platform's "
                                      f"{getattr(layout, key)} (platform.json)")
            fec = self.fec.get((name, str(entry.get("speed", ""))))
            # port_config.ini `none` is no FEC, which SONiC's own port generator writes as
            # no `fec` key (../shared/factory/sonic: the 7060X6's SFP ports)
            if fec is not None and entry.get("fec", "none") != fec:
                raise SchemaError(f"PORT|{name}: fec {entry.get('fec', '(none)')} where the "
                                  f"platform's SKU sets {fec} at {entry.get('speed')} Mb/s "
                                  "(port_config.ini)")


def _sku_tables(directory: Path, sku: str, device_type: str, port_rows: dict) -> dict[str, Any]:
    # the generic template runner: SONiC's buffers.json.j2 over SONiC's files, no netcfg data
    from netcfg.vendors.sonic.buffers import render_sku

    return render_sku(directory.parents[2], f"{directory.parent.name}/{directory.name}", sku,
                      device_type, port_rows)


@functools.cache
def _largest_pool(directory: Path) -> int:
    """Platform.mmu, once per platform directory (every emulated switch asks)."""
    sizes = [0]
    for ini in sorted(directory.glob("*/buffers.json.j2")):
        for kind in ("ToRRouter", "LeafRouter"):
            one = {"Ethernet0": {"admin_status": "up"}}
            pools = _sku_tables(directory, ini.parent.name, kind, one).get("BUFFER_POOL", {})
            sizes += [int(p["size"]) for p in pools.values() if "size" in p]
    return max(sizes)
