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
        import yaml

        return {key: (family, yaml.safe_dump(value, sort_keys=True))
                for key, (family, _, value) in _sections(text).items()}

    def add_sections(self, running: str, candidate: str, keys: list[str]) -> str:
        import yaml

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
        return candidate.rstrip("\n") + "\n" + yaml.safe_dump([{"set": keep}], sort_keys=False)


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
