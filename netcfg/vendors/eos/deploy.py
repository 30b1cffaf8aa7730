"""Deploying to Arista EOS through NAPALM's `eos` driver (eAPI over HTTPS)."""

from __future__ import annotations

import re
import ssl
from pathlib import Path
from typing import TYPE_CHECKING, Any

from netcfg.vendors.base import DeployAdapter

if TYPE_CHECKING:
    from napalm.base import NetworkDriver

    from netcfg.deploy.targets import Target


class EosDeploy(DeployAdapter):
    #: `neighbor A password [0|7|8a] KEY` (EOS shows type 7)
    secret_values = (re.compile(r"(?P<lead>\bneighbor \S+ password (?:(?:0|7|8a) )?)"
                                r"(?P<secret>\S+)"),
                     re.compile(r"(?P<lead>\bsnmp-server community )(?P<secret>\S+)"),
                     # the logins' password hashes (`username u ... secret sha512 $6$...`)
                     re.compile(r"(?P<lead>\bsecret (?:sha512 |5 |0 )?)(?P<secret>\S+)"),
                     # TACACS+ and RADIUS keys (`tacacs-server host H vrf V key 7 ...`)
                     re.compile(r"(?P<lead>\b(?:tacacs|radius)-server host .*?\bkey "
                                r"(?:(?:0|7|8a) )?)(?P<secret>\S+)"))
    """Commit timer: `configure session ... commit timer` (NAPALM `revert_in`)."""

    napalm_driver = "eos"
    #: who may log in and how: users, AAA, the enable secret, roles, AAA servers, SSH
    device_local = ("username", "aaa *", "enable", "role", "tacacs-server", "radius-server",
                    "management ssh", "management security",
                    # lines a factory EOS prints that netcfg does not render and that a
                    # replace (`rollback clean-config`) gives back as they are: keeping the
                    # device's own changes nothing (../shared/factory/eos: the vEOS 4.15
                    # startup-config prints both, and the 4.29 captures its README quotes)
                    "spanning-tree*", "transceiver")
    plain_driver = "netcfg_eos"
    default_port = 443
    protocol = "https"

    def driver_options(self, target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
        # pyeapi takes an SSLContext: the lab's or a private CA, or the system store
        if target.verify_tls:
            context = ssl.create_default_context(cafile=target.ca_file)
        else:
            context = ssl.create_default_context()
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        return {"transport": "https", "context": context}

    def clear_stale(self, driver: NetworkDriver, target: Target) -> list[str]:
        """A NAPALM config session (`napalm_*`) left pending without a commit timer belongs to
        a driver that is gone (its name dies with the driver object), and it blocks every new
        session: aborted."""
        reply = _run(driver, "show configuration sessions detail")
        cleared = []
        for name, session in sorted(reply.get("sessions", {}).items()):
            if name.startswith("napalm_") and session.get("state") == "pending" \
                    and name != getattr(driver, "config_session", None):
                _run(driver, f"configure session {name} abort")
                cleared.append(f"aborted orphaned config session {name}")
        return cleared

    def revert_pending(self, driver: NetworkDriver) -> None:
        # NAPALM's EOS driver only aborts its own session; a lost connection's is another
        for session in sorted(driver._get_pending_commits()):
            _run(driver, f"configure session {session} abort")

    def save(self, driver: NetworkDriver) -> None:
        _run(driver, "copy running-config startup-config")

    def sections(self, text: str) -> dict[str, tuple[str, str]]:
        """The line sections, with a negated one-line setting (`no ip routing`, as a factory
        EOS prints it) in the section of the setting it negates (`ip routing`): replacing
        one by the other changes that setting, it removes nothing."""
        from netcfg.deploy.sections import line_sections

        out: dict[str, tuple[str, str]] = {}
        negated: list[str] = []
        for key, (family, content) in line_sections(text).items():
            if key.startswith("no ") and not any(line.startswith(" ")
                                                 for line in content.splitlines()):
                negated += content.splitlines()
            else:
                out[key] = (family, content)
        for line in negated:
            [(own, (fam, _))] = line_sections(line[3:] + "\n").items()
            had = out.get(own, (fam, ""))[1]
            out[own] = (fam, "\n".join(sorted(filter(None, [*had.splitlines(), line]))))
        return out

    def in_service(self, running: dict[str, tuple[str, str]]) -> bool:
        """An Ethernet port without `shutdown`: EOS brings its ports up as switchports in
        VLAN 1 (../shared/factory DEFAULTS.md, observed), so a factory switch is in service
        too; its first push is not named because nothing it runs is changed (`disrupts`)."""
        return any(key.startswith("interface Ethernet") and "shutdown" not in _lines(running, key)
                   for key in running)

    def disrupts(self, running: dict[str, tuple[str, str]],
                 candidate: dict[str, tuple[str, str]]) -> list[str]:
        """What replacing the running config stops traffic with, beyond the lines' meaning
        (docs/render-eos.md, "Disruptive changes"): the applied MMU queue profile changed or
        replaced, a port's speed changed, a port's PFC changed. A switch that runs only EOS's
        defaults there (no profile applied, no speed or PFC line of its own: fresh from the
        factory) gets its first ones without this gate: nothing it ran is changed."""
        return _mmu_change(running, candidate) + _port_changes(running, candidate)

    def add_sections(self, running: str, candidate: str, keys: list[str]) -> str:
        from netcfg.deploy.sections import add_line_sections

        return add_line_sections(running, candidate, keys)


_APPLY = re.compile(r"platform trident mmu queue profile (\S+) apply")
_MMU_WHY = "(EOS re-carves the switch's packet buffer: traffic on every port is affected)"
_SPEED_WHY = "(the link goes down and retrains at the new speed)"
_PFC_WHY = "(the port's lossless priorities change under traffic: paused or lossless " \
    "traffic may drop)"


def _lines(sections: dict[str, tuple[str, str]], key: str) -> list[str]:
    return [line.strip() for line in sections.get(key, ("", ""))[1].splitlines()]


def _applied(sections: dict[str, tuple[str, str]]) -> str | None:
    return next((m.group(1) for line in _lines(sections, "platform trident")
                 if (m := _APPLY.fullmatch(line))), None)


def _mmu_change(running: dict[str, tuple[str, str]],
                candidate: dict[str, tuple[str, str]]) -> list[str]:
    before, after = _applied(running), _applied(candidate)
    if before is None:
        return []
    key = f"platform trident mmu queue profile {before}"
    if after == before and sorted(_lines(running, key)) == sorted(_lines(candidate, key)):
        return []
    what = ("its thresholds change" if after == before
            else f"`{after}` applied instead" if after else "EOS's default applied instead")
    return [f"changes the applied MMU queue profile `{before}` ({what}) {_MMU_WHY}"]


def _flow(sections: dict[str, tuple[str, str]], key: str) -> list[str]:
    """A port's PFC lines (the watchdog's left out: it does not change what is lossless)."""
    return [x for x in _lines(sections, key) if x.startswith("priority-flow-control")
            and not x.startswith("priority-flow-control pause watchdog")]


def _port_changes(running: dict[str, tuple[str, str]],
                  candidate: dict[str, tuple[str, str]]) -> list[str]:
    speeds, pfc = [], []
    for key in sorted(k for k in running if k.startswith("interface ") and k in candidate):
        port = key.split(None, 1)[1]
        old = [x for x in _lines(running, key) if x.startswith("speed ")]
        new = [x for x in _lines(candidate, key) if x.startswith("speed ")]
        if old and old != new:
            speeds.append(f"{port} {old[0][6:]} -> {new[0][6:] if new else 'default'}")
        if _flow(running, key) and _flow(running, key) != _flow(candidate, key):
            pfc.append(port)
    out = []
    if speeds:
        out.append(f"changes the speed of {len(speeds)} port{'s' if len(speeds) > 1 else ''}"
                   f" ({', '.join(speeds[:3])}{' ...' if len(speeds) > 3 else ''}) {_SPEED_WHY}")
    if pfc:
        out.append(f"changes PFC on {len(pfc)} port{'s' if len(pfc) > 1 else ''} "
                   f"({', '.join(pfc[:3])}{' ...' if len(pfc) > 3 else ''}) {_PFC_WHY}")
    return out


def _run(driver: NetworkDriver, command: str) -> Any:
    return driver.device.run_commands([command])[0]
