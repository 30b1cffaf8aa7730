"""buffermgrd of SONiC's traditional buffer model, as the lab's SONiC box runs it.

On a real switch buffermgrd watches PORT, CABLE_LENGTH and PORT_QOS_MAP and, for every port
with a cable length and lossless priorities, points the port's lossless PGs at the profile
`pg_lossless_<speed>_<cable>_profile`, creating that profile from the SKU's
`pg_profile_lookup.ini` when CONFIG_DB has none of that name. A configuration whose own
headroom is under another name, or under other PG keys, is overwritten within seconds of
being applied. Written from sonic-net/sonic-swss cfgmgr/buffermgr.cpp (doSpeedUpdateTask,
readPgProfileLookupFile, the PORT table handler) and orchagent/orch.cpp
(generateIdListFromMap), never from netcfg's renderer.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the pool buffermgrd puts the profiles it creates in (INGRESS_LOSSLESS_PG_POOL_NAME)
LOSSLESS_POOL = "ingress_lossless_pool"


@dataclass(frozen=True)
class LookupRow:
    """One line of pg_profile_lookup.ini: speed cable size xon xoff threshold [xon_offset]."""

    size: str
    xon: str
    xoff: str
    threshold: str
    xon_offset: str = ""


def read_lookup(path: Path) -> dict[tuple[str, str], LookupRow]:
    """(speed, cable) -> row, read the way readPgProfileLookupFile reads it (blank lines and
    `#` lines skipped, whitespace-separated columns, the sixth optional)."""
    out: dict[tuple[str, str], LookupRow] = {}
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if len(words) < 6:
            continue
        out[(words[0], words[1])] = LookupRow(*words[2:6], *(words[6:7] or [""]))
    return out


def id_ranges(bits: int) -> list[str]:
    """generateIdListFromMap: set bits as runs, "3-4", "6"."""
    out, lower = [], None
    for i in range(33):
        if bits >> i & 1:
            lower = i if lower is None else lower
        elif lower is not None:
            out.append(str(lower) if lower == i - 1 else f"{lower}-{i - 1}")
            lower = None
    return out


def run(db: dict[str, Any], lookup: dict[tuple[str, str], LookupRow], asic: str) -> list[str]:
    """What buffermgrd does to `db` (changed in place) once every table has been seen; the
    log lines it would write, one per change or refusal."""
    log: list[str] = []
    cables = {port: length for entry in db.get("CABLE_LENGTH", {}).values()
              for port, length in entry.items()}
    pool_mode = db.get("BUFFER_POOL", {}).get(LOSSLESS_POOL, {}).get("mode", "")
    profiles, pgs = db.get("BUFFER_PROFILE", {}), db.get("BUFFER_PG", {})
    for port, fields in sorted(db.get("PORT", {}).items()):
        cable = cables.get(port)
        pfc = db.get("PORT_QOS_MAP", {}).get(port, {}).get("pfc_enable")
        if cable is None or cable == "0m" or pfc is None:
            continue
        speed = fields.get("speed", "")
        profile = f"pg_lossless_{speed}_{cable}_profile"
        bits = 0
        for pg in pfc.split(","):
            if pg.strip().isdigit():
                bits |= 1 << int(pg)
        keys = [f"{port}|{r}" for r in id_ranges(bits)]
        if fields.get("admin_status", "down") == "down" and asic in ("mellanox", "barefoot"):
            for key in keys:
                if pgs.get(key, {}).get("profile") == profile:
                    del pgs[key]
                    log.append(f"removing PG {key} from port {port} which is administrative down")
            continue
        row = lookup.get((speed, cable))
        if row is None:
            log.append(f"no PG profile configured for speed {speed} and cable length {cable}")
            continue
        if profile not in profiles:
            if not pool_mode:
                continue  # retried until the lossless pool exists
            created = {"pool": LOSSLESS_POOL, "xon": row.xon}
            if row.xon_offset:
                created["xon_offset"] = row.xon_offset
            created |= {"xoff": row.xoff, "size": row.size, f"{pool_mode}_th": row.threshold}
            profiles[profile] = created
            db["BUFFER_PROFILE"] = profiles
            log.append(f"creating new profile '{profile}'")
        for key in keys:
            if pgs.get(key, {}).get("profile") != profile:
                pgs[key] = {"profile": profile}
                db["BUFFER_PG"] = pgs
                log.append(f"PG {key} -> {profile}")
    return log


# --------------------------------------------------------------------------- dynamic model
#: the Spectrum-4 row of sonic-buildimage platform/mellanox/asic_table.j2 (ASIC_TABLE:
#: MELLANOX-SPECTRUM-4), which buffermgrd reads from STATE_DB; the lab reads the template
#: itself where the platform folder is given (asic_constants)
SPECTRUM4 = {"cell_size": "192", "pipeline_latency": "19", "mac_phy_delay": "0.8",
             "peer_response_time": "3.8", "generation": "4"}
#: pause quanta per speed as sonic-swss cfgmgr/buffer_headroom_mellanox.lua tabulates them
PAUSE_QUANTA = {800000: 905, 400000: 905, 200000: 453, 100000: 394, 50000: 147, 40000: 118,
                25000: 80, 10000: 67, 1000: 2, 100: 1}
LIGHT_SPEED = 198_000_000  # m/s in the cable, as the Lua takes it
#: buffer_pool_mellanox.lua: private headroom per lossless port with a shared headroom pool,
#: management pool, egress mirror headroom per admin-up port, default shared headroom pool
PRIVATE_HEADROOM, MGMT_POOL, MIRROR_HEADROOM, DEFAULT_SHP = 10 * 1024, 256 * 1024, 10 * 1024, \
    655360


@functools.cache
def asic_constants(platform_dir: Path | None, platform: str) -> dict[str, str]:
    """The ASIC_TABLE entry SONiC's asic_table.j2 renders for `platform` (its generation is
    the key's last character), or the Spectrum-4 row without the template."""
    if platform_dir is None or not (platform_dir / "asic_table.j2").is_file():
        return dict(SPECTRUM4)
    import json

    import jinja2

    text = jinja2.Template((platform_dir / "asic_table.j2").read_text()).render(
        DEVICE_METADATA={"localhost": {"platform": platform}})
    for entry in json.loads(text):
        for key, fields in entry.items():
            if key.startswith("ASIC_TABLE:"):
                return {**fields, "generation": key[-1]}
    return dict(SPECTRUM4)


