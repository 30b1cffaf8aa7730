"""Commit with an automatic revert, confirm, and revert now — per NOS, on the device.

The revert must not depend on this process: if netcfg dies after a commit, the device goes
back by itself. EOS (`commit timer`), Junos (`commit confirmed`, whole minutes), SONiC and
Cumulus (netcfg's drivers: a device-side timer) get it through NAPALM's `revert_in`. NAPALM's
NX-OS driver has none, so netcfg uses NX-OS's own `configure replace ... commit-timeout`.
"""

from __future__ import annotations

import math

from napalm.base import NetworkDriver

from netcfg.deploy.targets import Target


def revert_seconds(nos: str, seconds: int) -> int:
    """The timer the NOS will really run: Junos counts whole minutes; NX-OS's
    `commit-timeout` takes 30-3600 s."""
    if nos == "junos":
        return max(1, math.ceil(seconds / 60)) * 60
    if nos == "nxos":
        return min(max(seconds, 30), 3600)
    return seconds


def commit(driver: NetworkDriver, target: Target, seconds: int, message: str) -> int:
    """Commit the loaded candidate with a revert timer; returns the timer's length."""
    timer = revert_seconds(target.nos, seconds)
    if target.nos == "nxos":
        _nxos_commit(driver, timer)
    elif target.nos == "junos":
        driver.commit_config(message=message, revert_in=timer)
    else:
        driver.commit_config(revert_in=timer)
    return timer


def confirm(driver: NetworkDriver, target: Target) -> None:
    if target.nos == "nxos":
        _nxapi(driver, "configure replace commit")
        driver._copy_run_start()  # type: ignore[attr-defined]
        return
    driver.confirm_commit()


def pending(driver: NetworkDriver, target: Target) -> bool:
    """Whether the device holds a commit that waits for its confirmation (any connection)."""
    if target.nos == "nxos":
        status = _nxapi(driver, "show config-replace status")
        return "pending commit" in status and "no operation pending" not in status
    return bool(driver.has_pending_commit())


def revert_pending(driver: NetworkDriver, target: Target) -> None:
    """Revert, now, a commit pending confirmation, from a connection that did not make it
    (the one that did was lost). NAPALM's EOS driver only aborts its own session; NAPALM's
    Junos and netcfg's SONiC and Cumulus drivers revert whatever is pending."""
    if target.nos == "eos":
        for session in sorted(driver._get_pending_commits()):  # type: ignore[attr-defined]
            driver.device.run_commands([f"configure session {session} abort"])  # type: ignore[attr-defined]
        return
    revert(driver, target)


def save(driver: NetworkDriver, target: Target) -> None:
    """Make the startup configuration equal the running one where the NOS keeps them apart
    (a confirm whose reply was lost may have stopped between the two steps)."""
    if target.nos == "eos":
        driver.device.run_commands(["copy running-config startup-config"])  # type: ignore[attr-defined]
    elif target.nos == "nxos":
        driver._copy_run_start()  # type: ignore[attr-defined]
    elif target.nos == "sonic":
        driver.cli(["sudo config save -y"])
    # Junos commits are persistent; Cumulus NVUE saves the applied revision as startup


def revert(driver: NetworkDriver, target: Target) -> None:
    """Undo a commit that is still waiting for its confirmation, now."""
    if target.nos == "nxos":
        # NX-OS has no "abort" for a pending replace: go back to the checkpoint taken before
        # it, then end the pending replace, whose timer would only restore that same config
        # (left pending, it blocks any push to the device until it expires)
        _nxapi(driver, f"rollback running-config checkpoint {NXOS_CHECKPOINT} atomic")
        _nxapi(driver, "configure replace commit")
        return
    driver.rollback()


#: the NX-OS checkpoint netcfg takes before each replace (one name: replaced every push)
NXOS_CHECKPOINT = "netcfg-pre-commit"


def _nxapi(driver: NetworkDriver, command: str) -> str:
    return str(driver.device.show(command, raw_text=True))  # type: ignore[attr-defined]


def _nxos_commit(driver: NetworkDriver, seconds: int) -> None:
    # NAPALM's load_replace_candidate put the candidate on the switch (SCP to bootflash:)
    path = f"{driver._dest_file_system}{driver.candidate_cfg}"  # type: ignore[attr-defined]
    try:
        _nxapi(driver, f"no checkpoint {NXOS_CHECKPOINT}")
    except Exception:  # noqa: BLE001 - none yet: nothing to remove
        pass
    _nxapi(driver, f"checkpoint {NXOS_CHECKPOINT}")
    _nxapi(driver, f"configure replace {path} commit-timeout {seconds}")
    driver.loaded = False  # type: ignore[attr-defined]
