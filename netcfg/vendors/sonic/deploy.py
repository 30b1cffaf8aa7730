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
    #: the switch's management port, VRF and counters, who may log in (AAA, TACACS+,
    #: RADIUS) and its SNMP, and every DEVICE_METADATA field the file does not set (set at
    #: install: deployment_id, timezone, default_pfcwd_status, synchronous_mode, ...)
    device_local = ("MGMT_INTERFACE", "MGMT_PORT", "MGMT_VRF_CONFIG", "FLEX_COUNTER_TABLE",
                    "AAA", "TACPLUS", "TACPLUS_SERVER", "RADIUS", "RADIUS_SERVER",
                    "SNMP", "SNMP_COMMUNITY", "SNMP_USER", "DEVICE_METADATA|localhost|*")
    #: the hardware's identity, set at install (a file's `hwsku` that differs is reported,
    #: not applied), and the SKU's buffer pools: GCU refuses any change to BUFFER_POOL
    #: (`Modification of BUFFER_POOL table is illegal`)
    device_owned = ("BUFFER_POOL", *(f"DEVICE_METADATA|localhost|{name}" for name in (
        "hwsku", "platform", "mac", "asic_id")))
    default_port = 22
    protocol = "ssh"

    def driver_options(self, target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
        return netmiko_options(target, timeout)

    def save(self, driver: NetworkDriver) -> None:
        driver.cli(["sudo config save -y"])

    def sections(self, text: str) -> dict[str, tuple[str, str]]:
        """One section per CONFIG_DB table (`NTP_SERVER`, `SYSLOG_SERVER`, `PORT`), and per
        field of DEVICE_METADATA (`DEVICE_METADATA|localhost|hwsku`), whose fields are
        unrelated settings of the switch; the family is the table."""
        out = {}
        for table, body in json.loads(text).items():
            if table in _BY_FIELD and isinstance(body, dict):
                for entry, fields in body.items():
                    for name, value in (fields or {}).items():
                        out[f"{table}|{entry}|{name}"] = (table, json.dumps(value))
            else:
                out[table] = (table, json.dumps(body, sort_keys=True))
        return out

    def add_sections(self, running: str, candidate: str, keys: list[str]) -> str:
        theirs, merged = json.loads(running), json.loads(candidate)
        for key in keys:
            table, _, rest = key.partition("|")
            if not rest:
                if table in theirs:
                    merged[table] = theirs[table]
                continue
            entry, _, name = rest.partition("|")
            value = theirs.get(table, {}).get(entry, {}).get(name)
            if value is not None:
                merged.setdefault(table, {}).setdefault(entry, {})[name] = value
        return json.dumps(merged, indent=4, sort_keys=True) + "\n"

    def remove_sections(self, candidate: str, keys: list[str]) -> str:
        merged = json.loads(candidate)
        for key in keys:
            table, _, rest = key.partition("|")
            if not rest:
                merged.pop(table, None)
                continue
            entry, _, name = rest.partition("|")
            merged.get(table, {}).get(entry, {}).pop(name, None)
        return json.dumps(merged, indent=4, sort_keys=True) + "\n"


#: tables whose fields are each a section of their own
_BY_FIELD = frozenset({"DEVICE_METADATA"})
