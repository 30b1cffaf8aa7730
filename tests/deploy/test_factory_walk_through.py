"""The docs' walk-through on switches fresh from their vendors' factories, every NOS at once:
one switch per NOS of the multivendor inventory booted from ../shared/factory, pushed in one
fleet run (with --allow-disruptive: the NX-OS breakout and SONiC's first pools), then a diff
of each is clean and the rollback of the run gives each switch back the factory configuration
it booted with (the second push and the CLI's exit codes: tests/deploy/test_cli.py).

Outside truth: what each switch ran before the push is the vendor factory state the lab reads
from ../shared/factory (NVIDIA's startup.yaml, Cisco's reconstructed factory file, Arista's
unconfigured-switch capture, SONiC's first-boot CONFIG_DB, the Junos emulator's own boot
state); the rollback must restore exactly that. What may differ is written here by hand, each
with its reason: the time stamp NX-OS prints on its first line, and SONiC's BUFFER_* tables,
which GCU can neither remove nor change (../shared/factory/DEFAULTS.md, SONiC; docs/deploy.md:
"a rollback keeps the pools")."""

from __future__ import annotations

import json
import threading

import pytest

from netcfg.deploy.engine import Options, diff_device, push_fleet, restore_device
from netcfg.deploy.runs import Run

from .deploy_cases import BY_NOS, SHARED, fleet, specs

pytestmark = pytest.mark.skipif(
    SHARED is None or not (SHARED / "factory").is_dir(),
    reason="needs the vendor factory files (../shared/factory) next to the repository")

NAMES = sorted(BY_NOS.values())


def _as_restored(nos: str, text: str) -> object:
    """The running config, less what a rollback may leave different (module docstring)."""
    if nos == "nxos":
        return [line for line in text.splitlines()
                if not line.startswith("!Running configuration last done at")]
    if nos == "sonic":
        return {t: v for t, v in json.loads(text).items() if not t.startswith("BUFFER_")}
    return text


def test_factory_switches_push_clean_and_roll_back_to_the_factory(make_lab, tmp_path):
    lab = make_lab(*specs(NAMES, factory=True))
    nos = {name: nos for nos, name in BY_NOS.items()}
    before = {name: lab[name].running_config() for name in NAMES}
    # booted from the vendors' files, not the emulators' own minimal states: a line of each
    # (Arista's capture, Cisco's factory file, SONiC's first-boot hostname)
    assert "spanning-tree mode mstp" in before[BY_NOS["eos"]]
    assert "copp profile strict" in before[BY_NOS["nxos"]]
    assert json.loads(before[BY_NOS["sonic"]])["DEVICE_METADATA"]["localhost"][
        "hostname"] == "sonic"
    f = fleet(lab, NAMES, tmp_path)
    run = Run(tmp_path / "state")
    opts = Options(timeout=30, revert_in=300, batch_size=len(NAMES), allow_disruptive=True)

    results, aborted = push_fleet(f.targets, f.desired, run, opts, threading.Event())
    assert not aborted
    assert {r.device: r.status for r in results} == dict.fromkeys(NAMES, "confirmed"), results

    clean = Options(timeout=30)
    for target in f.targets:
        result = diff_device(target, f.desired[target.name], clean)
        assert (result.status, result.diff) == ("unchanged", ""), (target.name, result.diff)

    assert run.changed_devices() == NAMES
    for target in f.targets:
        backup = run.saved("backup", target.name)
        assert backup is not None
        restored = restore_device(target, backup, run, clean)
        assert restored.status == "rolled-back", restored
    for name in NAMES:
        assert _as_restored(nos[name], lab[name].running_config()) == \
            _as_restored(nos[name], before[name]), name
