"""Deploying to Juniper Junos through NAPALM's `junos` driver (PyEZ, NETCONF over SSH)."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from netcfg.vendors.base import DeployAdapter
from netcfg.vendors.junos import syntax
from netcfg.vendors.junos.syntax import statements

if TYPE_CHECKING:
    from napalm.base import NetworkDriver

    from netcfg.deploy.targets import Target


class JunosDeploy(DeployAdapter):
    #: `authentication-key "$9$...";` (Junos shows the $9$ form)
    secret_values = (re.compile(r'(?P<lead>\bauthentication-key )(?P<secret>"[^"]*"|[^;\s]+)'),
                     # root's and the logins' password hashes (`encrypted-password "$6$...";`)
                     re.compile(r'(?P<lead>\bencrypted-password )(?P<secret>"[^"]*"|[^;\s]+)'),
                     # the SNMP communities (`community <name> {`): netcfg renders no other
                     re.compile(r'(?P<lead>\bcommunity )(?P<secret>"[^"]*"|[^;\s{]+)'),
                     # TACACS+ and RADIUS keys (`secret "$9$...";`)
                     re.compile(r'(?P<lead>\bsecret )(?P<secret>"[^"]*"|[^;\s]+)'))
    """Commit timer: `commit confirmed N`, N in whole minutes (netcfg rounds up; NAPALM
    requires a multiple of 60 s)."""

    napalm_driver = "junos"
    #: root's password (Junos refuses a commit without it) and who may log in and how: the
    #: users and classes of `system login` (its message and announcement are banners); and the
    #: management instance with its default route where the file has none (no
    #: management.gateway: a replace would take the switch's own away, CAP027)
    device_local = ("system root-authentication", "system login user *", "system login class *",
                    "system authentication-order", "system tacplus-server",
                    "system radius-server", "system management-instance",
                    "routing-instances mgmt_junos")
    plain_driver = "netcfg_junos"
    default_port = 830
    protocol = "ssh"

    def in_service(self, running: dict[str, tuple[str, str]]) -> bool:
        """A physical port with a logical unit: only such a port carries traffic (a switch
        fresh from the factory has none: docs/render-junos.md, Disruptive changes)."""
        return bool(_in_service(running))

    def disrupts(self, running: dict[str, tuple[str, str]],
                 candidate: dict[str, tuple[str, str]]) -> list[str]:
        """What stops traffic by itself on Junos (Juniper's text in docs/render-junos.md,
        "Disruptive changes"):
        - PFC configured or changed on a port: the `congestion-notification-profile` page,
          "Configuring or changing PFC on an interface blocks the entire port until the PFC
          change is completed ... Blocking the port stops ingress and egress traffic";
        - the shared-buffer partitions changed: the `shared-buffer` and `buffer-partition`
          pages, "Changing the buffer configuration is a disruptive event. Traffic stops on
          all ports until the buffer reprogramming is complete."
        PFC is named on the ports the running config puts in service (a logical unit on
        them): the others carry no traffic to stop."""
        serving = _in_service(running)
        out = []
        before, after = _pfc(running), _pfc(candidate)
        ports = sorted((p for p in serving if before.get(p) != after.get(p)), key=_port_key)
        if ports:
            shown = ", ".join(ports[:4]) + (f" and {len(ports) - 4} more" if len(ports) > 4
                                              else "")
            out.append(f"changes PFC on {shown} (Junos blocks each port, ingress and egress, "
                       "until the change completes)")
        buffers = "class-of-service shared-buffer"
        if running.get(buffers) != candidate.get(buffers):
            out.append("changes the shared-buffer partitions (Junos stops traffic on all ports "
                       "until the buffers are reprogrammed)")
        return out

    def driver_options(self, target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
        if target.check_host_keys and target.known_hosts:
            from netcfg.deploy.connect import ssh_config

            path = ssh_config(workdir, target, {"UserKnownHostsFile": target.known_hosts})
            return {"ssh_config_file": path}
        return {}

    def prepare(self, driver: NetworkDriver, target: Target) -> None:
        # NAPALM's junos driver builds PyEZ's Device without `hostkey_verify` (PyEZ default:
        # off); the documented Device option is set here so known_hosts is enforced
        driver.device._hostkey_verify = target.check_host_keys
        _prompt_netconf()

    def clear_stale(self, driver: NetworkDriver, target: Target) -> list[str]:
        """Uncommitted changes in the shared candidate that nobody holds the lock for block
        `lock`: discarded (`rollback 0`), because netcfg owns the configuration of the
        devices it deploys to."""
        from jnpr.junos.exception import LockError

        cu = driver.device.cu
        try:
            cu.lock()
        except LockError as exc:
            if "modified" not in str(exc):
                return []  # locked by someone: NAPALM's own lock reports it
            cu.rollback(0)
            return ["discarded uncommitted changes in the shared candidate (no lock held)"]
        cu.unlock()
        return []

    def revert_seconds(self, seconds: int) -> int:
        return max(1, math.ceil(seconds / 60)) * 60

    def commit(self, driver: NetworkDriver, seconds: int, message: str) -> None:
        driver.commit_config(message=message, revert_in=seconds)

    def sections(self, text: str) -> dict[str, tuple[str, str]]:
        """`system ntp`, `interfaces et-0/0/0`, `class-of-service schedulers`: the second
        level of the hierarchy, and each login of its own (`system login user ops`, `system
        login class noc`, `system login message`); the family is the top statement, or for
        `system` the second level (`system syslog` is not what `system host-name` is)."""
        return {key: (family, "\n".join(sorted(line for whole in lines
                                                for line in _one_attribute_each(whole))))
                for key, (family, _, lines) in _sections(text).items()}

    def add_sections(self, running: str, candidate: str, keys: list[str]) -> str:
        found = _sections(running)
        for key in keys:
            if key in found:
                candidate = syntax.merge_statements(candidate,
                                                    syntax.select(running, found[key][1]))
        return candidate

    def remove_sections(self, candidate: str, keys: list[str]) -> str:
        found = _sections(candidate)
        for key in keys:
            if key in found:
                candidate = syntax.remove_statements(candidate, found[key][1])
        return candidate


#: a forwarding class's attributes that take a value (`class roce queue-num 3 no-loss
#: pfc-priority 3`: queue-num and pfc-priority do, no-loss is a flag)
_CLASS_VALUES = frozenset({"queue-num", "pfc-priority", "priority", "policing-priority"})


def _one_attribute_each(line: str) -> list[str]:
    """A forwarding class written on one line (as netcfg renders it) as the statements one
    per attribute that the same class shown as a block gives, so a switch that shows it
    either way compares equal."""
    words = line.split()
    head = "class-of-service forwarding-classes class"
    if not line.startswith(head + " ") or len(words) < 6:
        return [line]
    stem, rest, out = " ".join(words[:4]), words[4:], []
    while rest:
        take = 2 if rest[0] in _CLASS_VALUES and len(rest) > 1 else 1
        out.append(" ".join([stem, *rest[:take]]))
        rest = rest[take:]
    return out


def _lines(sections: dict[str, tuple[str, str]], key: str) -> list[list[str]]:
    """The flat statements of one section, as words."""
    return [line.split() for line in sections.get(key, ("", ""))[1].splitlines()]


def _in_service(sections: dict[str, tuple[str, str]]) -> set[str]:
    """Physical ports with a logical unit configured: the ones that can carry traffic."""
    return {words[1] for key, (family, text) in sections.items() if family == "interfaces"
            for words in (line.split() for line in text.splitlines())
            if len(words) > 3 and words[2] == "unit" and not words[1].startswith(("lo", "re"))}


def _pfc(sections: dict[str, tuple[str, str]]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Port -> what decides its PFC: the statements of the congestion-notification profile
    bound to it (without the profile's name) and the lossless forwarding classes
    (`no-loss pfc-priority N`), which give the priority its pause frames carry."""
    profiles: dict[str, list[tuple[str, ...]]] = {}
    for words in _lines(sections, "class-of-service congestion-notification-profile"):
        if len(words) > 3:
            profiles.setdefault(words[2], []).append(tuple(words[3:]))
    # a class's attributes, whether written on one line (`class roce queue-num 3 no-loss
    # pfc-priority 3`, as rendered) or one per line (as the switch shows them)
    classes: dict[str, list[str]] = {}
    for words in _lines(sections, "class-of-service forwarding-classes"):
        if len(words) > 4 and words[2] == "class":
            classes.setdefault(words[3], []).extend(words[4:])
    lossless = tuple((name, *sorted(attrs)) for name, attrs in sorted(classes.items())
                     if "no-loss" in attrs)
    out: dict[str, tuple[tuple[str, ...], ...]] = {}
    for words in _lines(sections, "class-of-service interfaces"):
        if len(words) == 5 and words[3] == "congestion-notification-profile":
            out[words[2]] = tuple(sorted(profiles.get(words[4], []))) + lossless
    return out


