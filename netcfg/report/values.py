"""The values a changed section changes, and what the lossless chain and BGP mean on either
side: settings with a before and an after, not lines of a text diff.

A section's content is what its NOS's splitter made of it (`DeployAdapter.sections`): the
lines of a block for line configs (EOS, NX-OS, Junos set-form), a YAML or JSON subtree for
structured ones (Cumulus NVUE, SONiC CONFIG_DB), as `NosFacts.raw_form` says. A line's
setting is its words but the last (`mtu 9202` sets `mtu`), the same reading lint gives a
raw line that restates a rendered one (netcfg.vendors.raw.overlaps); a tree's settings are
its leaves by path (`link.mtu`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from netcfg.render.facts import spoken

#: what a value was before and is after; None: not there on that side
Side = str | None


@dataclass(frozen=True, slots=True)
class Value:
    """One setting that changes: `before` -> `after` (None where it is absent)."""

    setting: str
    before: Side
    after: Side

    def as_dict(self) -> dict[str, Side]:
        return {"setting": self.setting, "before": self.before, "after": self.after}


def section_values(form: Literal["lines", "tree"], key: str, before: str | None,
                   after: str | None, nested: tuple[list[str], list[str]] | None = None
                   ) -> list[Value]:
    """The settings of one section (`key`) that differ between two contents of it.
    `nested`: a line section's settings before and after as `block_settings` reads them from
    the whole file, where the section's content (its lines sorted) lost which block of it a
    line sits in."""
    if form == "tree":
        old, new = _tree(before), _tree(after)
        if old is not None and new is not None:
            return _leaf_changes(dict(_leaves(old)), dict(_leaves(new)))
    if nested is not None:
        return _line_changes(*nested)
    return _line_changes(_lines(key, before), _lines(key, after))


def block_settings(settings: list[tuple[tuple[str, ...], tuple[str, ...]]]
                   ) -> dict[str, list[str]]:
    """An indented line config's settings (`Vendor.raw_settings`: the blocks a setting sits
    in, its words) by the top block they belong to, that block's first line being its
    section's key (netcfg.deploy.sections): `neighbor 10.0.0.1 description x` under `router
    bgp 65001`, the lines of the blocks between written before the setting's own words."""
    out: dict[str, list[str]] = {}
    for above, words in settings:
        if above:
            out.setdefault(above[0].strip(), []).append(
                " ".join([" ".join(b.split()) for b in above[1:]] + list(words)))
    return out


def _tree(content: str | None) -> Any:
    """A structured section's subtree; {} for an absent one, None when it does not parse."""
    if content is None:
        return {}
    import yaml

    # libyaml's parser where PyYAML has it, with the safe constructor either way
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:  # NVUE's sections are YAML, CONFIG_DB's JSON (which YAML reads as well)
        return yaml.load(content, Loader=loader)  # noqa: S506 - a safe loader
    except yaml.YAMLError:
        try:
            return json.loads(content)
        except ValueError:
            return None


def _leaves(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """(dotted path, value) of each leaf; an empty mapping is a leaf of its own (NVUE states
    an address as `10.2.0.0/31: {}`)."""
    if isinstance(node, dict) and node:
        for key, value in node.items():
            yield from _leaves(value, path + (str(key),))
    elif isinstance(node, list):
        yield ".".join(path), ", ".join(_scalar(v) for v in node)
    else:
        yield ".".join(path), "" if isinstance(node, dict) else _scalar(node)


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return str(value)


def _leaf_changes(old: dict[str, str], new: dict[str, str]) -> list[Value]:
    out = []
    for path in sorted(set(old) | set(new)):
        if old.get(path) != new.get(path):
            out.append(Value(path or "(value)", old.get(path), new.get(path)))
    return out


def _lines(key: str, content: str | None) -> list[str]:
    """A line section's settings as words, its key's own words left out where each line
    repeats them (Junos set-form: `interfaces et-0/0/0 mtu 9216` under `interfaces
    et-0/0/0`), its header line (the key itself) dropped."""
    out = []
    for line in (content or "").splitlines():
        words = line.split()
        text = " ".join(words)
        if not words or text == key:
            continue
        if text.startswith(key + " "):
            text = text[len(key) + 1:]
        out.append(text)
    return out


def _line_changes(old: list[str], new: list[str]) -> list[Value]:
    """Lines only one side has; removed and added lines that set the same thing (all but
    their last word alike, one spelling on each side: the same `mtu` under two classes of a
    policy) are one setting whose value changes."""
    gone = [line for line in old if line not in set(new)]
    came = [line for line in new if line not in set(old)]
    stems: dict[str, tuple[list[str], list[str]]] = {}
    for line in gone:
        stems.setdefault(_stem(line), ([], []))[0].append(line)
    for line in came:
        stems.setdefault(_stem(line), ([], []))[1].append(line)
    out: list[Value] = []
    rest_gone, rest_came = [], []
    for stem, (was, now) in stems.items():
        if stem and len(set(was)) == 1 and len(set(now)) == 1:
            out.append(Value(stem, was[0].rsplit(" ", 1)[1], now[0].rsplit(" ", 1)[1]))
        else:
            rest_gone += sorted(set(was))
            rest_came += sorted(set(now))
    out += _tails(rest_gone, rest_came)
    return sorted(out, key=lambda v: v.setting)


def _stem(line: str) -> str:
    """All but the last word: what a line sets (`mtu 9202` -> `mtu`); "" for one word."""
    return line.rsplit(" ", 1)[0] if " " in line else ""


def _tails(gone: list[str], came: list[str]) -> list[Value]:
    """A removed and an added line of as many words that share their first words, where no
    other line shares them, are one setting whose last words change (`drop-profile x
    interpolate fill-level 0.80 8.04`); every other line is set or no longer set."""
    def split(line: str) -> tuple[str, ...]:
        return tuple(line.split())

    out: list[Value] = []
    used: set[str] = set()
    for a in gone:
        wa = split(a)
        best, shared = None, 0
        for b in came:
            wb = split(b)
            if b in used or len(wb) != len(wa):
                continue
            k = next((i for i, (x, y) in enumerate(zip(wa, wb)) if x != y), len(wa))
            if k > shared:
                best, shared = b, k
            elif k == shared:
                best = None  # two candidates alike: no pairing
        others = [g for g in gone if g != a and split(g)[:shared] == wa[:shared]]
        if best is not None and shared >= 2 and not others:
            used.add(best)
            wb = split(best)
            out.append(Value(" ".join(wa[:shared]), " ".join(wa[shared:]),
                             " ".join(wb[shared:])))
        else:
            out.append(Value(a, "set", None))
    out += [Value(b, None, "set") for b in came if b not in used]
    return out


#: what each field of the QoS and routing facts (netcfg/render/facts.py, routing_facts.py) is
#: called in a report
FACT_NAMES = {
    "lossless_priorities": "lossless priorities", "dscp_to_tc": "DSCP -> traffic class",
    "pfc_ports": "PFC priorities", "ecn": "ECN", "watchdog": "PFC watchdog",
    "mtu": "MTU (frame)", "hash_fields": "ECMP hash fields",
    "asn": "BGP AS", "router_id": "router-id", "neighbors": "BGP neighbour AS",
    "originated": "announced prefixes", "maximum_paths": "maximum-paths",
    "transit": "passes BGP routes on", "bfd": "BGP neighbour BFD",
    "keyed": "BGP neighbours with a session key",
}


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact of the meaning that changes; `subject` the port, DSCP or neighbour of a fact
    held per entry (None for a switch-wide one)."""

    what: str
    subject: str | None
    before: Side
    after: Side

    def as_dict(self) -> dict[str, Side]:
        return {"fact": self.what, "subject": self.subject, "before": self.before,
                "after": self.after}


def fact_changes(before: Any, after: Any) -> list[Fact]:
    """Each fact of two facts objects of one kind (QosFacts, RoutingFacts) that differs; a
    mapping's entries one by one (port swp1s0's MTU)."""
    out: list[Fact] = []
    for f in dataclasses.fields(before):
        name = FACT_NAMES.get(f.name, f.name.replace("_", " "))
        old, new = getattr(before, f.name), getattr(after, f.name)
        if isinstance(old, dict):
            for key in sorted(set(old) | set(new), key=str):
                if old.get(key) != new.get(key):
                    out.append(Fact(name, str(key), _fact(old.get(key)), _fact(new.get(key))))
        elif _fact(old) != _fact(new):
            out.append(Fact(name, None, _fact(old), _fact(new)))
    return out


def _fact(value: Any) -> str | None:
    """A fact as a person writes it (render.facts.spoken, the one way facts are printed:
    `min 150KB, max 1500KB, probability 5%`, `3, 4`); a port's ECN per queue as `queue 3:
    ...`; None where the side has no such fact."""
    if value is None:
        return None
    if isinstance(value, dict):
        return "; ".join(f"queue {k}: {spoken(v)}" for k, v in sorted(value.items()))
    return spoken(value)
