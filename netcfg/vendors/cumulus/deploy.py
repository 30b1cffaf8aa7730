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
    from netcfg.deploy.targets import Target


class CumulusDeploy(DeployAdapter):
    #: a neighbour's `password: KEY` (NVUE shows it in clear text by default)
    secret_values = (re.compile(r"(?P<lead>\bpassword: )(?P<secret>\S.*)$", re.MULTILINE),)
    napalm_driver = "netcfg_cumulus"
    default_port = 22
    protocol = "ssh"

    def driver_options(self, target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
        return netmiko_options(target, timeout)

    def keep_device_local(self, running: str, candidate: str) -> str:
        from netcfg.vendors.cumulus.driver import with_device_local

        return with_device_local(candidate, running)
