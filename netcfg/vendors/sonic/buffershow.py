"""SONiC's buffer profiles as programmed: `show buffer information` (sonic-utilities
scripts/mmuconfig `-l`), which prints every pool and profile of STATE_DB's BUFFER_POOL_TABLE
and BUFFER_PROFILE_TABLE (what bufferorch programmed from APPL_DB) as a `Pool: <name>` or
`Profile: <name>` line followed by a two-column tabulate table without headers.

A port's lossless PG profile is the one buffermgrd names for it (sonic-swss
cfgmgr/buffermgr.cpp: `pg_lossless_<speed>_<cable length>_profile`), the name netcfg's file
gives it too. Which PG points at which profile (APPL_DB BUFFER_PG_TABLE) is not read: no
published output of a command that prints it was found to test a parser on.

The parser is tested on the output sonic-utilities' own tests expect
(tests/verify/fixtures/sonic-utilities/show_buffer_information.txt).
"""

from __future__ import annotations

from typing import Any

from netcfg.render.plan import Interface

COMMAND = "show buffer information"


def parse(text: str) -> dict[str, dict[str, dict[str, str]]]:
    """{"pools": name -> fields, "profiles": name -> fields}."""
    out: dict[str, dict[str, dict[str, str]]] = {"pools": {}, "profiles": {}}
    current: dict[str, str] | None = None
    for line in text.splitlines():
        head, colon, name = line.partition(": ")
        kind = head.split()[0] if head.split() else ""
        if colon and kind in ("Pool", "Profile"):  # also "Pool for namespace asic0: x"
            current = out["pools" if kind == "Pool" else "profiles"].setdefault(name.strip(), {})
        elif not line.strip():
            current = None
        elif current is not None and set(line.replace(" ", "")) != {"-"}:
            field, _, value = line.strip().partition(" ")
            current[field] = value.strip()
    return out


def profile_name(i: Interface) -> str:
    """buffermgrd's name for the lossless PG profile of port `i` (CABLE_LENGTH holds whole
    metres, rounded up as the SONiC file writes them)."""
    from netcfg.vendors.sonic.render import cable, lossless_profile_name

    return lossless_profile_name(i.speed, cable(i.cable_m))


def read(driver: Any) -> dict[str, dict[str, str]]:
    """The programmed profiles, by name."""
    return parse(driver.cli([COMMAND])[COMMAND])["profiles"]
