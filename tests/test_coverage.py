"""No silent drops: every DevicePlan field reaches every NOS's config, or is reported.

For each vendor, one device of inventories/multivendor (all five NOSes) is planned; each plan
field is changed to another value that a valid intent could give it (on every element of a
list), and the config rendered again. The field passes when the text changes, when the
renderer refuses the value, when the same fact reaches the config through another field
(`plan.SAME_FACT_AS`), when it only identifies or explains (`plan.DESCRIPTIVE`), or when a
capability rule reports it for that NOS (`checks.reported_fields`: CAP004-CAP010). A field a
vendor declares unrendered must really be unrendered, and CAP010 must name it.
"""

from __future__ import annotations

import copy
import dataclasses
import ipaddress
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from netcfg.render.engine import render_plan
from netcfg.render.plan import DESCRIPTIVE, MEANINGFUL_WHEN, SAME_FACT_AS, DevicePlan, PlanBuilder
from netcfg.validate import validate
from netcfg.vendors import vendor
from netcfg.vendors.base import Capabilities
from netcfg.vendors.checks import check, reported_fields

ROOT = Path(__file__).resolve().parents[1]
DEVICE_OF = {"eos": "leaf-su1-r1", "sonic": "leaf-su2-r1", "cumulus": "leaf-su2-r5",
             "nxos": "spine-pod1-1", "junos": "core1"}
ROLES = ("leaf", "spine", "core")


@pytest.fixture(scope="module")
def multivendor():
    result = validate(ROOT / "inventories" / "multivendor")
    assert result.fabric is not None
    return result


@pytest.fixture(scope="module")
def plans(multivendor) -> dict[str, DevicePlan]:
    builder = PlanBuilder(multivendor.fabric, multivendor.physics)
    return {nos: builder.plan(multivendor.fabric.devices[name])
            for nos, name in DEVICE_OF.items()}


def field_paths(obj: Any, prefix: str = "") -> Iterator[str]:
    """Leaf fields of a plan: `qos.pools.total`, `interfaces[].headroom.xoff`, ..."""
    for f in dataclasses.fields(obj):
        value, path = getattr(obj, f.name), f"{prefix}{f.name}"
        if isinstance(value, list) and value and dataclasses.is_dataclass(value[0]):
            yield from field_paths(value[0], path + "[].")
        elif dataclasses.is_dataclass(value):
            yield from field_paths(value, path + ".")
        elif value is not None or f.name not in ("headroom", "watchdog"):
            yield path


def holders(plan: DevicePlan, path: str) -> tuple[list[Any], str]:
    """The objects holding the last field of `path` (every element of a list), and its name."""
    objs: list[Any] = [plan]
    *parts, last = path.split(".")
    for part in parts:
        if part.endswith("[]"):
            objs = [x for o in objs for x in getattr(o, part[:-2])]
        else:
            objs = [getattr(o, part) for o in objs]
    return [o for o in objs if o is not None], last


def other_value(name: str, value: Any, caps: Capabilities) -> Any:
    """Another value of the field that a valid intent could produce; None when the NOS accepts
    no other (the capability rules then refuse every other value at validate time)."""
    if name == "nos" or value is None:
        return None
    if name == "action":
        return next((a for a in sorted(caps.watchdog_actions) if a != value), None)
    if name == "mode" and value in ("strict", "ets"):
        return "ets" if value == "strict" else "strict"
    if name == "mode":
        return next((m for m in sorted(caps.ecmp_modes) if m != value), None)
    if name == "algorithm":
        return next((a for a in sorted(caps.hash_algorithms) if a != value), None)
    if name == "role":
        return next(r for r in ROLES if r != value)
    if isinstance(value, bool):
        return not value
    if name.endswith("_ms"):
        return value * 2 + 100
    if name == "speed":
        return 200_000 if value != 200_000 else 400_000
    if name == "lanes":
        return 4 if value != 4 else 8
    if "mtu" in name:
        return value - 8
    if name in ("dynamic_th", "seed", "remote_as", "asn", "maximum_paths", "probability",
                "watchdog_poll_ms", "queue", "tc", "weight"):
        return value + 1 if name != "dynamic_th" else value - 1
    if name == "min":  # an ECN threshold: a step large enough to see in any unit
        return value * 2
    if isinstance(value, int):
        return value * 3 // 4  # a byte count
    if isinstance(value, float):
        return value * 2 + 1
    if isinstance(value, str):
        try:
            iface = ipaddress.ip_interface(value)
        except ValueError:
            return value + "X"
        return f"{iface.ip + 2}/{iface.network.prefixlen}"
    if name == "networks":
        return [*value, "10.250.0.0/31"]
    if name == "server_blocks":
        return [*value, "10.250.0.0/30"]
    if name == "fields":
        return tuple(f for f in value if not f.startswith("l4_"))
    if name == "dscp":
        return value[:-1] if 63 in value else (*value, 63)
    if name in ("pfc_priorities",):
        return value[:-1] if len(value) > 1 else (*value, 1)
    if name == "dscp_to_tc":
        return {**value, 63: next(tc for tc in sorted(set(value.values())) if tc != value[63])}
    return None


