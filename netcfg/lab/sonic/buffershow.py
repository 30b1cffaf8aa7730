"""`show buffer information` for the lab's SONiC box, as sonic-utilities' scripts/mmuconfig
`-l` prints it: every pool of STATE_DB's BUFFER_POOL_TABLE, then every profile of its
BUFFER_PROFILE_TABLE (what bufferorch programmed), each a `Pool: <name>` or `Profile: <name>`
line and a two-column tabulate table without headers, left aligned, then a blank line.
tests/verify prints sonic-utilities' expected output byte for byte from its rows.

What is programmed follows the box's buffer manager (buffermgr.py): the CONFIG_DB profiles
after buffermgrd has run, with the dynamic model's computed lossless profiles from APPL_DB; the
pools it created (the traditional model creates none without a size).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from netcfg.lab.sonic.emulator import SonicEmulator


def plain_table(rows: list[tuple[str, str]]) -> str:
    """tabulate's default format without headers: a line of dashes per column above and
    below the rows, two spaces between columns, strings left aligned."""
    w1 = max(len(a) for a, _ in rows)
    w2 = max(len(b) for _, b in rows)
    rule = "-" * w1 + "  " + "-" * w2
    return "\n".join([rule, *(f"{a:<{w1}}  {b}".rstrip() for a, b in rows), rule])


def section(kind: str, name: str, fields: dict[str, Any]) -> str:
    return f"{kind}: {name}\n" + plain_table([(k, str(v)) for k, v in fields.items()]) + "\n\n"


def buffer_information(dev: SonicEmulator) -> str:
    created = dev.appl.get("BUFFER_POOL_TABLE", {})
    pools = {name: {**fields, **created.get(name, {})}
             for name, fields in (dev.running.get("BUFFER_POOL") or {}).items()
             if name in created}
    profiles = {**(dev.running.get("BUFFER_PROFILE") or {}),
                **dev.appl.get("BUFFER_PROFILE_TABLE", {})}
    out = "".join(section("Pool", n, f) for n, f in pools.items()) \
        or "No buffer pool information available\n"
    out += "".join(section("Profile", n, f) for n, f in profiles.items()) \
        or "No buffer profile information available\n"
    return out
