"""SONiC PORT entries as the platform's own files define them: lanes, alias, index, fec.

SONiC names a port after its cage's first port and the split (`Ethernet<8·(cage−1) + k>`), but
its hardware lanes, alias and index come from the platform's `platform.json` (every breakout
mode of every cage) and its FEC from the SKU's `port_config.ini`. On the Arista 7060X6 the lanes
are permuted per block of four cages, so they are never derived from the name: netcfg carries
the platform's table as data (`ports/<platform>.json`), imported from sonic-buildimage by
`python -m netcfg.vendors.sonic.ports DEVICE_ROOT` and compared with the SKU files by the
tests.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

#: the platforms netcfg renders for SONiC: catalog name -> (sonic-buildimage device directory,
#: the SKU of each uniform port speed in Mb/s). The SKU's port_config.ini gives the FEC.
PLATFORMS: dict[str, tuple[str, dict[int, str]]] = {
    "nvidia-sn5600-sonic": ("mellanox/x86_64-nvidia_sn5600-r0", {
        800_000: "ACS-SN5600", 400_000: "Mellanox-SN5600-O128",
        200_000: "Mellanox-SN5600-V256"}),
    "arista-7060x6-sonic": ("arista/x86_64-arista_7060x6_64pe", {
        800_000: "Arista-7060X6-64PE", 400_000: "Arista-7060X6-64PE-O128S2",
        200_000: "Arista-7060X6-64PE-256x200G"}),
}
SOURCE_COMMIT = "086b03bd70f9e211aaaf5f6aefe0790b508d2a94"


@dataclass(frozen=True, slots=True)
class Cage:
    """One front-panel cage: the name of its first port, its lanes in hardware order, its
    index, and the split ports' aliases per number of ports (1, 2, 4, 8)."""

    name: str
    lanes: tuple[int, ...]
    index: int
    aliases: dict[int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class PortTable:
    platform: str
    source: str
    #: port speed (Mb/s) -> the SKU whose ports all run at it
    skus: dict[int, str]
    #: port speed (Mb/s) -> FEC the SKU's port_config.ini sets (absent: none set)
    fec: dict[int, str]
    cages: tuple[Cage, ...]
    #: each cage's first port number, in cage order (platform.json lists the cages so)
    firsts: tuple[int, ...]

    def entry(self, name: str, width: int, speed: int) -> dict[str, str]:
        """lanes, alias, index (and fec where the SKU sets one) of port `name` when its cage
        is split into ports of `width` lanes."""
        number = int(name.removeprefix("Ethernet"))
        # the cage whose first port number is the last one not above this port's
        k = bisect.bisect_right(self.firsts, number) - 1
        if k < 0:
            raise ValueError(f"{self.platform}: no cage holds {name}")
        cage, base = self.cages[k], self.firsts[k]
        per_cage = len(cage.lanes) // width
        sub, rest = divmod(number - base, width)
        if rest or sub >= per_cage or per_cage not in cage.aliases:
            raise ValueError(f"{self.platform}: {name} is not a port of {cage.name} split "
                             f"{per_cage} ways (platform.json breakout modes: "
                             f"{sorted(cage.aliases)})")
        out = {"lanes": ",".join(str(n) for n in cage.lanes[sub * width:(sub + 1) * width]),
               "alias": cage.aliases[per_cage][sub], "index": str(cage.index)}
        if speed in self.fec:
            out["fec"] = self.fec[speed]
        return out


@cache
def table(platform: str) -> PortTable | None:
    """The platform's port table, or None where netcfg carries none."""
    path = resources.files("netcfg.vendors.sonic") / "ports" / f"{platform}.json"
    if not path.is_file():
        return None
    return _parse(platform, json.loads(path.read_text()))


def _parse(platform: str, doc: dict[str, Any]) -> PortTable:
    cages = tuple(Cage(c["name"], tuple(c["lanes"]), c["index"],
                       {int(k): tuple(v) for k, v in c["aliases"].items()})
                  for c in doc["cages"])
    return PortTable(
        platform=platform, source=doc["source"],
        skus={int(k): v for k, v in doc["skus"].items()},
        fec={int(k): v for k, v in doc["fec"].items()}, cages=cages,
        firsts=tuple(int(c.name.removeprefix("Ethernet")) for c in cages))


# --------------------------------------------------------------------------- import


def read_port_config(path: Path) -> list[dict[str, str]]:
    """The rows of a SONiC `port_config.ini`, keyed by its `# name lanes ...` header."""
    header: list[str] = []
    rows = []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            words = line.lstrip("#").split()
            if words[:2] == ["name", "lanes"]:
                header = words
            continue
        if line.strip():
            rows.append(dict(zip(header, line.split())))
    return rows


def import_platform(platform: str, devices: Path) -> dict[str, Any]:
    """The data file of `platform` from a sonic-buildimage `device/` directory."""
    directory, skus = PLATFORMS[platform]
    root = devices / directory
    interfaces = json.loads((root / "platform.json").read_text())["interfaces"]
    cages = []
    for name, body in interfaces.items():
        lanes = [int(n) for n in body["lanes"].split(",")]
        if len(lanes) < 2:  # the SFP management-speed ports are not fabric cages
            continue
        aliases: dict[str, list[str]] = {}
        for mode, names in body["breakout_modes"].items():
            aliases.setdefault(mode.split("x", 1)[0], names)  # "2x400G[...]" -> "2"
        cages.append({"name": name, "lanes": lanes, "index": int(body["index"].split(",")[0]),
                      "aliases": dict(sorted(aliases.items(), key=lambda kv: int(kv[0])))})
    fec = {}
    for speed, sku in skus.items():
        rows = read_port_config(root / sku / "port_config.ini")
        found = {r["fec"] for r in rows if r.get("fec") and r.get("speed", str(speed)) ==
                 str(speed)}
        if len(found) > 1:
            raise ValueError(f"{sku}: more than one FEC at {speed}: {sorted(found)}")
        if found:
            fec[str(speed)] = found.pop()
    return {
        "source": f"sonic-net/sonic-buildimage@{SOURCE_COMMIT[:8]}: device/{directory}/"
                  "platform.json (lanes, index, aliases per breakout mode); "
                  "<SKU>/port_config.ini (fec)",
        "skus": {str(k): v for k, v in skus.items()}, "fec": fec, "cages": cages}


def _dumps(doc: dict[str, Any]) -> str:
    """JSON with one cage per line: reviewable against platform.json line by line."""
    head = {k: v for k, v in doc.items() if k != "cages"}
    cages = ",\n".join("  " + json.dumps(c) for c in doc["cages"])
    return json.dumps(head, indent=1)[:-2] + ',\n "cages": [\n' + cages + "\n ]\n}\n"


def main(argv: list[str] | None = None) -> int:
    from netcfg.vendors.sonic.importer import run

    return run(argv, what="port tables", source="sonic-buildimage's device/ directory",
               out=Path(__file__).parent / "ports", build=import_platform, dumps=_dumps,
               found=lambda doc: f"{len(doc['cages'])} cages")


if __name__ == "__main__":
    raise SystemExit(main())