def _ceil_k(x: float) -> int:
    return math.ceil(x / 1024) * 1024


def headroom(speed: int, cable_m: int, port_mtu: int, lanes: int, asic: dict[str, str],
             lossless_mtu: int, small_percent: int, shp: bool,
             gearbox_delay: float = 0) -> tuple[int, int, int]:
    """(xon, xoff, size) of a lossless PG as cfgmgr/buffer_headroom_mellanox.lua computes it
    (sonic-swss e6b0c5b; the formula is written out in ../shared/specs/
    headroom-sonic-spectrum.md)."""
    cell = float(asic["cell_size"])
    pipeline = 1024 * float(asic["pipeline_latency"])
    overhead = 0.0
    if lanes == 8:
        pipeline, overhead = 2 * pipeline, float(port_mtu)
    mac_phy = 1024 * float(asic["mac_phy_delay"])
    quanta = PAUSE_QUANTA.get(speed)
    peer = quanta * 512 / 8 if quanta is not None else 1024 * float(asic["peer_response_time"])
    generation = asic.get("generation", "4")
    tile = speed / 1000 * 120 / 8 if generation in ("4", "5") else 0.0
    worst = math.ceil(cell / 64) if cell > 128 else math.ceil(2 * cell / (1 + cell))
    small = 100 * 64 / ((small_percent * 64 + (100 - small_percent) * lossless_mtu) / 100)
    occupancy = (100 - small + small * worst) / 100
    gearbox = speed * gearbox_delay / (8 * 1024) if gearbox_delay else 0.0
    cable = 2 * cable_m * speed * 1e9 / LIGHT_SPEED / 8000
    propagation = port_mtu + cable + 2 * gearbox + mac_phy + peer + tile
    xoff = _ceil_k(lossless_mtu + propagation * occupancy)
    if generation == "6":
        xoff += 18432
    if not shp and small_percent != 100 and \
            xoff + 2048 < _ceil_k(lossless_mtu + propagation * worst):
        xoff += 2048
    xon = _ceil_k(pipeline)
    size = _ceil_k(xon) if shp else _ceil_k(xoff + xon + overhead)
    return xon, xoff, size