#: identities: changed by handing each holder another holder's value (rotating them), so the
#: plan stays consistent (every traffic class in dscp_to_tc still exists, every name is one
#: the NOS accepts) and only who-is-who changes
ROTATED = ("name", "tc", "interface")


def outcome(plan: DevicePlan, path: str, caps: Capabilities, text: str) -> str:
    """'changed', 'refused' (the renderer raised ValueError: a value the NOS cannot express,
    which validate reports), 'same', or 'n/a' (no other value)."""
    mutated = copy.deepcopy(plan)
    if path in MEANINGFUL_WHEN:
        cond, wanted = MEANINGFUL_WHEN[path]
        objs, name = holders(mutated, cond)
        if cond == "ecmp.mode" and wanted not in caps.ecmp_modes:
            return "n/a"
        for o in objs:
            object.__setattr__(o, name, wanted)
        text = render_plan(mutated)
    objs, name = holders(mutated, path)
    if not objs:
        return "n/a"
    values = [getattr(o, name) for o in objs]
    if name in ROTATED:
        if len(set(values)) < 2:
            return "n/a"
        new_values = values[1:] + values[:1]
    else:
        new_values = [other_value(name, v, caps) for v in values]
        if any(new is None or new == v for new, v in zip(new_values, values)):
            return "n/a"
    for o, new in zip(objs, new_values):
        object.__setattr__(o, name, new)
    try:
        return "changed" if render_plan(mutated) != text else "same"
    except ValueError:
        return "refused"


@pytest.fixture(scope="module")
def outcomes(plans) -> dict[str, dict[str, str]]:
    out = {}
    for nos, plan in plans.items():
        caps, text = vendor(nos).capabilities, render_plan(plan)
        out[nos] = {p: outcome(plan, p, caps, text) for p in field_paths(plan)}
    return out


def rendered_through(path: str, results: dict[str, str], reported: dict[str, str]) -> bool:
    """The same fact reaches the config (or its report) through another field."""
    seen = set()
    while path in SAME_FACT_AS and path not in seen:
        seen.add(path)
        path = SAME_FACT_AS[path]
        if results.get(path) in ("changed", "refused") or path in reported:
            return True
    return False


@pytest.mark.parametrize("nos", sorted(DEVICE_OF))
def test_every_plan_field_is_rendered_or_reported(nos, outcomes):
    results, caps = outcomes[nos], vendor(nos).capabilities
    reported = reported_fields(caps)
    silent = [path for path, got in results.items()
              if got == "same" and path not in DESCRIPTIVE and path not in reported
              and not rendered_through(path, results, reported)]
    assert not silent, f"{nos} drops these plan fields silently: {silent}"


@pytest.mark.parametrize("nos", sorted(DEVICE_OF))
def test_declared_unrendered_fields_are_really_unrendered(nos, outcomes):
    """A declaration goes when the field is rendered: it cannot hide a rendered field."""
    results = outcomes[nos]
    for path in vendor(nos).capabilities.unrendered:
        assert path in results, f"{nos} declares an unknown plan field {path}"
        assert results[path] in ("same", "n/a"), f"{nos} renders {path}; drop the declaration"


def test_cap010_names_every_unrendered_field(multivendor):
    findings = [f for f in check(multivendor.fabric, multivendor.physics) if f.rule == "CAP010"]
    from netcfg.vendors.checks import OPTIONAL_INTENT

    for nos in DEVICE_OF:
        for path in vendor(nos).capabilities.unrendered:
            named = any(f"{nos} config does not state {path} " in f.message for f in findings)
            # a field only the intent's asking creates is named only when asked for (the
            # multivendor intent asks for no NTP or DNS: tests/render/test_ntp.py asks)
            assert named == (path not in OPTIONAL_INTENT), (nos, path)
    assert all(f.severity == "info" for f in findings)


def test_the_plan_tables_name_real_fields(plans):
    paths = set(field_paths(plans["eos"])) | set(field_paths(plans["junos"]))
    for table in (SAME_FACT_AS, DESCRIPTIVE, MEANINGFUL_WHEN):
        assert set(table) <= paths, set(table) - paths
    assert set(SAME_FACT_AS.values()) <= paths
