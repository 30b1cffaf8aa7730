"""Deploying to Cumulus Linux through netcfg's own NAPALM driver
(netcfg/vendors/cumulus/driver.py): `nv config apply --confirm`; an applied revision is the
startup configuration, so nothing is saved apart."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from netcfg.deploy.drivers.shell import netmiko_options
from netcfg.vendors.base import DeployAdapter

if TYPE_CHECKING:
    from napalm.base import NetworkDriver

    from netcfg.deploy.targets import Target


class CumulusDeploy(DeployAdapter):
    #: a neighbour's `password: KEY` (NVUE shows it in clear text by default), a login's hash,
    #: and a community in `nv set ... readonly-community <c>` form (the YAML form: `mask`)
    secret_values = (re.compile(r"(?P<lead>\b(?:hashed-)?password: )(?P<secret>\S.*)$",
                                re.MULTILINE),
                     re.compile(r"(?P<lead>\breadonly-community )(?P<secret>\S+)"))
    napalm_driver = "netcfg_cumulus"
    #: who may log in (users, AAA), the management port and VRF, and the rest of NVIDIA's
    #: factory startup.yaml netcfg does not render (../shared/factory/cumulus): the default
    #: control-plane ACLs, the NVUE API, auto-save, SSH server, reboot mode, What Just
    #: Happened and the default NTP servers (5.14 `service ntp`, 5.15 `system ntp`). A replace
    #: makes the revision exactly the file, so each would go with it (NVIDIA: a replace
    #: without the `cumulus` account deletes it); where the file has its own (eth0, NTP) the
    #: file's replaces the switch's
    device_local = ("system aaa", "interface eth0", "vrf mgmt", "system control-plane",
                    "system api", "system config", "system ssh-server", "system reboot",
                    "system wjh", "system ntp", "service ntp")
    default_port = 22
    protocol = "ssh"

    def driver_options(self, target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
        return netmiko_options(target, timeout)

    def in_service(self, running: dict[str, tuple[str, str]]) -> bool:
        """A swp port configured and not set down ("By default, Cumulus Linux disables all
        data plane ports", Quick Start Guide; NVUE brings a configured port up): NVIDIA's
        factory startup.yaml configures none."""
        return _ports_up(_trees(running))

    def disrupts(self, running: dict[str, tuple[str, str]],
                 candidate: dict[str, tuple[str, str]]) -> list[str]:
        """What restarts switchd or FRR, or rebuilds a cage, where something runs that it takes
        down (docs/render-cumulus.md, "Changes that restart switchd or FRR"):

        - `system forwarding hash-seed` set, changed or removed: "Configuring the hash seed
          restarts the `switchd` service, which causes all network ports to reset" (5.15
          ECMP page);
        - a cage's `link breakout` changed: its ports are replaced by others (5.15 "Switch
          Port Attributes", Breakout Ports);
        - BGP enabled or disabled, or its ASN changed: "the FRR service restarts, which might
          impact traffic" (5.14 Basic BGP Configuration); `router bfd` switched on or off:
          "the FRR service will restart, affecting all configured routing protocols" (5.15
          BFD page).

        Asked only of a switch with a swp port up (`in_service`); an FRR restart is named
        only where FRR already routes (BGP on, or a static route in a VRF)."""
        before, after = _trees(running), _trees(candidate)
        out = _seed_change(before, after) + _breakout_changes(before, after)
        if _frr_routes(before):
            out += _frr_restarts(before, after)
        return out

    def mask(self, text: str) -> str:
        """Also the SNMP communities of NVUE's YAML, which are keys: each entry directly under
        a `readonly-community:` line (`$nvsec$...` once the switch has applied it)."""
        lines = super().mask(text).split("\n")
        parent: int | None = None
        child: int | None = None
        for i, line in enumerate(lines):
            stripped = line.lstrip(" ")
            indent = len(line) - len(stripped)
            if not stripped:
                continue
            if parent is not None and indent <= parent:
                parent = None
            if parent is not None:
                child = indent if child is None else child
                if indent == child and ":" in stripped:
                    lines[i] = " " * indent + "********:" + stripped.split(":", 1)[1]
            if stripped.rstrip() == "readonly-community:":
                parent, child = indent, None
        return "\n".join(lines)

    def discard_leftovers(self, driver: NetworkDriver, target: Target) -> list[str]:
        """A revision our user left pending (a failed apply) is detached: NVUE keeps it
        otherwise, and `nv config diff` and `show -r pending` keep showing it."""
        mine = sorted(rev for rev, info in driver._revisions().items()
                      if info.get("state") == "pending" and info.get("user") == driver.username)
        if not mine:
            return []
        driver.discard_config()
        return [f"detached pending revision {', '.join(mine)}"]

    def sections(self, text: str) -> dict[str, tuple[str, str]]:
        """`interface swp1`, `service ntp`, `system hostname`: the second level under
        `set`, and each login of its own (`system aaa user admin`, `system aaa
        authentication-order`); the family is the first level, or for `service` and `system`
        the second."""
        from netcfg import yamlfast

        return {key: (family, yamlfast.safe_dump(value, sort_keys=True))
                for key, (family, _, value) in _sections(text).items()}

    def add_sections(self, running: str, candidate: str, keys: list[str]) -> str:
        from netcfg import yamlfast

        found = _sections(running)
        keep: dict[str, Any] = {}
        for key in keys:
            if key in found:
                _, path, value = found[key]
                node = keep
                for token in path[:-1]:
                    node = node.setdefault(token, {})
                node[path[-1]] = value
        if not keep:
            return candidate
        return candidate.rstrip("\n") + "\n" + yamlfast.safe_dump([{"set": keep}],
                                                                  sort_keys=False)


#: mappings whose entries are each a section of their own: the device's other logins stay
#: beside the intent's
_SPLIT = frozenset({("system", "aaa"), ("system", "aaa", "user")})


def _sections(text: str) -> dict[str, tuple[str, tuple[str, ...], Any]]:
    """Section key -> (family, path under `set`, value) of an NVUE document."""
    from netcfg.vendors.cumulus.render import sets

    def split(path: tuple[str, ...], value: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
        if path in _SPLIT and isinstance(value, dict) and value:
            for name, inner in value.items():
                yield from split(path + (str(name),), inner)
        else:
            yield path, value

    out: dict[str, tuple[str, tuple[str, ...], Any]] = {}
    for top, body in sets(text).items():
        children = body.items() if isinstance(body, dict) else [("", body)]
        for name, value in children:
            for path, inner in split((top, str(name)) if name != "" else (top,), value):
                family = " ".join(path[:2]) if top in ("service", "system") else top
                out[" ".join(path)] = (family, path, inner)
    return out


#: the 5.15 ECMP page's warning, and the FRR restart, as each phrase ends
_SWITCHD = "(restarts switchd: NVIDIA, every network port resets)"
_FRR = "(the FRR service restarts: NVIDIA, every routing protocol is affected)"
_ON = ("on", "enabled", True)


def _trees(sections: dict[str, tuple[str, str]]) -> dict[str, Any]:
    """Section key -> its value, parsed back from the `sections` YAML."""
    from netcfg import yamlfast

    return {key: yamlfast.safe_load(text) for key, (_, text) in sections.items()}


def _get(tree: Any, *path: str) -> Any:
    for token in path:
        if not isinstance(tree, dict):
            return None
        tree = tree.get(token)
    return tree


def _ports_up(trees: dict[str, Any]) -> bool:
    """A swp port configured and not set down (`link state down`, written `state: down` or
    as NVUE's `state: {down: {}}`): its link may be up."""
    return any(key.startswith("interface swp")
               and _get(body, "link", "state") not in ("down", {"down": {}})
               for key, body in trees.items())


def _seed_change(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    old = _get(before.get("system forwarding"), "hash-seed")
    new = _get(after.get("system forwarding"), "hash-seed")
    if old == new:
        return []
    if old is None:
        return [f"sets `system forwarding hash-seed {new}` {_SWITCHD}"]
    if new is None:
        return [f"removes `system forwarding hash-seed {old}` {_SWITCHD}"]
    return [f"changes `system forwarding hash-seed` {old} -> {new} {_SWITCHD}"]


def _breakout_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    def mode(trees: dict[str, Any], key: str) -> str:
        modes = _get(trees.get(key), "link", "breakout") or {}
        return ",".join(sorted(str(m) for m in modes)) or "1x"

    out = []
    for key in sorted(k for k in before.keys() | after.keys() if k.startswith("interface swp")):
        old, new = mode(before, key), mode(after, key)
        if old != new:
            out.append(f"changes `{key} link breakout` {old} -> {new} (the cage's ports are "
                       "replaced: their links go down)")
    return out


def _bgp(trees: dict[str, Any]) -> tuple[bool, Any]:
    """(BGP on, its ASN) as `router bgp` states them (5.14 `enable`, 5.15 `state`)."""
    body = trees.get("router bgp")
    if not isinstance(body, dict):
        return False, None
    on = body.get("state", body.get("enable", "on")) in _ON
    return on, body.get("autonomous-system")


def _frr_routes(trees: dict[str, Any]) -> bool:
    """FRR routes something: BGP on, or a static route in a VRF."""
    return _bgp(trees)[0] or any(
        key.startswith("vrf ") and _get(body, "router", "static") for key, body in trees.items())


def _frr_restarts(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    (was_on, old_asn), (now_on, new_asn) = _bgp(before), _bgp(after)
    out = []
    if was_on != now_on:
        out.append(f"{'enables' if now_on else 'disables'} BGP {_FRR}")
    elif now_on and old_asn != new_asn:
        out.append(f"changes the BGP autonomous-system {old_asn} -> {new_asn} {_FRR}")

    def bfd(trees: dict[str, Any]) -> bool:
        return _get(trees.get("router bfd"), "state") in _ON

    if bfd(before) != bfd(after):
        out.append(f"{'enables' if bfd(after) else 'disables'} `router bfd` {_FRR}")
    return out
