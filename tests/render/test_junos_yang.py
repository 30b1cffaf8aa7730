"""Every Junos file netcfg renders, on every Junos platform of the catalog, against Juniper's
own configuration YANG (Junos OS Evolved 24.4R1, ../shared/junos-yang) with the validator
published beside it (loaded once per process, render_cases.junos_yang): statements,
keywords, value types, ranges and duplicates as Juniper's schema states them, never as
netcfg's templates believe them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from render_cases import BUNDLED, junos_unchecked, junos_yang, nos_plans, swapped

from netcfg.platforms import load_catalog
from netcfg.render import render_plan

JUNOS_YANG = Path(__file__).resolve().parents[3] / "shared" / "junos-yang"
#: devices per inventory and platform (a deterministic sample that keeps every role)
SAMPLE = 8


def _skip_reason() -> str | None:
    if not (JUNOS_YANG / "validate_junos.py").is_file():
        return "Juniper's YANG (../shared/junos-yang) not present next to the repo"
    if os.environ.get("NETCFG_REQUIRE_YANG") == "1":
        return None
    try:
        import libyang  # noqa: F401
    except ImportError:
        return "the libyang binding is not installed (pip install -e '.[yang]')"
    return None


JUNOS_PLATFORMS = sorted(name for name, p in load_catalog().platforms.items() if p.nos == "junos")


@pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))
def test_every_inventory_on_every_junos_platform_is_valid(tmp_path):
    assert len(JUNOS_PLATFORMS) >= 2, JUNOS_PLATFORMS
    checked = 0
    for platform in JUNOS_PLATFORMS:
        for inventory in BUNDLED:
            work = tmp_path / platform
            work.mkdir(exist_ok=True)
            plans = nos_plans(swapped(work, inventory, platform), "junos", SAMPLE)
            assert {p.role for p in plans} >= {"leaf", "spine"}, (inventory, platform)
            for plan in plans:
                text = render_plan(plan)
                where = (platform, inventory, plan.hostname)
                assert junos_yang().errors(text) == [], where
                # Juniper's published Evolved YANG lacks the shared-buffer partitions Juniper
                # configures on QFX5220/5230/5240 (../shared/junos-yang README, "Known
                # gap"): exactly those go unchecked, everything else (shared-buffer
                # `percent` too) is checked; every file carries both (each has lossless
                # ports)
                assert junos_unchecked(text) == ["class-of-service shared-buffer egress",
                                                 "class-of-service shared-buffer ingress"], where
                checked += 1
    assert checked >= 2 * len(JUNOS_PLATFORMS) * len(BUNDLED)
