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
    """The timer the NOS will really run: Junos counts whole minutes."""
    if nos == "junos":
        return max(1, math.ceil(seconds / 60)) * 60
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
        driver.device.config_list(["configure replace commit"])  # type: ignore[attr-defined]
        driver._copy_run_start()  # type: ignore[attr-defined]
        return
    driver.confirm_commit()


def revert(driver: NetworkDriver, target: Target) -> None:
    """Undo a commit that is still waiting for its confirmation, now."""
    if target.nos == "nxos":
        driver.device.config_list(  # type: ignore[attr-defined]
            [f"rollback running-config checkpoint {NXOS_CHECKPOINT}"])
        return
    driver.rollback()


NXOS_CHECKPOINT = "netcfg-pre-commit"


def _nxos_commit(driver: NetworkDriver, seconds: int) -> None:
    # the candidate file is on bootflash: after load_replace_candidate (NAPALM's SCP upload)
    path = f"{driver._dest_file_system}{driver.candidate_cfg}"  # type: ignore[attr-defined]
    driver.device.config_list([  # type: ignore[attr-defined]
        f"checkpoint {NXOS_CHECKPOINT}",
        f"configure replace {path} commit-timeout {seconds}",
    ])
    driver.loaded = False  # type: ignore[attr-defined]
