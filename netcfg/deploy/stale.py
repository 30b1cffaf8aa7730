"""Leftovers of a crashed run on the device, found and cleared before a candidate is loaded.

EOS: a NAPALM config session (`napalm_*`) left pending without a commit timer belongs to a
driver that is gone (its name dies with the driver object), and it blocks every new session:
aborted. Junos: uncommitted changes in the shared candidate that nobody holds the lock for
block `lock`: discarded (`rollback 0`), because netcfg owns the configuration of the devices it
deploys to. NX-OS: a `configure replace` waiting for its commit reverts by itself; netcfg will
not commit over it and says how long to wait. SONiC and Cumulus: netcfg's drivers clear their
own leftovers (a detached pending revision, a finished timer) when they load.
"""

from __future__ import annotations

from napalm.base import NetworkDriver

from netcfg.deploy.targets import Target


class PendingElsewhere(Exception):
    """The device has a change pending from elsewhere that must not be overridden."""


def clear(driver: NetworkDriver, target: Target) -> list[str]:
    """Clear what a crashed run left; returns what was cleared (for the journal)."""
    if target.nos == "eos":
        return _eos(driver)
    if target.nos == "junos":
        return _junos(driver)
    if target.nos == "nxos":
        _nxos(driver)
    return []


def _eos(driver: NetworkDriver) -> list[str]:
    reply = driver.device.run_commands(["show configuration sessions detail"])[0]  # type: ignore[attr-defined]
    cleared = []
    for name, session in sorted(reply.get("sessions", {}).items()):
        if name.startswith("napalm_") and session.get("state") == "pending" \
                and name != getattr(driver, "config_session", None):
            driver.device.run_commands([f"configure session {name} abort"])  # type: ignore[attr-defined]
            cleared.append(f"aborted orphaned config session {name}")
    return cleared


def _junos(driver: NetworkDriver) -> list[str]:
    from jnpr.junos.exception import LockError

    cu = driver.device.cu  # type: ignore[attr-defined]
    try:
        cu.lock()
    except LockError as exc:
        if "modified" not in str(exc):
            return []  # locked by someone: NAPALM's own lock reports it
        cu.rollback(0)
        return ["discarded uncommitted changes in the shared candidate (no lock held)"]
    cu.unlock()
    return []


def _nxos(driver: NetworkDriver) -> None:
    status = str(driver.device.show("show config-replace status", raw_text=True))  # type: ignore[attr-defined]
    if "pending commit" in status and "no operation pending" not in status:
        remaining = next((line.split(":", 1)[1].strip() for line in status.splitlines()
                          if line.lower().startswith("commit timeout")), "unknown time")
        raise PendingElsewhere(
            "a configure replace from an earlier session is pending its commit and reverts by "
            f"itself ({remaining}); netcfg does not commit over it, retry after it expires")
