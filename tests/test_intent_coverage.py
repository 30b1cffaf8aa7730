"""No intent setting is silently ignored: every field of the intent model changes some
DevicePlan or host NIC profile (or is refused when changed), unless the model says what else
reads it (`NOT_FOR_SWITCH_CONFIGS`: the deadlock proof, deploy, lint, notes).

Each leaf of a bundled inventory's loaded intent is set to another value (the next integer,
the other boolean, another allowed literal, another prefix, a sample for an unset option),
the fabric is built and planned again, and the plans and host profiles are compared. A field
counts as covered when one inventory shows the change (a Spectrum-only fabric ignores the
generic headroom model's inputs; a two-tier one has no core ASNs). Together with
tests/test_coverage.py (each plan field reaches each NOS or is reported), an intent value
cannot vanish between the YAML and the device."""

from __future__ import annotations

import copy
import ipaddress
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from netcfg.findings import IntentError
from netcfg.intent.load import load_intent
from netcfg.intent.model import NOT_FOR_SWITCH_CONFIGS, Management, Snmp
from netcfg.intent.qos import Ecn, SharedHeadroomPool, WatchdogOverride
from netcfg.physics import derive
from netcfg.render import host
from netcfg.render.plan import PlanBuilder
from netcfg.topology import build_fabric

ROOT = Path(__file__).resolve().parents[1]
INVENTORIES = ("example", "multivendor")

#: values for options the bundled inventories leave unset
SAMPLES: dict[str, Any] = {
    "max_paths": 4, "mtu": 9000, "l3_mtu": 9100, "ecmp_seed": 7, "asn": 4_200_009_999,
    "lossless": False,
    "cable": 7.0, "description": "note", "priorities": [3, 4], "cnp_dscp": 46,
    "cnp_802p_prio": 5, "ecn": Ecn(enabled=False),
    "pfc_watchdog": WatchdogOverride(detection="400ms"),
    "shared_headroom_pool": SharedHeadroomPool(over_subscribe_ratio=2),
    "management": Management(address="192.0.2.201/24"),
    # inside the example's addressing.management (192.0.2.0/24)
    "gateway": ipaddress.IPv4Address("192.0.2.254"),
    # a release the catalog knows for Cumulus (and no other NOS: refused elsewhere)
    "release": "5.14",
    "ntp_servers": [ipaddress.IPv4Address("192.0.2.123")],
    "dns_servers": [ipaddress.IPv4Address("192.0.2.53")],
    "syslog_servers": [ipaddress.IPv4Address("192.0.2.55")],
    "snmp": Snmp(location="DC1 hall 2"),
    "snmp_location": "DC1 hall 9",
    "ntp_source": "management",
    "motd": "Change window: Tuesday 02:00 UTC",
}

#: fields that mean something only beside another: changed, they get that one's sample too,
#: in the model at that path (None: the field's own model). A syslog severity with no syslog
#: server configures nothing, nor does a switch's SNMP location without an SNMP agent.
TOGETHER: dict[str, tuple[tuple[str, ...] | None, str]] = {
    "syslog_severity": (None, "syslog_servers"),
    "snmp_location": (("management",), "snmp"),
    "ntp_source": (None, "ntp_servers"),
}


def leaves(model: BaseModel, path: tuple = ()) -> Iterator[tuple[tuple, BaseModel, str]]:
    """(path, owning model, field name) of every value field, through nested models."""
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            yield from leaves(value, path + (name,))
        elif isinstance(value, dict) and value and all(
                isinstance(v, BaseModel) for v in value.values()):
            for key, v in value.items():
                yield from leaves(v, path + (name, key))
        elif isinstance(value, list) and value and all(isinstance(v, BaseModel) for v in value):
            for i, v in enumerate(value):
                yield from leaves(v, path + (name, i))
        elif not _holds_models(type(model).model_fields[name].annotation):
            yield path + (name,), model, name


