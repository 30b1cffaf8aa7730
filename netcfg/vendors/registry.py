"""Vendors are found through the `netcfg.vendors` entry point group (Nornir's plugin pattern):
netcfg's own five are declared in its pyproject.toml, and a separate distribution adds a NOS
by declaring one more. Two entry points of one name are refused, as is a vendor whose `name`
differs from its entry point: a NOS must mean one package. Each vendor renders with the facts
registered for its name in the `netcfg.nos` group (netcfg/nos/registry.py), which the layers
below rendering read: a vendor without them, or with other facts, is refused too."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points

from netcfg.nos import NosError, NosFacts, registered
from netcfg.nos.registry import load
from netcfg.vendors.base import Vendor

GROUP = "netcfg.vendors"


class VendorError(NosError):
    """The vendor registry is inconsistent, or a NOS has no vendor."""


def build(points: list[EntryPoint]) -> dict[str, Vendor]:
    """Load `points` into name -> vendor, refusing duplicates and mismatched names."""
    found: dict[str, Vendor] = load(points, Vendor, VendorError, "a netcfg Vendor", "provided")
    return found


def matched(found: dict[str, Vendor], described: Mapping[str, NosFacts]) -> dict[str, Vendor]:
    """`found`, once every vendor renders with the facts registered for its NOS and every
    registered NOS has a vendor."""
    for name in sorted(set(found) | set(described)):
        if name not in found:
            raise VendorError(f"NOS {name!r} is described in the netcfg.nos entry point group "
                              f"but has no vendor in {GROUP!r}")
        if described.get(name) is not found[name].facts:
            raise VendorError(f"the vendor of NOS {name!r} does not render with the facts "
                              "registered for it in the netcfg.nos entry point group")
    return found


@lru_cache(maxsize=1)
def vendors() -> dict[str, Vendor]:
    found = build(sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value)))
    if not found:
        raise VendorError(f"no NOS is registered in the {GROUP!r} entry point group: install "
                          "netcfg (pip install -e .) so that its vendors are declared")
    return matched(found, registered())


def names() -> tuple[str, ...]:
    """Every registered NOS, sorted."""
    return tuple(sorted(vendors()))


def vendor(nos: str) -> Vendor:
    try:
        return vendors()[nos]
    except KeyError:
        raise VendorError(f"no vendor package for NOS {nos!r}; known: "
                          f"{', '.join(names())}") from None
