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
