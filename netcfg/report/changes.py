"""Per switch, what the working tree's intent changes against the base's: the sections its
config adds, changes and removes (`DeployAdapter.sections` split, `netcfg.deploy.sections.
compare` compared, as `netcfg diff` and `push` do against a device), the values inside them,
what of it takes links down (`DeployAdapter.disruptive`, the mechanism `push` refuses by), and
what the lossless chain and BGP mean on either side (the NOS's `expected` facts).

Both sides are rendered from their plans as `netcfg render` renders them, except that
password-hash placeholders stay placeholders: a report never reads a secret.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from netcfg.deploy.sections import compare
from netcfg.render.engine import render_plan
from netcfg.render.plan import DevicePlan, PlanBuilder
from netcfg.report.values import Fact, Side, Value, block_settings, fact_changes, section_values
from netcfg.validate import Validation
from netcfg.vendors import vendor

Kind = Literal["added", "changed", "removed"]


def natural(name: str) -> tuple[Any, ...]:
    """Ports and sections in the order a person counts them: Ethernet2/1 before
    Ethernet10/1."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


@dataclass(frozen=True)
class SectionDiff:
    """One section of a switch's config that the change adds, changes or removes."""

    key: str
    family: str
    kind: Kind
    values: list[Value]


@dataclass(frozen=True)
class Row:
    """A change as a report shows it: one setting's before and after, in every section of
    the switch where the same change happens (40 ports' MTU is one row)."""

    kind: Kind
    family: str
    sections: tuple[str, ...]
    value: Value


@dataclass
class DeviceDiff:
    """A switch whose config changes; `status` new and removed: it is only in the working
    tree's intent, or only in the base's."""

    name: str
    role: str
    nos: str
    status: Literal["changed", "new", "removed"]
    base_nos: str | None = None
    sections: list[SectionDiff] = field(default_factory=list)
    #: what the lossless chain (QoS facts) and BGP (routing facts) mean, before and after
    meaning: list[Fact] = field(default_factory=list)
    #: what takes links down by itself, one phrase each (DeployAdapter.disruptive)
    disruptive: list[str] = field(default_factory=list)
    note: str | None = None

    def count(self, kind: Kind) -> int:
        return sum(1 for s in self.sections if s.kind == kind)

    def rows(self) -> list[Row]:
        """The section changes grouped: a setting changed the same way in many sections of
        one family is one row naming them all."""
        grouped: dict[tuple[Kind, str, Value], list[str]] = {}
        for s in self.sections:
            for v in s.values or [Value("(section)", None if s.kind == "added" else "set",
                                        None if s.kind == "removed" else "set")]:
                keys = grouped.setdefault((s.kind, s.family, v), [])
                if s.key not in keys:
                    keys.append(s.key)
        order = {"changed": 0, "added": 1, "removed": 2}
        return sorted((Row(kind, family, tuple(sorted(keys, key=natural)), v)
                       for (kind, family, v), keys in grouped.items()),
                      key=lambda r: (order[r.kind], r.family, r.sections[0], r.value.setting))

    def facts(self) -> list[tuple[str, Side, Side, list[str]]]:
        """The meaning grouped: (fact, before, after, the ports or entries it changes on)."""
        grouped: dict[tuple[str, Side, Side], list[str]] = {}
        for f in self.meaning:
            grouped.setdefault((f.what, f.before, f.after), []).extend(
                [f.subject] if f.subject is not None else [])
        return [(what, before, after, sorted(subjects, key=natural))
                for (what, before, after), subjects in grouped.items()]

    def signature(self) -> tuple[Any, ...]:
        """What the change is, without the switch's name: switches with one signature change
        alike (a fabric-wide MTU on every leaf of one NOS) and a report shows them once."""
        return (self.nos, self.base_nos, self.role, self.status, self.note,
                tuple(self.disruptive), tuple(self.rows()),
                tuple((w, b, a, tuple(on)) for w, b, a, on in self.facts()))

    def as_dict(self) -> dict[str, Any]:
        return {"device": self.name, "role": self.role, "nos": self.nos,
                "status": self.status, "base_nos": self.base_nos, "note": self.note,
                "disruptive": self.disruptive,
                "meaning": [v.as_dict() for v in self.meaning],
                "sections": [{"section": s.key, "family": s.family, "change": s.kind,
                              "values": [v.as_dict() for v in s.values]}
                             for s in self.sections]}


@dataclass(frozen=True)
class HostDiff:
    """A host NIC profile (one per NIC model, `netcfg render`'s hosts/<nic>.json, from which
    its script is made) that changes: the servers' side of the lossless chain."""

    nic: str
    status: Literal["changed", "new", "removed"]
    values: list[Value]

    def as_dict(self) -> dict[str, Any]:
        return {"nic": self.nic, "status": self.status,
                "values": [v.as_dict() for v in self.values]}