def _first(db: dict[str, Any], table: str) -> dict[str, Any]:
    entries = db.get(table) or {}
    return next(iter(entries.values()), {}) if entries else {}


def _ids(key: str) -> int:
    first, _, last = key.partition("-")
    return int(last or first) - int(first) + 1


def run_dynamic(db: dict[str, Any], asic_type: str, asic: dict[str, str] | None = None
                ) -> tuple[dict[str, dict[str, dict[str, str]]], list[str]]:
    """What the dynamic model's buffermgrd puts in APPL_DB for `db`: a computed profile for
    every lossless PG whose profile is NULL (cfgmgr/buffermgrdyn.cpp with the Mellanox
    plugin), then every pool's size (cfgmgr/buffer_pool_mellanox.lua). Returns (APPL_DB
    tables BUFFER_PROFILE_TABLE, BUFFER_PG_TABLE, BUFFER_POOL_TABLE; log lines)."""
    log: list[str] = []
    asic = asic or dict(SPECTRUM4)
    profiles: dict[str, dict[str, str]] = {k: dict(v) for k, v in
                                           (db.get("BUFFER_PROFILE") or {}).items()}
    pgs: dict[str, dict[str, str]] = {}
    pools = db.get("BUFFER_POOL") or {}
    pattern = _first(db, "LOSSLESS_TRAFFIC_PATTERN")
    params = _first(db, "DEFAULT_LOSSLESS_BUFFER_PARAMETER")
    ratio = int(params.get("over_subscribe_ratio", 0) or 0)
    shp_size = int(pools.get(LOSSLESS_POOL, {}).get("xoff", 0) or 0)
    shp = ratio != 0 or shp_size != 0
    cables = {port: length for entry in (db.get("CABLE_LENGTH") or {}).values()
              for port, length in entry.items()}
    ports = db.get("PORT") or {}
    for key, entry in sorted((db.get("BUFFER_PG") or {}).items()):
        port, _, ids = key.partition("|")
        if entry.get("profile") != "NULL":
            pgs[key] = dict(entry)
            continue
        fields = ports.get(port, {})
        if fields.get("admin_status", "down") != "up":
            continue  # a lossless PG of an admin-down port takes no buffer
        if not pattern or "speed" not in fields or port not in cables:
            log.append(f"PG {key}: waiting for the lossless traffic pattern, the port's speed "
                       "and its cable length")
            continue
        speed, cable = int(fields["speed"]), int(cables[port].rstrip("m"))
        mtu = int(fields.get("mtu", 9100))
        lanes = len(str(fields.get("lanes", "")).split(","))
        xon, xoff, size = headroom(speed, cable, mtu, lanes, asic, int(pattern["mtu"]),
                                   int(pattern["small_packet_percentage"]), shp)
        name = f"pg_lossless_{speed}_{cable}m" + (f"_mtu{mtu}" if mtu != 9100 else "") + \
            ("_8lane" if lanes == 8 and speed != 800000 else "") + "_profile"
        if name not in profiles:
            profiles[name] = {"pool": LOSSLESS_POOL, "xon": str(xon), "xoff": str(xoff),
                              "size": str(size),
                              "dynamic_th": str(params.get("default_dynamic_th", "0"))}
            log.append(f"creating new profile '{name}' xon {xon} xoff {xoff} size {size}")
        pgs[key] = {"profile": name}
    sizes = _pool_sizes(db, profiles, pgs, asic, ratio, shp_size)
    log += [f"pool {name}: size {fields['size']}" for name, fields in sorted(sizes.items())]
    return {"BUFFER_PROFILE_TABLE": profiles, "BUFFER_PG_TABLE": pgs,
            "BUFFER_POOL_TABLE": sizes}, log