def _holds_models(annotation: Any) -> bool:
    """A field of nested models (`overrides.devices`, `spine_core`): its models' own fields
    are the values; an empty or unset one has none to change."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_holds_models(a) for a in typing.get_args(annotation))


def _literals(annotation: Any) -> list[Any]:
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    return [x for a in typing.get_args(annotation) for x in _literals(a)]


def other_value(intent: Any, owner: BaseModel, name: str) -> Any:
    """Another value of owner.name that an intent could hold; None when there is none."""
    value, info = getattr(owner, name), type(owner).model_fields[name]
    if value is None or (value == [] and name in SAMPLES):
        return SAMPLES.get(name)
    if name in ("default_class", "roce_class", "cnp_class"):
        return next((c for c in intent.qos.classes if c != value), None)
    if name == "platforms":
        return {**value, "leaf": value["spine"]}
    if name == "releases":
        return {**value, "cumulus": "5.14"}
    literals = _literals(info.annotation)
    if isinstance(value, bool):
        return not value
    if literals and value in literals:
        return next((x for x in literals if x != value), None)
    if isinstance(value, int):
        le = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
        return value - 1 if le is not None and value >= le else value + 1
    if isinstance(value, float):
        return value * 1.5
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, ipaddress.IPv4Address):
        return value + 1
    if isinstance(value, ipaddress.IPv4Interface):
        return ipaddress.IPv4Interface(f"{value.ip + 1}/{value.network.prefixlen}")
    if isinstance(value, ipaddress.IPv4Network):
        return ipaddress.IPv4Network((int(value.network_address) + 2 * value.num_addresses,
                                      value.prefixlen))
    if isinstance(value, list) and value and all(isinstance(x, (int, str)) for x in value):
        return value[:-1] if len(value) > 1 else [*value, value[0] + 1] if isinstance(
            value[0], int) else None
    if isinstance(value, dict) and value and all(isinstance(x, int) for x in value.values()):
        first = next(iter(value))
        return {**value, first: value[first] + 1}
    return None


def outputs(loaded) -> tuple[dict, dict]:
    fabric = build_fabric(loaded)
    builder = PlanBuilder(fabric, derive(fabric))
    return ({d.name: builder.plan(d) for d in fabric.switches()}, host.render_hosts(fabric))


def _get(model: Any, path: tuple) -> Any:
    for key in path:
        model = model[key] if isinstance(model, (dict, list)) else getattr(model, key)
    return model


@pytest.fixture(scope="module")
def results() -> dict[tuple[str, str], set[str]]:
    """(model class, field) -> outcomes over the inventories: changed, refused, same, n/a."""
    out: dict[tuple[str, str], set[str]] = {}
    for inv in INVENTORIES:
        base_loaded = load_intent(ROOT / "inventories" / inv)
        base = outputs(copy.deepcopy(base_loaded))
        for path, owner, name in leaves(base_loaded.intent):
            loaded = copy.deepcopy(base_loaded)
            target = _get(loaded.intent, path[:-1])
            new = other_value(loaded.intent, target, name)
            key = (type(owner).__name__, name)
            if new is None or new == getattr(target, name):
                out.setdefault(key, set()).add("n/a")
                continue
            reference = base
            if name in TOGETHER:
                where, partner = TOGETHER[name]
                holder = target if where is None else _get(loaded.intent, where)
                if not getattr(holder, partner):
                    # both with the partner set, so only `name` differs between them
                    object.__setattr__(holder, partner, SAMPLES[partner])
                    reference = outputs(copy.deepcopy(loaded))
            object.__setattr__(target, name, new)
            # the value now counts as written by the user (defaults that depend on the rest of
            # the intent, like the names of a rail-optimized topology, give way to it)
            was_set = loaded.is_set
            loaded.is_set = lambda p, _path=path, _was=was_set: p == _path or _was(p)
            try:
                got = "changed" if outputs(loaded) != reference else "same"
            except (IntentError, ValueError, KeyError):
                got = "refused"
            out.setdefault(key, set()).add(got)
    return out


def test_every_intent_field_reaches_a_switch_or_says_what_reads_it(results):
    silent = sorted(k for k, got in results.items()
                    if not got & {"changed", "refused"} and k not in NOT_FOR_SWITCH_CONFIGS)
    assert not silent, f"intent fields that change no plan and no host profile: {silent}"


def test_the_exemptions_are_real(results):
    """An exempt field that starts configuring switches must leave the table."""
    for key, why in NOT_FOR_SWITCH_CONFIGS.items():
        assert "changed" not in results.get(key, set()), (key, why)
