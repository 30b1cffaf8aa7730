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


#: tables SONiC writes at first boot that netcfg does not render (../shared/factory/sonic:
#: init_cfg.json, db_migrator, featured, hostcfgd): which containers run (FEATURE), counters,
#: techsupport, kdump, syslog rate limits, password rules, the DB version, BGP's own state, NTP's
#: and the banner's globals. A replace without them stops containers and loses the box's
#: settings (DEFAULTS.md: what `config replace` removes), so they are kept
FIRST_BOOT_TABLES = ("FEATURE", "CRM", "AUTO_TECHSUPPORT", "AUTO_TECHSUPPORT_FEATURE", "KDUMP",
                     "SYSLOG_CONFIG", "SYSLOG_CONFIG_FEATURE", "PASSW_HARDENING",
                     "SYSTEM_DEFAULTS", "VERSIONS", "BGP_DEVICE_GLOBAL", "NTP",
                     "BANNER_MESSAGE")

class SonicDeploy(DeployAdapter):
    napalm_driver = "netcfg_sonic"
    #: the switch's management port, VRF and counters, who may log in (AAA, TACACS+,
    #: RADIUS) and its SNMP, and every DEVICE_METADATA field the file does not set (set at
    #: install: deployment_id, timezone, default_pfcwd_status, synchronous_mode, ...)
    device_local = ("MGMT_INTERFACE", "MGMT_PORT", "MGMT_VRF_CONFIG", "FLEX_COUNTER_TABLE",
                    "AAA", "TACPLUS", "TACPLUS_SERVER", "RADIUS", "RADIUS_SERVER",
                    "SNMP", "SNMP_COMMUNITY", "SNMP_USER", "DEVICE_METADATA|localhost|*",
                    "PORT|*", *FIRST_BOOT_TABLES)
    #: the hardware's identity, set at install (a file's `hwsku` that differs is reported,
    #: not applied), the SKU's buffer pools (GCU refuses to add or remove one:
    #: gcu_field_operation_validators.conf.json), the buffer model the box runs (netcfg never
    #: changes it through a replace; the driver refuses a file for the other model) and the
    #: cages' breakout modes (BREAKOUT_CFG, written at install from the SKU's hwsku.json)
    device_owned = ("BUFFER_POOL", "BREAKOUT_CFG", *(
        f"DEVICE_METADATA|localhost|{name}" for name in (
            "hwsku", "platform", "mac", "asic_id", "buffer_model")))
    default_port = 22
    protocol = "ssh"

    def in_service(self, running: dict[str, tuple[str, str]]) -> bool:
        """A PORT with `admin_status` up (SONiC's YANG default is down: sonic-port.yang). The
        first-boot CONFIG_DB SONiC's own tools write (preset t1) brings every port up with a
        /31 and a BGP neighbour, so a factory SONiC box is in service."""
        return any(table == "PORT" and json.loads(body).get("admin_status") == "up"
                   for table, body in running.values())

    def disrupts(self, running: dict[str, tuple[str, str]],
                 candidate: dict[str, tuple[str, str]]) -> list[str]:
        """A box without buffer pools (SONiC's factory CONFIG_DB has none) gets them only from
        SONiC's own `config qos reload` (GCU adds no pool: gcu_field_operation_validators
        .conf.json), which the driver runs before the replace: it reprograms the buffers and
        QoS of every port, outside the commit-confirm."""
        if "BUFFER_POOL" in running or "BUFFER_POOL" not in candidate:
            return []
        return ["installs the SKU's buffer pools and QoS with `config qos reload` (SONiC adds "
                "pools no other way; every port's buffers are reprogrammed, and a rollback "
                "keeps the pools)"]

    def driver_options(self, target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
        return netmiko_options(target, timeout)

    def save(self, driver: NetworkDriver) -> None:
        driver.cli(["sudo config save -y"])

    def sections(self, text: str) -> dict[str, tuple[str, str]]:
        """One section per CONFIG_DB table (`NTP_SERVER`, `SYSLOG_SERVER`), per port
        (`PORT|Ethernet0`), and per field of DEVICE_METADATA (`DEVICE_METADATA|localhost|
        hwsku`), whose fields are unrelated settings of the switch; the family is the
        table."""
        out = {}
        for table, body in json.loads(text).items():
            if table in _BY_FIELD and isinstance(body, dict):
                for entry, fields in body.items():
                    for name, value in (fields or {}).items():
                        out[f"{table}|{entry}|{name}"] = (table, json.dumps(value))
            elif table in _BY_ENTRY and isinstance(body, dict):
                for entry, fields in body.items():
                    out[f"{table}|{entry}"] = (table, json.dumps(fields, sort_keys=True))
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
            if not name:  # a whole entry (_BY_ENTRY)
                if entry in theirs.get(table, {}):
                    merged.setdefault(table, {})[entry] = theirs[table][entry]
                continue
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
            if not name:
                merged.get(table, {}).pop(entry, None)
                continue
            merged.get(table, {}).get(entry, {}).pop(name, None)
        return json.dumps(merged, indent=4, sort_keys=True) + "\n"


#: tables whose fields are each a section of their own
_BY_FIELD = frozenset({"DEVICE_METADATA"})
#: tables whose entries are each a section of their own: a port of the SKU the file does not
#: use stays as the box has it (`PORT|*` in device_local), never deleted by a replace
_BY_ENTRY = frozenset({"PORT"})
