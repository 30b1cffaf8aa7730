"""Deploying to SONiC through netcfg's own NAPALM driver (netcfg/vendors/sonic/driver.py):
a checkpoint and a device-side revert timer; the driver clears its own leftovers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from netcfg.deploy.drivers.shell import netmiko_options
from netcfg.vendors.base import DeployAdapter

if TYPE_CHECKING:
    from napalm.base import NetworkDriver

    from netcfg.deploy.targets import Target


class SonicDeploy(DeployAdapter):
    napalm_driver = "netcfg_sonic"
    default_port = 22
    protocol = "ssh"

    def driver_options(self, target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
        return netmiko_options(target, timeout)

    def save(self, driver: NetworkDriver) -> None:
        driver.cli(["sudo config save -y"])

    def sections(self, text: str) -> dict[str, tuple[str, str]]:
        """One section per CONFIG_DB table (`NTP_SERVER`, `SYSLOG_SERVER`, `PORT`)."""
        return {table: (table, json.dumps(body, sort_keys=True))
                for table, body in json.loads(text).items()}

    def add_sections(self, running: str, candidate: str, keys: list[str]) -> str:
        theirs, merged = json.loads(running), json.loads(candidate)
        for table in keys:
            if table in theirs:
                merged[table] = theirs[table]
        return json.dumps(merged, indent=4, sort_keys=True) + "\n"

    def keep_device_local(self, running: str, candidate: str) -> str:
        from netcfg.vendors.sonic.driver import keep_device_local

        merged = keep_device_local(json.loads(candidate), json.loads(running))
        return json.dumps(merged, indent=4, sort_keys=True) + "\n"