def _pool_sizes(db: dict[str, Any], profiles: dict[str, dict[str, str]],
                pgs: dict[str, dict[str, str]], asic: dict[str, str], ratio: int,
                shp_size: int) -> dict[str, dict[str, str]]:
    """cfgmgr/buffer_pool_mellanox.lua: what is left of the buffer once every reserve is
    taken, shared by the pools without a size (one ingress pool: all of it; two: half each)."""
    pools = db.get("BUFFER_POOL") or {}
    ingress = {n for n, p in pools.items() if p.get("type") == "ingress"}
    lossless_profile = {n: "xoff" in p for n, p in profiles.items() if p.get("pool") in ingress}
    ports = db.get("PORT") or {}
    eight = {n for n, p in ports.items() if len(str(p.get("lanes", "")).split(",")) == 8}
    up = [n for n, p in ports.items() if p.get("admin_status") == "up"]
    refs = dict.fromkeys(profiles, 0)
    lossy_8lane = 0
    lossless_ports: set[str] = set()
    for table, check in ((pgs, True), (db.get("BUFFER_QUEUE") or {}, False)):
        for key, entry in table.items():
            port, _, ids = key.partition("|")
            name = entry.get("profile", "")
            if name not in refs:
                continue
            refs[name] += _ids(ids)
            if port in eight and lossless_profile.get(name) is False:
                lossy_8lane += _ids(ids)
            if check and lossless_profile.get(name):
                lossless_ports.add(port)
    pipeline = float(asic["pipeline_latency"])
    lossy_reserved, lossy_reserved_8 = pipeline * 1024, (2 * pipeline - 1) * 1024
    occupied, xoff_total = 0.0, 0.0
    for name, count in refs.items():
        profile = profiles[name]
        if "size" not in profile:
            continue
        size = float(profile["size"])
        if lossless_profile.get(name) is False:
            size += lossy_reserved
        if size != 0:
            if shp_size == 0 and "xon" in profile and "xoff" in profile and \
                    float(profile["xon"]) + float(profile["xoff"]) > size:
                xoff_total += (float(profile["xon"]) + float(profile["xoff"]) - size) * count
            occupied += size * count
    occupied += (lossy_reserved_8 - lossy_reserved) * lossy_8lane
    shp = ratio != 0 or shp_size != 0
    if xoff_total > 0 and not shp:
        shp, shp_size = True, DEFAULT_SHP
    if shp:
        occupied += len(lossless_ports) * PRIVATE_HEADROOM
        xoff_total = max(0.0, xoff_total - len(lossless_ports) * PRIVATE_HEADROOM)
    up8 = len([n for n in up if n in eight])
    occupied += (len(up) - up8) * lossy_reserved + up8 * lossy_reserved_8
    occupied += len(up) * MIRROR_HEADROOM + MGMT_POOL
    if shp and shp_size == 0:
        shp_size = math.ceil(xoff_total / ratio) or DEFAULT_SHP
    occupied += shp_size
    mmu = float(pools.get("egress_lossless_pool", {}).get("size", 0) or 0)
    available = mmu - occupied
    unsized_ingress = [n for n in ingress if "size" not in pools[n]]
    share = available if len(unsized_ingress) == 1 else available / 2
    ceiling = math.floor(mmu / float(asic["cell_size"])) * float(asic["cell_size"])
    share = min(share, ceiling)
    out: dict[str, dict[str, str]] = {}
    for name, pool in pools.items():
        if "size" in pool:
            out[name] = {k: str(v) for k, v in pool.items() if k in ("size", "xoff")}
            continue
        if "percentage" in pool:
            size = available * int(pool["percentage"]) / 100
        else:
            size = share
        out[name] = {"size": str(math.ceil(size))}
        if name == LOSSLESS_POOL and shp_size:
            out[name]["xoff"] = str(math.ceil(shp_size))
    return out


def traditional_pools(db: dict[str, Any]) -> tuple[dict[str, dict[str, dict[str, str]]],
                                                   list[str]]:
    """The traditional model creates each pool with the size CONFIG_DB gives it; a pool
    without one cannot be created (bufferorch passes no size: SAI refuses the pool), which is
    what a dynamic-model DB reloaded as traditional does."""
    out: dict[str, dict[str, str]] = {}
    log = []
    for name, pool in sorted((db.get("BUFFER_POOL") or {}).items()):
        if "size" in pool:
            out[name] = {k: str(v) for k, v in pool.items() if k in ("size", "xoff")}
        else:
            log.append(f"failed to create pool {name}: no size in the traditional model")
    return {"BUFFER_POOL_TABLE": out}, log
