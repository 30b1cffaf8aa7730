"""Deploying to Cisco NX-OS through NAPALM's `nxos` driver (NX-API over HTTPS, SCP for the
replace file). NAPALM's NX-OS driver has no `revert_in`, so netcfg uses NX-OS's own
`configure replace ... commit-timeout`, with a checkpoint to go back to at once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from netcfg.vendors.base import DeployAdapter, PendingElsewhere

if TYPE_CHECKING:
    from napalm.base import NetworkDriver

    from netcfg.deploy.targets import Target

#: the checkpoint netcfg takes before each replace (one name: replaced every push)
CHECKPOINT = "netcfg-pre-commit"
#: `configure replace ... commit-timeout` range, seconds
COMMIT_TIMEOUT = (30, 3600)


class NxosDeploy(DeployAdapter):
    #: a neighbour's `password [0|3|7] KEY` (NX-OS shows type 3); also a user's
    #: `password 5 HASH`
    secret_values = (re.compile(r"(?P<lead>(?<![\w-])password (?:\d )?)(?P<secret>\S+)"),
                     re.compile(r"(?P<lead>\bsnmp-server community )(?P<secret>\S+)"),
                     # TACACS+ and RADIUS keys (`tacacs-server host H key 7 "..."`)
                     re.compile(r'(?P<lead>\b(?:tacacs|radius)-server host .*?\bkey (?:\d )?)'
                                r'(?P<secret>"[^"]*"|\S+)'))
    napalm_driver = "nxos"
    #: who may log in and how: users, AAA, roles, AAA servers, SNMPv3 users, SSH keys; and
    #: the switch's own sections netcfg does not render, which a `configure replace` (the
    #: whole file replaces the running config: "It should not be a partial configuration",
    #: Cisco's configuration-replace guide) would otherwise remove: its features (NX-API and
    #: the SCP server NAPALM needs among them), boot image, CoPP profile, default VDC
    #: limits, RMON events, console/vty lines, TCAM carving, system defaults of switchports
    #: (../shared/factory/nxos, DEFAULTS.md); docs/render-nxos.md lists them
    device_local = ("username", "aaa *", "role", "tacacs-server", "radius-server",
                    "snmp-server user", "ssh",
                    "feature *", "boot", "copp profile", "vdc", "rmon", "line", "line *",
                    "hardware access-list", "system default", "no system", "icam",
                    "ip domain-lookup", "vlan 1",
                    # the management VRF and its default route, where the intent gives no
                    # gateway (then the file has no such block: docs/render-nxos.md); an
                    # empty VRF is a one-line section of the family
                    "vrf context management", "vrf context")
    plain_driver = "netcfg_nxos"
    default_port = 443
    protocol = "https"

    def in_service(self, running: dict[str, tuple[str, str]]) -> bool:
        """A front-panel port up: `no shutdown` under it, or a switched port where the switch
        does not shut L2 ports by default (docs/render-nxos.md, Disruptive changes). A routed
        port is shut unless it says `no shutdown` (../shared/factory DEFAULTS.md): Cisco's
        factory switch has none up."""
        return _in_service(running)

    def disrupts(self, running: dict[str, tuple[str, str]],
                 candidate: dict[str, tuple[str, str]]) -> list[str]:
        """A breakout line added, changed or removed: NX-OS reloads the module and removes
        the split interfaces' configuration when `interface breakout` runs (Cisco NX-API
        reference, "Configuring Breakout on High-Bandwidth Interfaces"), so every link of
        those cages goes down, whatever else the replace does; a queuing policy the switch
        applies changed (Cisco's QoS guide: "Changes are disruptive"); the network-qos
        policy of `system qos` changed (docs/render-nxos.md, Disruptive changes)."""
        def breakouts(sections: dict[str, tuple[str, str]]) -> set[str]:
            return {line.strip() for _, text in sections.values() for line in text.splitlines()
                    if line.strip().startswith("interface breakout ")}

        before, after = breakouts(running), breakouts(candidate)
        why = "(NX-OS reloads the module: its links go down)"
        return ([f"adds `{line}` {why}" for line in sorted(after - before)]
                + [f"removes `{line}` {why}" for line in sorted(before - after)]
                + _queuing_changes(running, candidate)
                + _network_qos_changes(running, candidate))

    def driver_options(self, target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
        args: dict[str, Any] = {
            "transport": "https",
            "ssl_verify": (target.ca_file or True) if target.verify_tls else False,
            # the replace candidate goes up by SCP over netmiko (host key checked like any
            # SSH); netmiko's own 10 s reads are too short for a busy switch or runner
            "ssh_strict": target.check_host_keys,
            "read_timeout_override": timeout,
        }
        if target.known_hosts:
            args.update(system_host_keys=False, alt_host_keys=True,
                        alt_key_file=target.known_hosts)
        ssh_port = target.ports.get("ssh", 22)
        if ssh_port != 22:  # NAPALM always says 22; netmiko then takes Port from ssh_config
            from netcfg.deploy.connect import ssh_config

            args["ssh_config_file"] = ssh_config(workdir, target, {"Port": str(ssh_port)},
                                                 host=target.host)
        return args

    def clear_stale(self, driver: NetworkDriver, target: Target) -> list[str]:
        """A `configure replace` waiting for its commit reverts by itself; netcfg will not
        commit over it and says how long to wait."""
        status = _show(driver, "show config-replace status")
        if _pending(status):
            remaining = next((line.split(":", 1)[1].strip() for line in status.splitlines()
                              if line.lower().startswith("commit timeout")), "unknown time")
            raise PendingElsewhere(
                "a configure replace from an earlier session is pending its commit and "
                f"reverts by itself ({remaining}); netcfg does not commit over it, retry "
                "after it expires")
        return []

    def discard_leftovers(self, driver: NetworkDriver, target: Target) -> list[str]:
        """The replace file NAPALM copied to bootflash: is netcfg's candidate: removed."""
        cleared = self.clear_stale(driver, target)
        name = f"{driver._dest_file_system}{driver.candidate_cfg}"
        try:
            _show(driver, f"dir {name}")
        except Exception:  # noqa: BLE001 - NX-OS answers `dir` of a missing file with an error
            return cleared
        driver._delete_file(driver.candidate_cfg)  # NAPALM's own discard deletes it this way
        cleared.append(f"deleted the candidate file {name}")
        return cleared

    def revert_seconds(self, seconds: int) -> int:
        low, high = COMMIT_TIMEOUT
        return min(max(seconds, low), high)

    def commit(self, driver: NetworkDriver, seconds: int, message: str) -> None:
        # NAPALM's load_replace_candidate put the candidate on the switch (SCP to bootflash:)
        path = f"{driver._dest_file_system}{driver.candidate_cfg}"
        try:
            _show(driver, f"no checkpoint {CHECKPOINT}")
        except Exception:  # noqa: BLE001 - none yet: nothing to remove
            pass
        _show(driver, f"checkpoint {CHECKPOINT}")
        _show(driver, f"configure replace {path} commit-timeout {seconds}")
        driver.loaded = False

    def confirm(self, driver: NetworkDriver) -> None:
        _show(driver, "configure replace commit")
        self.save(driver)

    def revert(self, driver: NetworkDriver) -> None:
        # NX-OS has no "abort" for a pending replace: go back to the checkpoint taken before
        # it, then end the pending replace, whose timer would only restore that same config
        # (left pending, it blocks any push to the device until it expires)
        _show(driver, f"rollback running-config checkpoint {CHECKPOINT} atomic")
        _show(driver, "configure replace commit")

    def pending(self, driver: NetworkDriver) -> bool:
        return _pending(_show(driver, "show config-replace status"))

    def save(self, driver: NetworkDriver) -> None:
        driver._copy_run_start()

    def sections(self, text: str) -> dict[str, tuple[str, str]]:
        from netcfg.deploy.sections import line_sections

        return line_sections(text)

    def add_sections(self, running: str, candidate: str, keys: list[str]) -> str:
        from netcfg.deploy.sections import add_line_sections

        return add_line_sections(running, candidate, keys)


#: where a queuing policy is applied: `system qos` or an interface, in either direction
_APPLIED = re.compile(r"service-policy type queuing (input|output) (\S+)")
#: Cisco Nexus 9000 NX-OS Quality of Service Configuration Guide 10.5(x), "Configuring Queuing
#: and Scheduling", guidelines: "Changes are disruptive. The traffic passing through ports of
#: the specified port type experience a brief period of traffic loss."
_QUEUING_WHY = ("(NX-OS: a queuing policy change is disruptive, traffic on all ports of the "
                "type is briefly lost)")


def _applied(sections: dict[str, tuple[str, str]]) -> dict[tuple[str, str], str]:
    """(where, direction) -> the queuing policy applied there."""
    out = {}
    for key, (_, text) in sections.items():
        if key == "system qos" or key.startswith("interface "):
            for line in text.splitlines():
                if m := _APPLIED.fullmatch(line.strip()):
                    out[(key, m.group(1))] = m.group(2)
    return out


def _queuing_changes(running: dict[str, tuple[str, str]],
                     candidate: dict[str, tuple[str, str]]) -> list[str]:
    """Each queuing policy the switch runs whose effect the replace changes: its classes
    changed, or another policy (or none) applied where it was, one phrase per policy with
    where it is applied; and a first policy in `system qos` where the switch runs NX-OS's
    default queuing (asked only of a switch in service: DeployAdapter.disruptive)."""
    before, after = _applied(running), _applied(candidate)
    first = after.get(("system qos", "output"))
    if not before and first is not None:
        return [f"applies queuing policy `{first}` (system qos) in place of NX-OS's default "
                f"{_QUEUING_WHY}"]
    places: dict[str, list[str]] = {}
    for (where, direction), name in before.items():
        key = f"policy-map type queuing {name}"
        same = (after.get((where, direction)) == name
                and candidate.get(key, ("", ""))[1] == running.get(key, ("", ""))[1])
        if not same:
            places.setdefault(name, []).append(where)
    out = []
    for name in sorted(places):
        system = "system qos" in places[name]
        ports = len(places[name]) - system
        scope = ", ".join((["system qos"] if system else [])
                          + ([f"{ports} port{'s' if ports != 1 else ''}"] if ports else []))
        out.append(f"changes queuing policy `{name}` ({scope}) {_QUEUING_WHY}")
    return out


#: the network-qos policy `system qos` applies (one per switch: its no-drop classes, their
#: pause CoS and MTU hold for every port)
_NETWORK_QOS = re.compile(r"service-policy type network-qos (\S+)")
#: no Cisco sentence on network-qos changes was found; the policy is system-level like the
#: queuing one whose changes the same guide calls disruptive for all ports (docs/render-nxos.md)
_NETWORK_QOS_WHY = ("(NX-OS: the system-level network-qos policy sets the no-drop classes "
                    "of all ports; a change is treated as disruptive like a queuing change)")


def _network_qos(sections: dict[str, tuple[str, str]]) -> str | None:
    """The network-qos policy `system qos` applies (None: NX-OS's default)."""
    _, text = sections.get("system qos", ("", ""))
    return next((m.group(1) for line in text.splitlines()
                 if (m := _NETWORK_QOS.fullmatch(line.strip()))), None)


def _network_qos_changes(running: dict[str, tuple[str, str]],
                         candidate: dict[str, tuple[str, str]]) -> list[str]:
    """The network-qos policy the switch runs changed (its classes: pause CoS, MTU), or
    another policy (or none) applied in `system qos`; or a first one where the switch runs
    NX-OS's default."""
    before, after = _network_qos(running), _network_qos(candidate)
    if before is None:
        if after is not None:
            return [f"applies network-qos policy `{after}` (system qos) in place of NX-OS's "
                    f"default {_NETWORK_QOS_WHY}"]
        return []
    key = f"policy-map type network-qos {before}"
    if after == before and candidate.get(key, ("", ""))[1] == running.get(key, ("", ""))[1]:
        return []
    return [f"changes network-qos policy `{before}` (system qos) {_NETWORK_QOS_WHY}"]


def _in_service(sections: dict[str, tuple[str, str]]) -> bool:
    """Whether an Ethernet port is up: `no shutdown` under it; or, without a `shutdown`
    line, a switched port (`switchport`, or no mode line under `system default
    switchport`) where `system default switchport shutdown` does not shut L2 ports."""
    top = {line.strip() for _, text in sections.values() for line in text.splitlines()
           if line[:1] not in ("", " ")}
    l2_default = "system default switchport" in top
    l2_up = "system default switchport shutdown" not in top
    for key, (_, text) in sections.items():
        if not key.startswith("interface Ethernet"):
            continue
        lines = {line.strip() for line in text.splitlines()}
        if "no shutdown" in lines:
            return True
        switched = "switchport" in lines or (l2_default and "no switchport" not in lines)
        if switched and l2_up and "shutdown" not in lines:
            return True
    return False


def _pending(status: str) -> bool:
    return "pending commit" in status and "no operation pending" not in status


def _show(driver: NetworkDriver, command: str) -> str:
    return str(driver.device.show(command, raw_text=True))
