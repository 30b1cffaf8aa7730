"""NOS facts are found through the `netcfg.nos` entry point group, beside the vendors'
`netcfg.vendors` group: one entry per NOS, naming its `NosFacts`. The layers below rendering
load only these, so a third-party NOS plugs into validation by declaring both groups. As for
vendors, a NOS declared twice or an entry whose facts call themselves by another name is
refused: a NOS must mean one package."""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from netcfg.nos.facts import NosFacts

GROUP = "netcfg.nos"


class NosError(Exception):
    """The NOS registry is inconsistent, or a NOS is not registered."""


def load(points: list[EntryPoint], kind: type, error: type[NosError], what: str,
         twice: str) -> dict[str, Any]:
    """Load `points` into name -> the `kind` each names (a class is instantiated), refusing
    a name declared twice (`twice`: the verb the message uses), an entry that is not a
    `kind` (`what` names it) and one that calls itself by another name. The one loader of
    both entry point groups (netcfg.nos here, netcfg.vendors in netcfg/vendors/registry.py)."""
    found: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for point in points:
        if point.name in found:
            raise error(f"NOS {point.name!r} is {twice} twice: by {origin[point.name]} "
                        f"and by {point.value}; uninstall one")
        loaded = point.load()
        if isinstance(loaded, type):
            loaded = loaded()
        if not isinstance(loaded, kind):
            raise error(f"{point.value} is not {what}")
        name = getattr(loaded, "name", None)
        if name != point.name:
            raise error(f"{point.value} calls itself {name!r}, its entry point "
                        f"{point.name!r}")
        found[point.name], origin[point.name] = loaded, point.value
    return found


def build(points: list[EntryPoint]) -> dict[str, NosFacts]:
    """Load `points` into name -> facts, refusing duplicates and mismatched names."""
    found: dict[str, NosFacts] = load(points, NosFacts, NosError, "netcfg NosFacts",
                                      "described")
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
