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
                    "management ssh", "management security")
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
        from netcfg.deploy.sections import line_sections

        return line_sections(text)

    def add_sections(self, running: str, candidate: str, keys: list[str]) -> str:
        from netcfg.deploy.sections import add_line_sections

        return add_line_sections(running, candidate, keys)


def _run(driver: NetworkDriver, command: str) -> Any:
    return driver.device.run_commands([command])[0]