@dataclass
class FabricDiff:
    """Every switch that changes, and how many switches the working tree's fabric has; the
    host NIC profiles that change."""

    devices: list[DeviceDiff]
    switches: int
    hosts: list[HostDiff] = field(default_factory=list)

    def alike(self) -> list[list[DeviceDiff]]:
        """The changed switches in groups that change alike (DeviceDiff.signature), in the
        order their first switch comes."""
        groups: dict[tuple[Any, ...], list[DeviceDiff]] = {}
        for d in self.devices:
            groups.setdefault(d.signature(), []).append(d)
        return list(groups.values())


def _plans(v: Validation | None) -> dict[str, DevicePlan]:
    if v is None or v.fabric is None or v.physics is None:
        return {}
    builder = PlanBuilder(v.fabric, v.physics)
    return {dev.name: builder.plan(dev) for dev in v.fabric.switches()}


def compare_fabrics(base: Validation | None, head: Validation) -> FabricDiff:
    """Each switch of either side whose rendered config differs (`base` None: no base)."""
    before, after = _plans(base), _plans(head)
    out: list[DeviceDiff] = []
    for name in sorted(set(before) | set(after), key=natural):
        old, new = before.get(name), after.get(name)
        if old is None and new is not None:
            out.append(DeviceDiff(name, new.role, new.nos, "new",
                                  note=f"a new switch: its whole {new.nos} config is added"))
        elif new is None and old is not None:
            out.append(DeviceDiff(name, old.role, old.nos, "removed", base_nos=old.nos,
                                  note="no longer in the intent"))
        elif old is not None and new is not None:
            found = _device(name, old, new)
            if found is not None:
                out.append(found)
    return FabricDiff(out, len(after), _hosts(base, head))


def _hosts(base: Validation | None, head: Validation) -> list[HostDiff]:
    """The NIC profiles of both sides compared by value (the JSON profile; the script
    beside it says the same in commands)."""
    from netcfg.render.host import render_hosts

    def profiles(v: Validation | None) -> dict[str, str]:
        if v is None or v.fabric is None:
            return {}
        return {name[len("hosts/"):-len(".json")]: text
                for name, text in render_hosts(v.fabric).items() if name.endswith(".json")}

    before, after = profiles(base), profiles(head)
    out = []
    for nic in sorted(set(before) | set(after)):
        old, new = before.get(nic), after.get(nic)
        if old == new:
            continue
        status: Literal["changed", "new", "removed"] = (
            "new" if old is None else "removed" if new is None else "changed")
        out.append(HostDiff(nic, status, section_values("tree", nic, old, new)
                            if status == "changed" else []))
    return out


def _device(name: str, old: DevicePlan, new: DevicePlan) -> DeviceDiff | None:
    try:  # the base may name what this netcfg no longer renders (a release it dropped)
        text_old = render_plan(old)
    except ValueError as exc:
        return DeviceDiff(name, new.role, new.nos, "changed", base_nos=old.nos,
                          note=f"its config at the base cannot be rendered ({exc}); compared "
                               "with nothing")
    text_new = render_plan(new)
    if text_old == text_new:
        return None
    diff = DeviceDiff(name, new.role, new.nos, "changed", base_nos=old.nos,
                      meaning=_meaning(old, new))
    if old.nos != new.nos:
        diff.note = (f"the NOS changes from {old.nos} to {new.nos}: the switch is reinstalled "
                     "and its whole config replaced")
        return diff
    nos = vendor(new.nos)
    adapter = nos.deploy
    running, wanted = adapter.sections(text_old), adapter.sections(text_new)
    if not running and not wanted:  # a NOS without a section splitter: the file is one
        running, wanted = {"(file)": ("(file)", text_old)}, {"(file)": ("(file)", text_new)}
    change = compare(running, wanted)
    # a block's settings with the blocks inside it (a neighbour's description under `router
    # bgp`), where the NOS's file is indented lines
    blocks = ((block_settings(nos.raw_settings(text_old)),
               block_settings(nos.raw_settings(text_new))) if nos.raw_form == "lines" else None)
    kinds: tuple[tuple[Kind, list[str]], ...] = (
        ("changed", change.changed), ("added", change.added), ("removed", change.removed))
    for kind, keys in kinds:
        for key in keys:
            family = (wanted.get(key) or running[key])[0]
            nested = None
            if blocks is not None and (key in blocks[0] or key in blocks[1]):
                nested = (blocks[0].get(key, []), blocks[1].get(key, []))
            values = section_values(nos.raw_form, key, running[key][1] if key in running
                                    else None, wanted[key][1] if key in wanted else None,
                                    nested)
            diff.sections.append(SectionDiff(key, family, kind, values))
    diff.disruptive = adapter.disruptive(running, wanted)
    return diff


def _meaning(old: DevicePlan, new: DevicePlan) -> list[Fact]:
    """QoS facts, then routing facts, each as its NOS's file states them (`expected`)."""
    a, b = vendor(old.nos), vendor(new.nos)
    return (fact_changes(a.expected(old), b.expected(new))
            + fact_changes(a.expected_routing(old), b.expected_routing(new)))