def _port_key(name: str) -> tuple:
    return tuple(int(n) if n.isdigit() else n for n in re.split(r"(\d+)", name))


def _section_path(statement: tuple[str, ...]) -> tuple[str, ...]:
    """The path naming the section a flat statement belongs to (JunosDeploy.sections)."""
    if statement[:2] == ("system", "login") and len(statement) > 2:
        return statement[:4] if statement[2] in ("user", "class") else statement[:3]
    return statement[:2]


def _sections(text: str) -> dict[str, tuple[str, tuple[str, ...], list[str]]]:
    """Section key -> (family, path, its flat statements)."""
    found: dict[str, tuple[str, tuple[str, ...], list[str]]] = {}
    for s in statements(text):
        if len(s) < 2 or s[0] == "version":
            continue
        path = _section_path(s)
        family = " ".join(s[:2]) if s[0] in ("system", "services", "protocols") else s[0]
        found.setdefault(" ".join(path), (family, path, []))[2].append(" ".join(s))
    return found


#: seconds ncclient's session loop waits for the device before it looks at its send queue
NETCONF_TICK = 0.005


def _prompt_netconf() -> None:
    """ncclient's session thread sends a queued RPC only when its `select` on the socket
    returns or times out (`ncclient.transport.session.TICK`, 0.1 s): every NETCONF RPC of a
    push idled that long, some twenty per Junos device. A shorter tick sends at once; the
    thread wakes more often while a session is open, nothing else changes."""
    import ncclient.transport.session as session

    session.TICK = min(session.TICK, NETCONF_TICK)
