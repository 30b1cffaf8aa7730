"""Deploying to Cumulus Linux through netcfg's own NAPALM driver
(netcfg/vendors/cumulus/driver.py): `nv config apply --confirm`; an applied revision is the
startup configuration, so nothing is saved apart."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from netcfg.deploy.drivers.shell import netmiko_options
from netcfg.vendors.base import DeployAdapter

if TYPE_CHECKING:
    from napalm.base import NetworkDriver

    from netcfg.deploy.targets import Target


class CumulusDeploy(DeployAdapter):
    #: a neighbour's `password: KEY` (NVUE shows it in clear text by default)
    secret_values = (re.compile(r"(?P<lead>\b(?:hashed-)?password: )(?P<secret>\S.*)$",
                                re.MULTILINE),)
    napalm_driver = "netcfg_cumulus"
    default_port = 22
    protocol = "ssh"

    def driver_options(self, target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
        return netmiko_options(target, timeout)

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
        `set`; the family is the first level, or for `service` and `system` the section."""
        import yaml

        from netcfg.vendors.cumulus.render import sets

        out: dict[str, tuple[str, str]] = {}
        for top, body in sets(text).items():
            children = body.items() if isinstance(body, dict) else [("", body)]
            for name, value in children:
                key = f"{top} {name}".strip()
                family = key if top in ("service", "system") else top
                out[key] = (family, yaml.safe_dump(value, sort_keys=True))
        return out

    def add_sections(self, running: str, candidate: str, keys: list[str]) -> str:
        import yaml

        from netcfg.vendors.cumulus.render import sets

        merged = sets(running)
        keep: dict[str, Any] = {}
        for key in keys:
            top, _, name = key.partition(" ")
            body = merged.get(top)
            if name and isinstance(body, dict) and name in body:
                keep.setdefault(top, {})[name] = body[name]
            elif not name and top in merged:
                keep[top] = merged[top]
        if not keep:
            return candidate
        return candidate.rstrip("\n") + "\n" + yaml.safe_dump([{"set": keep}], sort_keys=False)

    def keep_device_local(self, running: str, candidate: str) -> str:
        from netcfg.vendors.cumulus.driver import with_device_local

        return with_device_local(candidate, running)
