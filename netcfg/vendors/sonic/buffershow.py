"""SONiC's buffer profiles as programmed: `show buffer information` (sonic-utilities
scripts/mmuconfig `-l`), which prints every pool and profile of STATE_DB's BUFFER_POOL_TABLE
and BUFFER_PROFILE_TABLE (what bufferorch programmed from APPL_DB) as a `Pool: <name>` or
`Profile: <name>` line followed by a two-column tabulate table without headers.

A port's lossless PG profile is the one buffermgrd names for it (sonic-swss
cfgmgr/buffermgr.cpp: `pg_lossless_<speed>_<cable length>_profile`, the name netcfg's file
gives it too; the dynamic model's cfgmgr/buffermgrdyn.cpp adds `_mtu<PORT mtu>` where that is
not 9100, and `_8lane`: `profile_name`). Which PG points at which profile (APPL_DB
BUFFER_PG_TABLE) is not read: no published output of a command that prints it was found to
test a parser on.

The parser is tested on the output sonic-utilities' own tests expect
(tests/verify/fixtures/sonic-utilities/show_buffer_information.txt).
"""

from __future__ import annotations

from typing import Any

from netcfg.render.plan import DevicePlan, Interface

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


def profile_name(i: Interface, plan: DevicePlan | None = None) -> str:
    """buffermgrd's name for the lossless PG profile of port `i` (CABLE_LENGTH holds whole
    metres, rounded up as the SONiC file writes them). The traditional model's buffermgrd
    names it `pg_lossless_<speed>_<cable>_profile`; the dynamic model's (a box whose `plan`
    runs it: the SN5600 O128) adds the port's MTU where it is not 9100 and `_8lane` for an
    8-lane port below the ASIC's 8-lane speed (cfgmgr/buffermgrdyn.cpp, as
    ../shared/specs/headroom-sonic-spectrum.md states it: `pg_lossless_<S>_<L>m[_mtu<M_p>]
    [_th<dyn_th>][_<gearbox>][_8lane]_profile`, `_mtu` only if M_p != 9100, `_8lane` only
    for 8-lane ports on SN4xxx not at 400G / SN5xxx not at 800G). netcfg renders neither a
    per-PG threshold nor a gearbox."""
    from netcfg.vendors.sonic.render import cable, lossless_profile_name, model_of, port_mtu

    name = lossless_profile_name(i.speed, cable(i.cable_m))
    if plan is None or model_of(plan) != "dynamic":
        return name
    mtu = int(port_mtu(i.mtu))
    eight_lane_speed = {"spectrum-3": 400_000, "spectrum-4": 800_000}.get(_asic(plan))
    return (name.removesuffix("_profile") + (f"_mtu{mtu}" if mtu != 9100 else "")
            + ("_8lane" if i.lanes == 8 and eight_lane_speed not in (None, i.speed) else "")
            + "_profile")


def _asic(plan: DevicePlan) -> str:
    from netcfg.platforms import load_catalog

    return str(load_catalog().platforms[plan.platform].asic)


def read(driver: Any) -> dict[str, dict[str, str]]:
    """The programmed profiles, by name."""
    return parse(driver.cli([COMMAND])[COMMAND])["profiles"]
