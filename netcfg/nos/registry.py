"""NOS facts are found through the `netcfg.nos` entry point group, beside the vendors'
`netcfg.vendors` group: one entry per NOS, naming its `NosFacts`. The layers below rendering
load only these, so a third-party NOS plugs into validation by declaring both groups. As for
vendors, a NOS declared twice or an entry whose facts call themselves by another name is
refused: a NOS must mean one package."""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points

from netcfg.nos.facts import NosFacts

GROUP = "netcfg.nos"


class NosError(Exception):
    """The NOS registry is inconsistent, or a NOS is not registered."""


def build(points: list[EntryPoint]) -> dict[str, NosFacts]:
    """Load `points` into name -> facts, refusing duplicates and mismatched names."""
    found: dict[str, NosFacts] = {}
    origin: dict[str, str] = {}
    for point in points:
        if point.name in found:
            raise NosError(f"NOS {point.name!r} is described twice: by {origin[point.name]} "
                           f"and by {point.value}; uninstall one")
        described = point.load()
        if isinstance(described, type):
            described = described()
        if not isinstance(described, NosFacts):
            raise NosError(f"{point.value} is not netcfg NosFacts")
        if described.name != point.name:
            raise NosError(f"{point.value} calls itself {described.name!r}, its entry point "
                           f"{point.name!r}")
        found[point.name], origin[point.name] = described, point.value
    return found


@lru_cache(maxsize=1)
def registered() -> dict[str, NosFacts]:
    """Every registered NOS by name."""
    found = build(sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value)))
    if not found:
        raise NosError(f"no NOS is registered in the {GROUP!r} entry point group: install "
                       "netcfg (pip install -e .) so that its NOSes are declared")
    return found


def names() -> tuple[str, ...]:
    """Every registered NOS, sorted."""
    return tuple(sorted(registered()))


def facts(nos: str) -> NosFacts:
    """What `nos` is (its capabilities, buffer carving, raw grammar)."""
    try:
        return registered()[nos]
    except KeyError:
        raise NosError(f"no NOS package for {nos!r}; known: {', '.join(names())}") from None
